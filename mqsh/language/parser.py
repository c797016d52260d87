"""MQSC command text -> ParsedCommand (structure only), via grammar/mqsc.lark.

The parse knows nothing of which keywords exist; mqsh.language.validate checks
the result against the catalogue. Every piece keeps its position in the text so
that errors can quote runmqsc's "command segment" up to the point of failure.
A command of the plain shape, most of any script, is read with the grammar's
terminal patterns alone (_plain); the LALR parser takes every other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from mqsh.language.cache import grammar_cache


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


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The parser as the shell's scanner reads it (terminals); parse() uses the building one."""
    return Lark(grammar_text(), parser="lalr", lexer="contextual", cache=grammar_cache(grammar_text()))


def _unquote(raw: str) -> str:
    return raw[1:-1].replace("''", "'")


def _closing(text: str, after: int) -> int:
    """Offset just past the ")" that closes a parameter whose last value ends at after."""
    return text.index(")", after) + 1


class _Builder(Transformer[Token, Any]):
    """Builds each parameter as the parser reduces its rule: no tree is made and no
    positions are carried up the rules, which is most of what a parse costs (a batch of
    thousands of commands parses each one). Positions come from the tokens; the text is
    not known here (one parser serves every thread), so parse() makes the Items."""

    def word(self, children: list[Token]) -> Token:
        return children[0]

    def quoted(self, children: list[Token]) -> tuple[Value, Token]:
        return Value(_unquote(str(children[0])), quoted=True), children[0]

    def token(self, children: list[Token]) -> tuple[Value, Token]:
        return Value(str(children[0]).upper()), children[0]

    def values(self, children: list[tuple[Value, Token]]) -> tuple[tuple[Value, ...], int]:
        return tuple(value for value, _token in children), _end(children[-1][1])

    def blank_value(self, children: list[Token]) -> tuple[tuple[Value, ...], int]:
        return (Value(" ", quoted=True),), _end(children[0])

    def flag(self, children: list[Token]) -> tuple[str, Token]:
        return "flag", children[0]

    def keyed(self, children: list[Any]) -> tuple[str, Token, tuple[tuple[Value, ...], int]]:
        return "keyed", children[0], children[1]

    def where(self, children: list[Any]) -> tuple[str, list[Any]]:
        return "where", children

    def start(self, children: list[Any]) -> list[Any]:
        return children


@lru_cache(maxsize=1)
def _building_parser() -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        transformer=_Builder(),
        cache=grammar_cache(grammar_text()),
    )


def _end(token: Token) -> int:
    """Where a token ends: lark's lexer sets it on every token it makes; only tokens built by
    hand (none here) lack it, which is why lark types it as optional."""
    return cast(int, token.end_pos)


def _item(text: str, built: tuple[Any, ...]) -> Item | WhereClause:
    kind, *parts = built
    if kind == "where":
        where, keyword, operator, (value, token) = parts[0]
        return WhereClause(
            str(keyword).upper(), str(operator).upper(), value, where.start_pos, _closing(text, token.end_pos)
        )
    keyword = parts[0]
    if kind == "flag":
        return Item(str(keyword).upper(), None, keyword.start_pos, keyword.end_pos, keyword.end_pos)
    values, last_end = parts[1]
    return Item(str(keyword).upper(), values, keyword.start_pos, keyword.end_pos, _closing(text, last_end))


def _error_end(text: str, error: UnexpectedInput) -> int:
    """Offset just past the token at which the parse failed."""
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            return len(text.rstrip())
        return token.end_pos if token.end_pos is not None else len(text)
    if isinstance(error, UnexpectedCharacters):
        return min(cast(int, error.pos_in_stream) + 1, len(text))
    if isinstance(error, UnexpectedEOF):
        return len(text.rstrip())
    return len(text)


def first_word(text: str) -> str:
    stripped = text.lstrip()
    word = ""
    for char in stripped:
        if not (char.isalnum() or char == "_"):
            break
        word += char
    return word.upper()


class _Terminals:
    """The grammar's own terminal patterns, compiled for reading the plain shape directly (see
    _plain): each is matched on its own at a position, as the lexer matches it."""

    def __init__(self, grammar: Lark):
        def terminal(name: str) -> str:
            return grammar.get_terminal(name).pattern.to_regexp()

        ignored = "|".join(terminal(name) for name in grammar.lexer_conf.ignore)  # blanks, and commas
        self._gap = re.compile(f"(?:{ignored})*")
        self.keyword = re.compile(terminal("KEYWORD"))
        self.quoted = re.compile(terminal("QUOTED"))
        self.token = re.compile(terminal("TOKEN"))

    def past_gap(self, text: str, at: int = 0) -> int:
        """Where the blanks and commas from at end (the pattern matches the empty string too)."""
        return cast("re.Match[str]", self._gap.match(text, at)).end()


@lru_cache(maxsize=1)
def _terminals() -> _Terminals:
    return _Terminals(lark_parser())


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
                Value(_unquote(value.group()), quoted=True) if quoted else Value(value.group().upper())
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
    try:
        verb_token, *built = cast("list[Any]", _building_parser().parse(text))
    except UnexpectedInput as error:
        raise ParseError(text, _error_end(text, error), first_word(text) or None) from None
    command = ParsedCommand(text, str(verb_token).upper(), verb_token.end_pos)
    for item in (_item(text, parts) for parts in built):
        if isinstance(item, WhereClause):
            if command.where is not None:
                raise ParseError(text, item.end, command.verb)
            command.where = item
        else:
            command.items.append(item)
    return command
