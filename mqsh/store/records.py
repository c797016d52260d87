"""The log's records: every kind a queue manager writes, each field by name, and the short key
each field has on disk - named once, here.

The log keeps its one- and two-letter keys (data directories written before stay readable, and
a record costs a few bytes, not its field names): `Put(queue="Q1", ...).encode()` gives the dict
the log appends, and `decode(record)` the typed record back. The reference replay, restart,
media recovery and a peer's recovery of shared queues read records through them; the columnar
copies, and so the Spark replay, take their typed columns and types from them (column_types).

Keys are shared where the meaning is: `q` is always a queue's name, `u` a unit of work, `p` a
priority. `n` is the one key with two meanings, an object's name in OBJ and IMG and a block count
in the shared-message records; the columnar copies read it apart for that (mqsh.store.extent_tables).

Every key is spelled here only: a structure's list entries keep a shared message's fields under
the same keys, the columnar copies add columns of their own, and both are named here too. Other
modules - the Arrow, Spark and SQL queries among them - read each by its name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from typing import Any, ClassVar, TypeVar

KIND = "t"  # every record's kind
LSN = "lsn"  # added by the log when it reads a record back: its log sequence number

# The short keys on disk, each meaning named once: every field of that meaning has that key, and
# every reader of the log (the columnar copies and the queries over them too) spells it by this name.
OBJECT_KEY, OBJECT_TYPE, NAME, ATTRIBUTES, CREATED = "k", "o", "n", "a", "c"  # an object's
MESSAGES, CATALOG_ENTRIES = "ms", "es"  # an image's messages (documents as in a queue file), the catalog's
RESTART, UNITS, MEDIA = "restart", "uows", "media"  # a checkpoint's
QUEUE, MSGID, PRIORITY, SIZE, PUT_TIME, UNIT = "q", "m", "p", "s", "tm", "u"  # a message's, on a local queue
QUEUES, STRUCTURES = "qs", "cfs"  # what a unit of work touched
STRUCTURE, SHARED_QUEUE, ENTRY, LRSN = "cf", "sq", "e", "r"  # a shared message's list entry
OWNER, BLOCK, BLOCKS = "o", "b", "n"  # where its data is offloaded: the data set's owner, first block, count
STATE, MEMBER, ENTRY_COUNT = "st", "mb", "c"  # a backed-up entry's unit, and a backup's entries
# A message document (as a queue file and a media image hold it) keys its message id, priority, size,
# state and unit as the records do, and its put time apart.
DOCUMENT_PUT_TIME = "t"
# Who put a message, as its MQMD's origin context says: the user id (UserIdentifier) and the putting
# application's name (PutApplName). A message's document carries them; a put record only where they are
# not the putter its queue manager noted (mqsh.store.putnotes), and records written before, never.
USER, PUT_APPL = "us", "pa"

# A structure's list entry (mqsh.model.qsg.list_structure): a shared message's fields as its records
# key them, with its own whether it is persistent, its state and the member whose unit holds it -
# the columns of the structure's entry table, in their order there.
PERSISTENT, ENTRY_STATE, HOLDER = "persistent", "state", "member"
LIST_ENTRY_COLUMNS = (
    ENTRY,
    SHARED_QUEUE,
    PRIORITY,
    SIZE,
    PUT_TIME,
    PERSISTENT,
    OWNER,
    BLOCK,
    BLOCKS,
    ENTRY_STATE,
    HOLDER,
    UNIT,
)

# The columnar copies' columns of their own, beside the records' keys: an object record's whole JSON
# text (mqsh.store.columnar), the object a settled move is of (mqsh.store.settled: QUEUE/name, as
# replay keys objects), and a shared unit of work's outcome and whether it lies whole in its extent
# (mqsh.store.shared_units).
BODY, OBJECT_KEY_COLUMN, OUTCOME, WHOLE = "body", "key", "outcome", "whole"
# A copy's summary of its extent (mqsh.store.extent_tables.summarize): its records, first LSN, the
# newest LSNs touching each object, and its object records.
SUMMARY_COUNT, SUMMARY_FIRST, SUMMARY_NEWEST, SUMMARY_OBJECTS = "count", "first", "newest", "objects"

# Columnar types of the typed columns (mqsh.store.columnar turns them into Arrow and Spark types).
STRING, STRINGS, INT, LONG = "string", "strings", "int", "long"

R = TypeVar("R", bound="LogRecord")
NO_DEFAULT: Any = object()  # a field every record of the kind gives


class Field:
    """A record field: its short key on disk, its column type in the columnar copies (None: not a
    typed column, read from the record itself), whether the record leaves it out when it is None
    (a key that only some records of the kind carry), and its default."""

    __slots__ = ("key", "column", "omitted", "default")

    def __init__(self, key: str, column: str | None, omitted: bool, default: Any):
        self.key, self.column, self.omitted, self.default = key, column, omitted, default


def _field(key: str, column: str | None = None, omitted: bool = False, default: Any = NO_DEFAULT) -> Any:
    return Field(key, column, omitted, None if omitted and default is NO_DEFAULT else default)


class LogRecord:
    """A log record of one kind, its fields set once (as a frozen dataclass's); encode() is the dict
    the log writes.

    A kind's class is made by _kind from its annotated fields, as dataclasses would make it, but
    with only the __init__ written for it (one small function): eq, hash and repr are shared, so
    that the sixteen kinds cost a module import little - every mqsh process imports them."""

    KIND: ClassVar[str]
    FIELDS: ClassVar[tuple[tuple[str, Field], ...]]  # (name, field) in order, the base class's first

    def encode(self) -> dict[str, Any]:
        encoded: dict[str, Any] = {KIND: self.KIND}
        for name, key, omitted in ENCODING[self.KIND]:
            value = getattr(self, name)
            if value is None and omitted:
                continue
            encoded[key] = value
        return encoded

    @classmethod
    def decode(cls: type[R], record: dict[str, Any]) -> R:
        return cls(*[record.get(key) for key in KEYS[cls.KIND].values()])

    @classmethod
    def short_key(cls, name: str) -> str:
        """The short key a field of this kind has on disk."""
        return KEYS[cls.KIND][name]

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name, _field in self.FIELDS)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name, _field in self.FIELDS)
        return f"{self.__class__.__qualname__}({shown})"


KINDS: dict[str, type[LogRecord]] = {}
KEYS: dict[str, dict[str, str]] = {}  # kind -> field name -> short key
# kind -> (field name, short key, left out when None) in field order: worked out once, as every
# record a queue manager writes is encoded through it.
ENCODING: dict[str, tuple[tuple[str, str, bool], ...]] = {}


def _kind(kind: str) -> Callable[[type[LogRecord]], type[LogRecord]]:
    """Register a record class under its kind, with its fields and an __init__ that sets them."""

    def register(cls: type[LogRecord]) -> type[LogRecord]:
        declared = [
            (name, klass.__dict__[name])
            for klass in reversed(cls.__mro__)
            if issubclass(klass, LogRecord)
            for name in klass.__dict__.get("__annotations__", {})
            if isinstance(klass.__dict__.get(name), Field)
        ]
        cls.KIND, cls.FIELDS = kind, tuple(declared)
        cls.__init__ = _initializer(cls.__qualname__, cls.FIELDS)  # type: ignore[method-assign]
        KINDS[kind] = cls
        KEYS[kind] = {name: spec.key for name, spec in declared}
        ENCODING[kind] = tuple((name, spec.key, spec.omitted) for name, spec in declared)
        return cls

    return register


def _initializer(qualname: str, declared: tuple[tuple[str, Field], ...]) -> Callable[..., None]:
    """__init__(self, field, ...) setting each field, with the fields' defaults, as a dataclass's."""
    defaults = {f"_default_{name}": spec.default for name, spec in declared if spec.default is not NO_DEFAULT}
    parameters = ", ".join(
        f"{name}=_default_{name}" if f"_default_{name}" in defaults else name for name, _spec in declared
    )
    body = "".join(f"\n    _set(self, {name!r}, {name})" for name, _spec in declared) or "\n    pass"
    scope: dict[str, Any] = {"_set": object.__setattr__, **defaults}
    exec(f"def __init__(self, {parameters}) -> None:{body}", scope)  # source made of the fields' names alone
    initializer: Callable[..., None] = scope["__init__"]
    initializer.__qualname__ = f"{qualname}.__init__"
    return initializer


# ------------------------------------------------------------ objects and the catalog
@_kind("OBJ")
class ObjectChanged(LogRecord):
    """Object `key` (type, name) now has these attributes: define, alter, replace. A creation is
    marked: its record is the object's first media image."""

    key: str = _field(OBJECT_KEY, STRING)
    object_type: str = _field(OBJECT_TYPE)
    name: str = _field(NAME)
    attributes: dict[str, Any] = _field(ATTRIBUTES)
    created: int | None = _field(CREATED, INT, omitted=True)


@_kind("IMG")
class ObjectImage(LogRecord):
    """A media image of an object: its attributes and, for a queue, every persistent message
    (documents as in the queue file, pending ones with their unit of work)."""

    key: str = _field(OBJECT_KEY, STRING)
    object_type: str = _field(OBJECT_TYPE)
    name: str = _field(NAME)
    attributes: dict[str, Any] = _field(ATTRIBUTES)
    messages: list[dict[str, Any]] = _field(MESSAGES)


@_kind("DEL")
class ObjectDeleted(LogRecord):
    key: str = _field(OBJECT_KEY, STRING)


@_kind("CAT")
class CatalogImage(LogRecord):
    """A media image of the object catalog (the objects that exist); it changes no object."""

    entries: list[list[str]] = _field(CATALOG_ENTRIES)


@_kind("CKPT")
class Checkpoint(LogRecord):
    """A checkpoint: the oldest record restart needs, the units of work in flight (unit -> its
    queues) and each object's media recovery record (key -> LSN)."""

    restart: int = _field(RESTART)
    units: dict[str, Any] = _field(UNITS)
    media: dict[str, Any] = _field(MEDIA)


# ------------------------------------------------------------ messages on local queues
@_kind("PUT")
class Put(LogRecord):
    """A message put on a local queue, in a unit of work or (unit None) outside one; who put it where
    that is not the putter the queue manager noted (mqsh.store.putnotes)."""

    queue: str = _field(QUEUE, STRING)
    msgid: str = _field(MSGID, STRING)
    priority: int = _field(PRIORITY, INT)
    size: int = _field(SIZE, LONG)
    put_time: str = _field(PUT_TIME, STRING)
    unit: str | None = _field(UNIT, STRING)
    user: str | None = _field(USER, omitted=True)
    appl: str | None = _field(PUT_APPL, omitted=True)


@_kind("GET")
class Get(LogRecord):
    queue: str = _field(QUEUE, STRING)
    msgid: str = _field(MSGID, STRING)
    unit: str | None = _field(UNIT, STRING)


@_kind("CLR")
class Clear(LogRecord):
    queue: str = _field(QUEUE, STRING)


class UnitEnded(LogRecord):
    """A unit of work ended, and the queues it touched; where it had work on shared queues, their
    structures and an LRSN too."""

    unit: str = _field(UNIT, STRING)
    queues: list[str] = _field(QUEUES, STRINGS)
    structures: list[str] | None = _field(STRUCTURES, STRINGS, omitted=True)
    lrsn: int | None = _field(LRSN, LONG, omitted=True)


@_kind("CMT")
class Commit(UnitEnded):
    pass


@_kind("BCK")
class Backout(UnitEnded):
    pass


# LogRecord kinds more than one reader of the log picks out.
UNIT_ENDINGS = (Commit.KIND, Backout.KIND)  # the records that end a unit of work, naming its queues


# ------------------------------------------------------------ messages on shared queues
@_kind("SBLK")
class SharedBlock(LogRecord):
    """One block of a shared message's data, written to its owner's SMDS data set."""

    structure: str = _field(STRUCTURE, STRING)
    entry: str = _field(ENTRY, STRING)
    owner: str = _field(OWNER, STRING)
    block: int = _field(BLOCK, LONG)
    blocks: int = _field(BLOCKS, INT)
    lrsn: int = _field(LRSN, LONG)


@_kind("SPUT")
class SharedPut(LogRecord):
    """A persistent message put on a shared queue: its list entry in the structure, and where its
    data is offloaded (owner, first block, block count; none for data held in the entry). The member
    that put it is the one whose log holds it; who, its putter notes say (mqsh.store.putnotes)."""

    structure: str = _field(STRUCTURE, STRING)
    queue: str = _field(SHARED_QUEUE, STRING)
    entry: str = _field(ENTRY, STRING)
    priority: int = _field(PRIORITY, INT)
    size: int = _field(SIZE, LONG)
    put_time: str = _field(PUT_TIME, STRING)
    unit: str | None = _field(UNIT, STRING)
    owner: str | None = _field(OWNER, STRING)
    block: int | None = _field(BLOCK, LONG)
    blocks: int | None = _field(BLOCKS, INT)
    lrsn: int = _field(LRSN, LONG)


@_kind("SGET")
class SharedGet(LogRecord):
    structure: str = _field(STRUCTURE, STRING)
    entry: str = _field(ENTRY, STRING)
    unit: str | None = _field(UNIT, STRING)
    lrsn: int = _field(LRSN, LONG)


@_kind("SBKS")
class BackupStarted(LogRecord):
    """BACKUP CFSTRUCT began: the structure and the LRSN the backup is taken at."""

    structure: str = _field(STRUCTURE, STRING)
    lrsn: int = _field(LRSN, LONG)


@_kind("SBKP")
class BackupEntry(LogRecord):
    """One persistent entry of a structure's backup; an entry in a unit of work carries its
    state, unit and the member the unit belongs to."""

    structure: str = _field(STRUCTURE, STRING)
    queue: str = _field(SHARED_QUEUE, STRING)
    entry: str = _field(ENTRY, STRING)
    priority: int = _field(PRIORITY, INT)
    size: int = _field(SIZE, LONG)
    put_time: str = _field(PUT_TIME, STRING)
    owner: str | None = _field(OWNER, STRING)
    block: int | None = _field(BLOCK, LONG)
    blocks: int | None = _field(BLOCKS, INT)
    state: str | None = _field(STATE, STRING, omitted=True)
    unit: str | None = _field(UNIT, STRING, omitted=True)
    member: str | None = _field(MEMBER, STRING, omitted=True)


@_kind("SBKE")
class BackupEnded(LogRecord):
    structure: str = _field(STRUCTURE, STRING)
    lrsn: int = _field(LRSN, LONG)
    entries: int = _field(ENTRY_COUNT, INT)


OBJECT_KINDS = (ObjectChanged.KIND, ObjectImage.KIND, ObjectDeleted.KIND)  # create, image or delete an object


def decode(record: dict[str, Any]) -> LogRecord | None:
    """The typed record a dict from the log holds (None for a kind defined nowhere here)."""
    cls = KINDS.get(record[KIND])
    return cls.decode(record) if cls is not None else None


def column_types() -> dict[str, str]:
    """Short key -> column type of every typed column the columnar copies keep, the LSN and the
    kind first. A key means one thing wherever it is a typed column (n, the one key with two
    meanings, is typed as the block count: an object's name is read from the record's body)."""
    columns = {LSN: LONG, KIND: STRING}
    for cls in dict.fromkeys(KINDS.values()):
        for _name, spec in cls.FIELDS:
            column, key = spec.column, spec.key
            if column is None:
                continue
            if columns.setdefault(key, column) != column:
                raise TypeError(f"the key {key} has two column types: {columns[key]} and {column}")
    return columns
