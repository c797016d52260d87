"""MQSC command text -> ParsedCommand (structure only), via grammar/mqsc.lark.

The parse knows nothing of which keywords exist; mqsh.language.validate checks
the result against the catalogue. Every piece keeps its position in the text so
that errors can quote runmqsc's "command segment" up to the point of failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)


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
class Where:
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
    where: Where | None = None


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
    return Lark(grammar_text(), parser="lalr", lexer="contextual", propagate_positions=True)


def _unquote(raw: str) -> str:
    return raw[1:-1].replace("''", "'")


def _value(tree: Tree) -> Value:
    token = tree.children[0]
    if tree.data == "quoted":
        return Value(_unquote(str(token)), quoted=True)
    return Value(str(token).upper())


def _values(tree: Tree) -> tuple[Value, ...]:
    if tree.data == "blank_value":
        return (Value(" ", quoted=True),)
    return tuple(_value(child) for child in tree.children)


def _word(tree: Tree) -> Token:
    return tree.children[0]


def _item(tree: Tree) -> Item | Where:
    if tree.data == "where":
        _where, keyword, operator, value = tree.children
        return Where(str(keyword).upper(), str(operator).upper(), _value(value),
                     tree.meta.start_pos, tree.meta.end_pos)
    keyword = _word(tree.children[0])
    values = _values(tree.children[1]) if tree.data == "keyed" else None
    return Item(str(keyword).upper(), values, keyword.start_pos, keyword.end_pos, tree.meta.end_pos)


def _error_end(text: str, error: UnexpectedInput) -> int:
    """Offset just past the token at which the parse failed."""
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            return len(text.rstrip())
        return token.end_pos if token.end_pos is not None else len(text)
    if isinstance(error, UnexpectedCharacters):
        return min(error.pos_in_stream + 1, len(text))
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


def parse(text: str) -> ParsedCommand:
    """Parse one joined MQSC command. Raises ParseError."""
    try:
        tree = lark_parser().parse(text)
    except UnexpectedInput as error:
        raise ParseError(text, _error_end(text, error), first_word(text) or None) from None
    verb_token = _word(tree.children[0])
    command = ParsedCommand(text, str(verb_token).upper(), verb_token.end_pos)
    for child in tree.children[1:]:
        item = _item(child)
        if isinstance(item, Where):
            if command.where is not None:
                raise ParseError(text, item.end, command.verb)
            command.where = item
        else:
            command.items.append(item)
    return command
