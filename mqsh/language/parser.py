"""MQSC command text -> ParsedCommand (structure only), via grammar/mqsc.lark.

The parse knows nothing of which keywords exist; mqsh.language.validate checks
the result against the catalogue. Every piece keeps its position in the text so
that errors can quote runmqsc's "command segment" up to the point of failure.
A command of the plain shape, most of any script, is read with the grammar's
terminal patterns alone (_plain); the LALR parser (mqsh.language.grammar) takes
every other. The patterns are kept in the cache as lark analysed them, so that
a process whose commands are all plain never loads lark at all: importing it
and loading its analysis cost more than the rest of a one-command report's start.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import cast

from mqsh.language.cache import kept

GRAMMAR = "mqsh.language.grammar"  # lark's LALR parser of the grammar: imported at its first use


@dataclass(frozen=True)
class Value:
    text: str  # unquoted text is folded to upper case; quoted text keeps its case
    quoted: bool = False


@dataclass(frozen=True)
class Item:
    """KEYWORD or KEYWORD(value ...) as written in the command."""

    keyword: str  # upper case
    values: tuple[Value, ...] | None  # None for a bare keyword
    start: int  # offset of the keyword in the command text
    keyword_end: int
    end: int  # offset just past the item (past ")" when there are values)


@dataclass(frozen=True)
class WhereClause:
    keyword: str
    operator: str
    value: Value
    start: int
    end: int


@dataclass
class ParsedCommand:
    text: str
    verb: str
    verb_end: int
    items: list[Item] = field(default_factory=list)
    where: WhereClause | None = None


class ParseError(Exception):
    """A structural error; `end` is where the command segment to quote ends."""

    def __init__(self, text: str, end: int, verb: str | None = None):
        super().__init__(text[:end])
        self.text = text
        self.end = end
        self.verb = verb

    @property
    def segment(self) -> str:
        return self.text[: self.end]


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return resources.files("mqsh.language").joinpath("mqsc.lark").read_text()


def unquote(raw: str) -> str:
    return raw[1:-1].replace("''", "'")


def first_word(text: str) -> str:
    stripped = text.lstrip()
    word = ""
    for char in stripped:
        if not (char.isalnum() or char == "_"):
            break
        word += char
    return word.upper()


Patterns = tuple[dict[str, str], tuple[str, ...]]  # regular expression by terminal name; those ignored


@lru_cache(maxsize=1)
def terminal_patterns() -> Patterns:
    """The grammar's terminals as lark reads them - a regular expression by name - and the names of
    those its lexer passes over (blanks, commas). Kept in the cache under the grammar and the lark
    that analysed it: a new version of either makes them afresh."""
    lark = importlib.util.find_spec("lark")  # where it is, without importing it
    origin = cast(str, lark.origin if lark is not None else None)
    sources = [grammar_text().encode(), Path(origin).read_bytes()]  # lark's __init__ names its version
    return kept("terminals", sources, _analysed)


def _analysed() -> Patterns:
    return cast(Patterns, importlib.import_module(GRAMMAR).terminal_patterns())


class _Terminals:
    """The grammar's own terminal patterns, compiled for reading the plain shape directly (see
    _plain): each is matched on its own at a position, as the lexer matches it."""

    def __init__(self, patterns: dict[str, str], ignore: tuple[str, ...]):
        ignored = "|".join(patterns[name] for name in ignore)  # blanks, and commas
        self._gap = re.compile(f"(?:{ignored})*")
        self.keyword = re.compile(patterns["KEYWORD"])
        self.quoted = re.compile(patterns["QUOTED"])
        self.token = re.compile(patterns["TOKEN"])

    def past_gap(self, text: str, at: int = 0) -> int:
        """Where the blanks and commas from at end (the pattern matches the empty string too)."""
        return cast("re.Match[str]", self._gap.match(text, at)).end()


@lru_cache(maxsize=1)
def _terminals() -> _Terminals:
    return _Terminals(*terminal_patterns())


def _plain(text: str) -> ParsedCommand | None:
    """The command read without the parser when it has the plain shape - a verb, then keywords,
    each alone or with a list of quoted or unquoted values - or None for anything else (a WHERE,
    a blank value, text that does not read), which the parser decides and whose errors it gives.

    A script of thousands of DEFINEs and ALTERs is made of such commands, and the LALR parse of
    one costs most of what carrying it out costs; read here with the grammar's terminals it
    costs a tenth of that. The result is the parser's own, as a property test holds.
    """
    terminals = _terminals()
    past_gap, keyword, length = terminals.past_gap, terminals.keyword.match, len(text)
    verb = keyword(text, past_gap(text))
    if verb is None:
        return None
    command = ParsedCommand(text, verb.group().upper(), verb.end())
    at = past_gap(text, verb.end())
    while at < length:
        word = keyword(text, at)
        if word is None:
            return None
        name = word.group().upper()
        if name == "WHERE":
            return None  # a WHERE clause, or a word the lexer may take for one
        at = past_gap(text, word.end())
        if at == length or text[at] != "(":
            command.items.append(Item(name, None, word.start(), word.end(), word.end()))
            continue
        values: list[Value] = []
        at = past_gap(text, at + 1)
        while at < length and text[at] != ")":
            quoted = text[at] == "'"
            value = (terminals.quoted if quoted else terminals.token).match(text, at)
            if value is None:
                return None
            values.append(
                Value(unquote(value.group()), quoted=True) if quoted else Value(value.group().upper())
            )
            at = past_gap(text, value.end())
        if at == length or not values:
            return None
        at += 1  # past ")"
        command.items.append(Item(name, tuple(values), word.start(), word.end(), at))
        at = past_gap(text, at)
    return command


def parse(text: str) -> ParsedCommand:
    """Parse one joined MQSC command. Raises ParseError."""
    plain = _plain(text)
    return plain if plain is not None else parse_by_grammar(text)


def parse_by_grammar(text: str) -> ParsedCommand:
    """parse() by the LALR parser alone, whatever the command's shape. Raises ParseError."""
    return cast(ParsedCommand, importlib.import_module(GRAMMAR).parse(text))
