"""The attribute catalogue: every verb, object type, attribute and value mqsh knows.

One data file, ``catalogue.toml``, beside this module, is the single source of
truth for the language's vocabulary. Validation, completion, highlighting, the
AMQ8427I usage text and DISPLAY all read it through the classes here.

Layout of the data (see the file's own header for the details):

* ``[attributes.NAME]`` - what a keyword's value looks like (type, values,
  range, length, list, the negative word of a flag). Shared by every object
  type that has the keyword; ``[objects.X.overrides.NAME]`` changes it for one.
* ``[objects.TYPE]`` - synonyms, the attribute that carries the name, the AMQ
  messages, and per variant (CHLTYPE for channels, ...) the attributes in
  DISPLAY order with their defaults.
* ``[verbs.VERB]`` - synonyms, the targets it takes, the extra parameters,
  the parameters that must be given and the ones it reads its own way
  (``RESET QMGR TYPE(...)`` is not ``REFRESH QMGR TYPE(...)``).

Lookups of a keyword's spec go from the most to the least specific: the verb's
override for the target, the object's override, the shared definition.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

from mqsh.language import parser
from mqsh.language.cache import kept
from mqsh.language.parser import Value

# The characters of an MQ object name (rules records such as CHLAUTH profiles
# and AUTHREC profiles take patterns and are not held to this).
OBJECT_NAME = re.compile(r"^[A-Za-z0-9._/%]*$")
INTEGER = re.compile(r"^ *[+-]?(?P<digits>[0-9]+) *$")


class AttributeValueError(ValueError):
    """A value that does not fit its attribute (wrong type, range, length)."""


@dataclass(frozen=True)
class AttributeSpec:
    name: str
    type: str  # integer | string | keyword | flag | date | time
    values: tuple[str, ...] = ()  # keyword values; for integers, words allowed besides numbers
    min: int | None = None
    max: int | None = None
    length: int | None = None  # longest string
    list: bool = False
    negative: str | None = None  # flags: the word that sets them off (NOSHARE)
    description: str = ""
    synonym_of: str | None = None  # TARGQ is another way to write TARGET
    zos_only: bool = False  # accepted, but left out of the usage text (CMDSCOPE, QSGDISP)
    not_zos: bool = False  # no z/OS parameter: a group member's DISPLAY leaves it out (DISTL, SCOPE)
    object_name: bool = False  # the value names one MQ object: not empty, only MQ's name characters
    names: str | None = None  # the object type the value names (XMITQ: QUEUE), for completion

    def parse(self, values: tuple[Value, ...] | None) -> Any:
        """The internal value of KEYWORD(values) (or a bare KEYWORD for flags)."""
        if self.type == "flag":
            if values is not None:
                raise AttributeValueError(f"{self.name} takes no value")
            return True
        if values is None:
            raise AttributeValueError(f"{self.name} needs a value")
        if self.list:
            items = [self._one(value) for value in values if value.text.strip()]
            return items
        if len(values) != 1:
            raise AttributeValueError(f"{self.name} takes one value")
        return self._one(values[0])

    def _one(self, value: Value) -> Any:
        text = value.text
        if self.type == "integer":
            if text.upper() in self.values:
                return text.upper()
            # Python's int() also reads '5_000' and digits of other scripts ('٣'); MQ reads 0-9 only.
            match = INTEGER.match(text)
            if not match:
                raise AttributeValueError(f"{self.name}({text}) is not a number")
            # Every MQ integer fits in 64 bits; longer digit strings are not even converted.
            if len(match["digits"].lstrip("0")) > 19:
                raise AttributeValueError(f"{self.name}({text}) is out of range")
            number = int(text)
            if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
                raise AttributeValueError(f"{self.name}({text}) is out of range")
            return number
        if self.type == "keyword":
            word = text.upper()
            if word not in self.values:
                raise AttributeValueError(f"{self.name}({text}) is not one of {', '.join(self.values)}")
            return word
        if value.quoted and text == " ":
            text = ""  # DESCR( ) / DESCR(' ') clears a string
        if self.length is not None and len(text) > self.length:
            raise AttributeValueError(f"{self.name} is longer than {self.length} characters")
        if self.object_name and not (text and OBJECT_NAME.match(text)):
            raise AttributeValueError(f"{self.name}({text}) is not an object name")
        return text

    def render(self, value: Any) -> str:
        """The text between the parentheses in DISPLAY (flags are rendered by the caller)."""
        if value is None or value == "":
            return " "
        if isinstance(value, bool):
            return "YES" if value else "NO"
        if isinstance(value, (list, tuple)):
            return ",".join(str(item) for item in value) if value else " "
        return str(value)


@dataclass(frozen=True)
class MessageSpec:
    id: str
    text: str


@dataclass(frozen=True)
class VariantSpec:
    attributes: tuple[str, ...]  # DISPLAY ALL order, name attribute first
    defaults: dict[str, Any]
    settable: frozenset[str]  # attributes DEFINE/ALTER may set
    default_object: str | None = None  # what DEFINE without LIKE is like (SYSTEM.DEFAULT.LOCAL.QUEUE)

    @property
    def readonly(self) -> frozenset[str]:
        """What DISPLAY shows but no command sets (dates, depths, a subscription's SUBID ...)."""
        return frozenset(self.attributes) - self.settable


@dataclass(frozen=True)
class AttributeGroup:
    """A word DISPLAY takes for several attributes at once (DISPLAY QMGR EVENT)."""

    flag: AttributeSpec  # the word itself, a flag: it takes no value
    members: tuple[str, ...]


@dataclass(frozen=True)
class ObjectSpec:
    name: str
    synonyms: tuple[str, ...]
    name_attribute: str | None  # QUEUE for queues, QMNAME for the qmgr
    takes_name: bool  # written as TYPE(name)
    name_length: int | None
    messages: dict[str, MessageSpec]
    discriminator: str | None  # CHLTYPE for channels
    variants: dict[str, VariantSpec]  # "" when there is only one
    summary: tuple[str, ...]  # DISPLAY of generic names without ALL shows these
    overrides: dict[str, AttributeSpec]
    kind: str  # object | family | status | record | action | lab
    family: str | None  # QUEUE for the four queue types
    description: str = ""  # one line, shown by completion and help
    name_optional: bool = False  # REFRESH SECURITY and REFRESH SECURITY(*) both work
    discriminator_first: bool = False  # DEFINE/ALTER CHANNEL(x) CHLTYPE(...) : right after the name
    all_for_one: bool = True  # DISPLAY of one object with no attributes asked for shows ALL
    star_is_all: bool = False  # the name * stands for every one to any verb (ALTER SMDS(*))
    all_for_generic: bool = False  # DISPLAY of generic names with no attributes asked for shows ALL too
    groups: dict[str, AttributeGroup] = field(default_factory=dict)  # DISPLAY QMGR SYSTEM, EVENT ...
    # Attributes DISPLAY takes as selectors though the model never has them (the z/OS parameters of
    # a Multiplatforms queue manager, Native HA status): accepted, not shown, not offered.
    selectable: tuple[str, ...] = ()
    not_filters: tuple[str, ...] = ()  # attributes DISPLAY shows but WHERE may not filter on

    def variant(self, key: str | None = None) -> VariantSpec:
        if key is None or key not in self.variants:
            return next(iter(self.variants.values()))
        return self.variants[key]

    def all_attributes(self) -> list[str]:
        """Every attribute of every variant, in first-seen order."""
        seen: dict[str, None] = {}
        for variant in self.variants.values():
            for name in variant.attributes:
                seen.setdefault(name, None)
        return list(seen)

    def filters_on(self, name: str) -> bool:
        """Whether WHERE may filter on the attribute: the validator and completion both ask this."""
        return (name in self.all_attributes() or name in self.selectable) and name not in self.not_filters

    def message(self, kind: str) -> MessageSpec | None:
        return self.messages.get(kind)


@dataclass(frozen=True)
class VerbSpec:
    name: str
    synonyms: tuple[str, ...]
    targets: tuple[str, ...]
    attributes: str  # settable | selectors | none: how object attributes may appear
    params: tuple[str, ...]  # extra parameters for every target
    extra: dict[str, tuple[str, ...]]  # extra parameters for one target
    requires_target: bool = True
    # TARGET -> parameters that must be given (DEFINE CHANNEL needs CHLTYPE)
    required: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # TARGET -> NAME -> spec, where this verb reads a keyword its own way
    # (RESET QMGR TYPE(...) and REFRESH QMGR TYPE(...) take different values)
    overrides: dict[str, dict[str, AttributeSpec]] = field(default_factory=dict)
    description: str = ""
    names_object: bool = False  # DEFINE: a name_optional object must still be named
    # TARGET -> parameters of which exactly one must be given (RESET SMDS: ACCESS or STATUS)
    one_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    name_lists: tuple[str, ...] = ()  # targets whose name may be a list: RECOVER CFSTRUCT(APP1,APP2)
    generic_names: tuple[str, ...] = ()  # targets taking generic names beyond DISPLAY: BACKUP CFSTRUCT(CSQ*)

    def params_for(self, target: str) -> tuple[str, ...]:
        return self.params + self.extra.get(target, ())

    def required_for(self, target: str) -> tuple[str, ...]:
        return self.required.get(target, ())


@dataclass
class Catalogue:
    attributes: dict[str, AttributeSpec]
    objects: dict[str, ObjectSpec]
    verbs: dict[str, VerbSpec]
    _verb_index: dict[str, str] = field(default_factory=dict)
    _object_index: dict[str, str] = field(default_factory=dict)
    _negatives: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for verb in self.verbs.values():
            for word in (verb.name, *verb.synonyms):
                self._verb_index[word] = verb.name
        for obj in self.objects.values():
            for word in (obj.name, *obj.synonyms):
                self._object_index[word] = obj.name
        for attribute in self.attributes.values():
            if attribute.negative:
                self._negatives[attribute.negative] = attribute.name

    def verb(self, word: str) -> VerbSpec | None:
        name = self._verb_index.get(word.upper())
        return self.verbs[name] if name else None

    def object(self, word: str) -> ObjectSpec | None:
        name = self._object_index.get(word.upper())
        return self.objects[name] if name else None

    def positive_of(self, word: str) -> str | None:
        """SHARE for NOSHARE: the flag a negative word turns off."""
        return self._negatives.get(word.upper())

    def attribute(
        self, name: str, obj: ObjectSpec | None = None, verb: VerbSpec | None = None
    ) -> AttributeSpec | None:
        if verb is not None and obj is not None:
            spec = verb.overrides.get(obj.name, {}).get(name)
            if spec is not None:
                return spec
            # DISPLAY QMGR CLUSTER names a group; SUSPEND QMGR CLUSTER(name) a cluster.
            if verb.attributes == "selectors" and name in obj.groups:
                return obj.groups[name].flag
        if obj is not None and name in obj.overrides:
            return obj.overrides[name]
        return self.attributes.get(name)

    def canonical(self, word: str) -> str:
        """TARGET for TARGQ: the attribute a synonym stands for (the word itself otherwise)."""
        word = word.upper()
        spec = self.attributes.get(word)
        if spec is not None and spec.synonym_of:
            return spec.synonym_of
        return word

    def verb_words(self) -> list[str]:
        return sorted(self._verb_index)

    def object_words(self) -> list[str]:
        return sorted(self._object_index)


def _attribute(name: str, data: dict[str, Any]) -> AttributeSpec:
    return AttributeSpec(
        name=name,
        type=data["type"],
        values=tuple(data.get("values", ())),
        min=data.get("min"),
        max=data.get("max"),
        length=data.get("length"),
        list=data.get("list", False),
        negative=data.get("negative"),
        description=data.get("description", ""),
        synonym_of=data.get("synonym_of"),
        zos_only=data.get("zos_only", False),
        not_zos=data.get("not_zos", False),
        object_name=data.get("object_name", False),
        names=data.get("names"),
    )


def _variant(data: dict[str, Any], base: dict[str, Any]) -> VariantSpec:
    attributes = tuple(data.get("attributes", base.get("attributes", ())))
    defaults = dict(base.get("defaults", {}))
    defaults.update(data.get("defaults", {}))
    readonly = set(base.get("readonly", ())) | set(data.get("readonly", ()))
    settable = frozenset(name for name in attributes if name not in readonly)
    return VariantSpec(attributes, defaults, settable, data.get("default_object", base.get("default_object")))


def _overrides(table: dict[str, Any], attributes: dict[str, AttributeSpec]) -> dict[str, AttributeSpec]:
    """NAME -> spec, each starting from the shared [attributes.NAME] when there is one."""
    specs = {}
    for attr_name, override in table.items():
        merged = dict(vars(attributes[attr_name])) if attr_name in attributes else {}
        merged.pop("name", None)
        merged.update(override)
        specs[attr_name] = _attribute(attr_name, merged)
    return specs


def _object(name: str, data: dict[str, Any], attributes: dict[str, AttributeSpec]) -> ObjectSpec:
    variants_data = data.get("variants")
    if variants_data:
        variants = {}
        for key, value in variants_data.items():
            variant = _variant(value, data)
            # One table may serve several discriminator values: for = ["SDR", "SVR", ...]
            for variant_key in value.get("for", (key,)):
                variants[variant_key] = variant
    else:
        variants = {"": _variant(data, {})}
    overrides = _overrides(data.get("overrides", {}), attributes)
    summary = tuple(data.get("summary", ()))
    return ObjectSpec(
        name=name,
        synonyms=tuple(data.get("synonyms", ())),
        name_attribute=data.get("name"),
        takes_name=data.get("takes_name", True),
        name_length=data.get("name_length"),
        messages={key: MessageSpec(**value) for key, value in data.get("messages", {}).items()},
        discriminator=data.get("discriminator"),
        variants=variants,
        summary=summary,
        overrides=overrides,
        kind=data.get("kind", "object"),
        family=data.get("family"),
        description=data.get("description", ""),
        name_optional=data.get("name_optional", False),
        discriminator_first=data.get("discriminator_first", False),
        all_for_one=data.get("all_for_one", True),
        star_is_all=data.get("star_is_all", False),
        all_for_generic=data.get("all_for_generic", False),
        groups=_groups(data.get("groups", {})),
        selectable=tuple(data.get("selectable", ())),
        not_filters=tuple(data.get("not_filters", ())),
    )


def _groups(table: dict[str, Any]) -> dict[str, AttributeGroup]:
    return {
        name: AttributeGroup(
            AttributeSpec(name, "flag", description=data.get("description", "")), tuple(data["members"])
        )
        for name, data in table.items()
    }


def _family(obj: ObjectSpec, objects: dict[str, ObjectSpec]) -> ObjectSpec:
    """QUEUE: one variant per member type (QLOCAL, QMODEL, ...), in catalogue order."""
    members = {member.name: member.variant() for member in objects.values() if member.family == obj.name}
    if not members or any(variant.attributes for variant in obj.variants.values()):
        return obj
    return replace(obj, variants=members)


def _verb(name: str, data: dict[str, Any], attributes: dict[str, AttributeSpec]) -> VerbSpec:
    return VerbSpec(
        name=name,
        synonyms=tuple(data.get("synonyms", ())),
        targets=tuple(data.get("targets", ())),
        attributes=data.get("attributes", "none"),
        params=tuple(data.get("params", ())),
        extra={key: tuple(value) for key, value in data.get("extra", {}).items()},
        requires_target=data.get("requires_target", True),
        required={key: tuple(value) for key, value in data.get("required", {}).items()},
        overrides={
            target: _overrides(table, attributes) for target, table in data.get("overrides", {}).items()
        },
        description=data.get("description", ""),
        names_object=data.get("names_object", False),
        one_of={key: tuple(value) for key, value in data.get("one_of", {}).items()},
        name_lists=tuple(data.get("name_lists", ())),
        generic_names=tuple(data.get("generic_names", ())),
    )


def build(data: dict[str, Any]) -> Catalogue:
    attributes = {name: _attribute(name, value) for name, value in data.get("attributes", {}).items()}
    objects = {name: _object(name, value, attributes) for name, value in data.get("objects", {}).items()}
    objects = {
        name: (_family(obj, objects) if obj.kind == "family" else obj) for name, obj in objects.items()
    }
    # DISPLAY QLOCAL filters as DISPLAY QUEUE does: a member takes its family's not_filters.
    objects = {
        name: (
            replace(obj, not_filters=obj.not_filters + objects[obj.family].not_filters)
            if obj.family in objects
            else obj
        )
        for name, obj in objects.items()
    }
    verbs = {name: _verb(name, value, attributes) for name, value in data.get("verbs", {}).items()}
    return Catalogue(attributes, objects, verbs)


@lru_cache(maxsize=1)
def load() -> Catalogue:
    """The catalogue shipped with mqsh, parsed once and kept (with the classes it is made of)."""
    text = resources.files("mqsh.language").joinpath("catalogue.toml").read_bytes()
    # Modules loaded from files (never a zip here): __file__ is set.
    made_by = [Path(cast(str, module.__file__)).read_bytes() for module in (sys.modules[__name__], parser)]
    return kept("catalogue", [text, *made_by], lambda: _read(text))


def _read(text: bytes) -> Catalogue:
    """The catalogue made from its TOML text: only when the cache has none kept from this text (the
    TOML reader is imported here, for that)."""
    import tomllib

    return build(tomllib.loads(text.decode()))
