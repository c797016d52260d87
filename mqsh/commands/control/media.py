"""Media images and media recovery by hand: rcdmqimg, rcrmqobj and IBM i's RCDMQMIMG.

    rcdmqimg [-m QM] [-z] [-l] -t ObjectType [GenericObjName]
    rcrmqobj [-m QM] [-z] -t ObjectType GenericObjName
    RCDMQMIMG OBJ(*ALL) OBJTYPE(*ALL) [MQMNAME(QM)] [DSPJRNDTA(*YES)]

Both need a running queue manager on a linear or replicated log. rcdmqimg
writes a media image of each recoverable object it selects (moving its media
recovery record forward) and then takes a checkpoint; rcrmqobj re-creates the
damaged objects it selects from their latest image and the log after it. The
queue manager object and the catalog can be recorded but not re-created: the
queue manager re-creates them itself when it starts.
"""

from __future__ import annotations

import argparse
import errno
import re
from collections.abc import Sequence
from dataclasses import dataclass

from mqsh.commands.context import Context
from mqsh.commands.control.parsing import (
    ControlParser,
    control_parser,
    lines,
    qmgr_not_available,
    unknown_qmgr,
)
from mqsh.commands.display import is_generic, name_matches
from mqsh.core.objects import MQObject
from mqsh.core.reasons import MQError
from mqsh.model.installation import QmgrNotAvailable
from mqsh.recovery import accounts, logscan
from mqsh.recovery.media.coverage import HOLDING_QUEUES, held_on, named_in_reports, oldest_extents
from mqsh.recovery.media.recreate import NoMediaImage
from mqsh.responses import Result
from mqsh.store.log import ExtentMissing, LogCorrupt

FAILED = 1


@dataclass(frozen=True)
class ImageObjectType:
    """One -t ObjectType of rcdmqimg/rcrmqobj and the objects it selects."""

    word: str
    synonyms: tuple[str, ...]
    ibmi: str  # RCDMQMIMG's OBJTYPE(*...)
    namespace: str | None = None
    object_type: str | None = None
    chltype: str | None = None

    def selects(self, obj: MQObject) -> bool:
        if self.word == "all":
            return obj.namespace in SELECTABLE
        return (
            obj.namespace == self.namespace
            and self.object_type in (None, obj.object_type)
            and self.chltype in (None, obj.attributes.get("CHLTYPE"))
        )


TYPES = (
    ImageObjectType("all", ("*",), "*ALL"),
    ImageObjectType("authinfo", (), "*AUTHINFO", "AUTHINFO"),
    ImageObjectType("catalog", ("ctlg",), "*CTLG"),
    ImageObjectType("channel", ("chl",), "*CHL", "CHANNEL"),
    ImageObjectType("clntconn", ("clcn",), "*CLTCN", "CHANNEL", chltype="CLNTCONN"),
    ImageObjectType("comminfo", (), "*COMMINFO", "COMMINFO"),
    ImageObjectType("listener", ("lstr",), "*LSR", "LISTENER"),
    ImageObjectType("namelist", ("nl",), "*NMLIST", "NAMELIST"),
    ImageObjectType("process", ("prcs",), "*PRC", "PROCESS"),
    ImageObjectType("qmgr", (), "*MQM", "QMGR"),
    ImageObjectType("queue", ("q",), "*Q", "QUEUE"),
    ImageObjectType("qalias", ("qa",), "*ALSQ", "QUEUE", "QALIAS"),
    ImageObjectType("qlocal", ("ql",), "*LCLQ", "QUEUE", "QLOCAL"),
    ImageObjectType("qmodel", ("qm",), "*MDLQ", "QUEUE", "QMODEL"),
    ImageObjectType("qremote", ("qr",), "*RMTQ", "QUEUE", "QREMOTE"),
    ImageObjectType("service", ("srvc",), "*SVC", "SERVICE"),
    ImageObjectType("topic", (), "*TOPIC", "TOPIC"),
)
SELECTABLE = {kind.namespace for kind in TYPES if kind.namespace}
BY_WORD = {word: kind for kind in TYPES for word in (kind.word, *kind.synonyms)}
BY_IBMI = {kind.ibmi: kind for kind in TYPES}
CATALOG_NAME = "QMQMOBJCAT"


def type_word(obj: MQObject) -> str:
    """How the commands name an object's type: qlocal, channel, clntconn, process ..."""
    if obj.namespace == "QUEUE":
        return obj.object_type.lower()
    if obj.namespace == "CHANNEL" and obj.attributes.get("CHLTYPE") == "CLNTCONN":
        return "clntconn"
    if obj.namespace in HOLDING_QUEUES:
        holder = HOLDING_QUEUES[obj.namespace]
        return f"{holder.what} (on {holder.queue})"
    return obj.namespace.lower()


# ---------------------------------------------------------------- parsers
def _common(parser: ControlParser, name_help: str) -> None:
    parser.add_argument("-m", dest="qmgr", help="queue manager (default: the default queue manager)")
    parser.add_argument("-z", dest="quiet", action="store_true", help="suppress error messages")
    parser.add_argument(
        "-t",
        dest="type",
        required=True,
        choices=list(BY_WORD),
        metavar="ObjectType",
        help="object type: " + ", ".join(BY_WORD),
    )
    parser.add_argument("name", nargs="?", help=name_help)


class ClParser(ControlParser):
    """IBM i CL syntax: KEYWORD(value) words, or bare values in the keywords' positional order."""

    def __init__(self, prog: str, description: str, keywords: Sequence[str], required: Sequence[str]):
        super().__init__(
            prog=prog,
            description=description,
            add_help=False,
            usage=f"{prog} "
            + " ".join(f"{key}(value)" if key in required else f"[{key}(value)]" for key in keywords),
        )
        self.keywords = tuple(keywords)
        self.required = tuple(required)

    def parse_args(self, args: Sequence[str] | None = None, namespace=None) -> argparse.Namespace:  # type: ignore[override]
        values: dict[str, str] = {}
        for position, word in enumerate(args or ()):
            match = re.fullmatch(r"([A-Za-z]+)\((.*)\)", word)
            if match:
                key, value = match.group(1).upper(), match.group(2)
            elif position < len(self.keywords):
                key, value = self.keywords[position], word
            else:
                self.error(f"unexpected '{word}'")
            if key not in self.keywords:
                self.error(f"unknown keyword {key}")
            values[key] = value
        missing = [key for key in self.required if key not in values]
        if missing:
            self.error(f"missing {', '.join(missing)}")
        return argparse.Namespace(**{key.lower(): values.get(key) for key in self.keywords})


def parsers() -> dict[str, ControlParser]:
    rcdmqimg = control_parser("rcdmqimg", "Record media images of objects in the log.")
    rcdmqimg.add_argument(
        "-l",
        dest="oldest",
        action="store_true",
        help="show the oldest log files needed for restart and media recovery",
    )
    _common(rcdmqimg, "object name, may end in * (not needed for qmgr and catalog)")
    rcrmqobj = control_parser("rcrmqobj", "Re-create damaged objects from their media images.")
    _common(rcrmqobj, "object name, may end in *")
    rcdmqmimg = ClParser(
        "RCDMQMIMG",
        "Record MQ object image (IBM i form of rcdmqimg).",
        ("OBJ", "OBJTYPE", "MQMNAME", "DSPJRNDTA"),
        ("OBJ", "OBJTYPE"),
    )
    return {"rcdmqimg": rcdmqimg, "rcrmqobj": rcrmqobj, "rcdmqmimg": rcdmqmimg}


# ---------------------------------------------------------------- shared steps
class Report:
    """The lines of one run; -z drops the error lines, and any error makes the exit code non-zero."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.texts: list[str] = []
        self.failed = False

    def say(self, text: str) -> None:
        self.texts.append(text)

    def error(self, text: str) -> None:
        self.failed = True
        if not self.quiet:
            self.texts.append(text)

    def result(self) -> Result:
        return lines(*self.texts, ok=not self.failed, code=FAILED if self.failed else 0)


def _connect(ctx: Context, name: str | None):
    """(queue manager, None) or (None, the failure to report)."""
    installation = ctx.installation
    name = name or installation.default_name()
    if not name or not installation.exists(name):
        return None, unknown_qmgr()
    try:
        return installation.connect(name), None
    except QmgrNotAvailable:
        return None, qmgr_not_available()


def _circular(name: str) -> Result:
    # (id unverified) MQ refuses media recovery on a circular log with a message in this shape.
    return lines(
        f"AMQ7081E: Media recovery not allowed: queue manager '{name}' uses circular logging, "
        "which keeps no media images.",
        ok=False,
        code=FAILED,
    )


def _select(qmgr, kind: ImageObjectType, name: str) -> list[MQObject]:
    """The objects -t and the name select, queue manager first, each checked for damage.

    Durable subscriptions, channel authentication and authority records are
    not objects these commands name: they live on a system queue and come
    with it (HOLDING_QUEUES).
    """
    if kind.word == "catalog":
        return []
    if kind.word == "qmgr":
        return [qmgr.qmgr_object] if qmgr.qmgr_object else []
    found = [obj for obj in qmgr.state.values() if kind.selects(obj) and name_matches(name, obj.name)]
    held = {namespace for obj in found if obj.namespace == "QUEUE" for namespace in held_on(obj.name)}
    found += [obj for obj in qmgr.state.values() if obj.namespace in held]
    for obj in found:
        qmgr.check(obj)
    return sorted(found, key=lambda obj: (obj.namespace != "QMGR", obj.namespace, obj.name))


def _needs_name(kind: ImageObjectType, name: str | None) -> bool:
    return name is None and kind.word not in ("qmgr", "catalog")


def _name_required() -> Result:
    return lines("AMQ7092E: An object name is required but you did not specify one.", ok=False, code=FAILED)


# ---------------------------------------------------------------- rcdmqimg
def record_images(
    ctx: Context, qmgr_name: str | None, kind: ImageObjectType, name: str | None, quiet: bool, oldest: bool
) -> Result:
    qmgr, failure = _connect(ctx, qmgr_name)
    if failure is not None:
        return failure
    if not qmgr.supports_media_recovery:
        return _circular(qmgr.name)
    if _needs_name(kind, name):
        return _name_required()
    report = Report(quiet)
    selected = _select(qmgr, kind, name or "*")
    with_catalog = kind.word == "catalog" or (kind.word == "all" and name_matches(name or "*", CATALOG_NAME))
    if not selected and not with_catalog:
        report.error(f"AMQ7085E: Object {name}, type {kind.word} not found.")
    try:
        _record(qmgr, report, selected, name, with_catalog)
    except MQError as error:
        # The log has no room for the image: the images recorded so far stand, the rest are not taken.
        report.error(
            f"AMQ7463E: The log for queue manager {qmgr.name} is full. No more media images were "
            f"recorded (MQRC {error.reason}, {error.name})."
        )
        return report.result()
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
        # The images are in the log; the checkpoint that moves MEDIALOG waits for room on the disk.
        report.error(
            f"AMQ6708E: A disk full condition was encountered: the checkpoint after the media images "
            f"of queue manager {qmgr.name} was not taken. MEDIALOG moves at the next checkpoint."
        )
        return report.result()
    if oldest:
        restart_extent, media_extent = oldest_extents(qmgr)
        report.say(
            f"AMQ7467I: The oldest log file required to start queue manager {qmgr.name} is {restart_extent}."
        )
        report.say(
            f"AMQ7468I: The oldest log file required to perform media recovery of queue manager "
            f"{qmgr.name} is {media_extent}."
        )
    return report.result()


def _record(qmgr, report: Report, selected: list, name: str | None, with_catalog: bool) -> None:
    """Record each selected object's image (and the catalog's), then checkpoint so MEDIALOG moves."""
    for obj in selected:
        what = f"object {obj.name}, type {type_word(obj)}"
        named = named_in_reports(obj)
        if obj.damaged:
            report.error(
                f"AMQ7472W: Object {obj.name}, type {type_word(obj)} damaged: no media image recorded. "
                "Delete it, or re-create it with rcrmqobj."
            )
        elif qmgr.is_recoverable(obj):
            qmgr.record_image(obj)
            if named:
                report.say(f"Media image for {what} recorded.")
        elif named and not is_generic(name or "*"):
            report.error(
                f"Object {obj.name}, type {type_word(obj)} is not recoverable (IMGRCOVQ or IMGRCOVO "
                "is NO): no media image recorded."
            )
    if with_catalog:
        qmgr.media_images.record_catalog_image()
        report.say(f"Media image for object {CATALOG_NAME}, type catalog recorded.")
    qmgr.checkpoint()


def rcdmqimg(ctx: Context, args: argparse.Namespace, run) -> Result:
    return record_images(ctx, args.qmgr, BY_WORD[args.type], args.name, args.quiet, args.oldest)


def rcdmqmimg(ctx: Context, args: argparse.Namespace, run) -> Result:
    """The IBM i command: OBJ(*ALL) is every name, MQMNAME(*DFT) the default queue manager."""
    kind = BY_IBMI.get(args.objtype.upper())
    if kind is None:
        return lines(
            f"RCDMQMIMG: OBJTYPE({args.objtype}) is not one of {', '.join(BY_IBMI)}", ok=False, code=FAILED
        )
    name = "*" if args.obj.upper() == "*ALL" else args.obj
    qmgr = None if (args.mqmname or "*DFT").upper() == "*DFT" else args.mqmname
    return record_images(ctx, qmgr, kind, name, False, (args.dspjrndta or "*NO").upper() == "*YES")


# ---------------------------------------------------------------- rcrmqobj
def rcrmqobj(ctx: Context, args: argparse.Namespace, run) -> Result:
    kind = BY_WORD[args.type]
    qmgr, failure = _connect(ctx, args.qmgr)
    if failure is not None:
        return failure
    if kind.word in ("qmgr", "catalog"):
        what = (
            f"object {CATALOG_NAME}, type catalog" if kind.word == "catalog" else "the queue manager object"
        )
        return lines(
            f"AMQ7088E: {what[0].upper() + what[1:]} can be recorded but not re-created: the queue "
            "manager re-creates it from its media image when it starts.",
            ok=False,
            code=FAILED,
        )
    if not qmgr.supports_media_recovery:
        return _circular(qmgr.name)
    if args.name is None:
        return _name_required()
    report = Report(args.quiet)
    selected = [obj for obj in _select(qmgr, kind, args.name) if obj.object_type != "QMGR"]
    damaged = [obj for obj in selected if obj.damaged]
    if not selected:
        report.error(f"AMQ7085E: Object {args.name}, type {kind.word} not found.")
    elif not damaged:
        report.say(f"No damaged object matches {args.name}, type {kind.word}: nothing to re-create.")
    wanted = []
    for obj in damaged:
        if qmgr.in_use(obj):
            report.error(
                f"AMQ7084E: Object {obj.name}, type {type_word(obj)} is in use: close its handles, "
                "then re-create it."
            )
        elif not qmgr.is_recoverable(obj):
            report.error(_not_recoverable(obj))
        else:
            wanted.append(obj.key)
    if wanted:
        try:
            images = {key: qmgr.media[key] for key in wanted if key in qmgr.media}
            recreated = qmgr.media_images.recreate_explained(wanted, "rcrmqobj")
            for obj in recreated:
                if named_in_reports(obj):
                    report.say(f"Object {obj.name}, type {type_word(obj)} recreated.")
                if obj.object_type == "QLOCAL" and obj.key in images:
                    report.say(_account(qmgr, obj, images[obj.key]))
            # One damaged at start is known by name only: the log said it is not recoverable.
            done = {obj.key for obj in recreated}
            for obj in damaged:
                if obj.key in wanted and obj.key not in done and named_in_reports(obj):
                    report.error(_not_recoverable(obj))
        except ExtentMissing as error:
            report.error(
                f"AMQ6767E: Log file {error.extent} could not be opened for use. It is needed to "
                "re-create the objects from their media images; nothing was re-created."
            )
        except LogCorrupt as error:
            # The media recovery fails, as for a missing extent; the running queue manager is not
            # affected (its restart point is past the damage). Id as strmqm's for a damaged log.
            report.error(
                f"AMQ7082E: Log file {error.extent} is damaged: {error.problem}. It is needed to "
                "re-create the objects from their media images; nothing was re-created."
            )
        except NoMediaImage as error:
            report.error(
                f"AMQ7088E: Object {error.key.partition('/')[2]} has no media image in the log: "
                "nothing was re-created."
            )
    return report.result()


def _account(qmgr, obj: MQObject, image_lsn: int) -> str:
    """Where a re-created queue's messages came from: its media image, or the log after it."""
    log_dir = qmgr.paths.log_dir
    item = accounts.account(obj, accounts.message_ids_at(log_dir, image_lsn), found_in="the media image")
    extents = accounts.extents_read(log_dir, logscan.extent_holding(log_dir, image_lsn))
    return f"{accounts.ACCOUNT_ID}: {accounts.text(item, qmgr.name, extents)}"


def _not_recoverable(obj: MQObject) -> str:
    return (
        f"Object {obj.name}, type {type_word(obj)} is not recoverable (IMGRCOVQ or IMGRCOVO is NO): "
        "delete it instead."
    )


HANDLERS = {"rcdmqimg": rcdmqimg, "rcrmqobj": rcrmqobj, "rcdmqmimg": rcdmqmimg}


# ---------------------------------------------------------------- strmqm's report
def start_notes(report) -> list[str]:
    """What a start did before its replay: the redo record, the integrity scan, a full replay, skipped extents."""
    notes = []
    if report.redo_files:
        notes.append(
            f"A checkpoint was cut short: {report.redo_files} object files rewritten from its redo record."
        )
    elif report.redo_files == 0:
        notes.append("A torn checkpoint redo record was dropped: no object file had been touched.")
    if report.verified is not None:
        notes.append(f"Log integrity check: {report.verified} log records read, every checksum matches.")
    if report.full_replay:
        notes.append(
            "The log control file was not found or could not be read: the whole log is replayed from its first record."
        )
    notes += [
        f"AMQ6767W: Log file {extent} could not be opened for use; it was passed over "
        "(IgnoreMissingLogExtents) and the records in it are lost."
        for extent in report.skipped
    ]
    return notes


def damage_notes(report) -> list[str]:
    """The damaged objects a start found, and those it re-created."""
    notes = []
    if report.catalog_rebuilt:
        notes.append(f"AMQ7472W: Object {CATALOG_NAME}, type catalog damaged; it was rebuilt.")
    recreated = {obj.key for obj in report.recreated}
    for obj in report.damaged:
        if obj.key in recreated:
            notes.append(
                f"Object {obj.name}, type {type_word(obj)} was damaged and has been recreated "
                "from its media image."
            )
        else:
            notes.append(f"AMQ7472W: Object {obj.name}, type {type_word(obj)} damaged.")
    return notes
