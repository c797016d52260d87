"""MQSC command text -> ParsedCommand by lark's LALR parser of grammar/mqsc.lark.

mqsh.language.parser reads a command of the plain shape with the grammar's
terminal patterns alone and hands every other here; it also asks here for
the patterns when the cache holds none from this grammar and this lark. So
lark is imported, and its analysis of the grammar loaded, only by a process
that needs them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from mqsh.language.cache import grammar_cache
from mqsh.language.parser import (
    Item,
    ParsedCommand,
    ParseError,
    Value,
    WhereClause,
    first_word,
    grammar_text,
    unquote,
)


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
        return Value(unquote(str(children[0])), quoted=True), children[0]

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


def parse(text: str) -> ParsedCommand:
    """The command as the LALR parser reads it, whatever its shape. Raises ParseError."""
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


def terminal_patterns() -> tuple[dict[str, str], tuple[str, ...]]:
    """Every terminal of the grammar as a regular expression, by name, and the names of those the
    lexer passes over (blanks, commas), as lark's analysis of the grammar has them."""
    grammar = _building_parser()
    patterns = {terminal.name: terminal.pattern.to_regexp() for terminal in grammar.terminals}
    return patterns, tuple(grammar.lexer_conf.ignore)
