"""The role of every word of a command being typed, for highlighting and completion.

The grammar (mqsh/language/mqsc.lark) says how MQSC text splits into tokens and
the catalogue says which words are verbs, object types and attributes. The
scanner walks text that may be unfinished or wrong, token by token, in the
order the parser would read it, and tags each piece with its role and with the
context it was read in (what the parser expected there). It never raises: what
it cannot place becomes an ERROR piece and scanning goes on.

Lines are joined by runmqsc's continuation rules through LineReader, so a
continued command is scanned as the one command it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from mqsh.language.catalogue import Catalogue, ObjectSpec, VerbSpec
from mqsh.language.lines import LineReader, is_comment
from mqsh.language.parser import terminal_patterns
from mqsh.language.validate import allowed_keywords
from mqsh.shell.vocabulary import Vocabulary


def _terminal(name: str) -> re.Pattern[str]:
    patterns, _ignored = terminal_patterns()
    if name not in patterns:
        raise LookupError(f"the MQSC grammar has no terminal {name}")
    return re.compile(patterns[name])


KEYWORD = _terminal("KEYWORD")
TOKEN = _terminal("TOKEN")
QUOTED = _terminal("QUOTED")
OPERATOR = _terminal("OPERATOR")
WHERE_WORD = "WHERE"  # the grammar names its filter terminal after the word it matches
WHERE = _terminal(WHERE_WORD)


def is_where_word(word: str) -> bool:
    """True for the word that opens a filter (what the grammar's WHERE terminal matches)."""
    match = WHERE.match(word + "(")
    return match is not None and match.end() == len(word)


class Role(Enum):
    VERB = "verb"
    OBJECT_TYPE = "object-type"
    OBJECT_NAME = "object-name"
    ATTRIBUTE = "attribute"
    VALUE = "value"
    WHERE = "where"
    OPERATOR = "operator"
    PUNCTUATION = "punctuation"
    CONTINUATION = "continuation"
    TERMINATOR = "terminator"
    COMMENT = "comment"
    COMMAND = "command"  # a control or shell command's name
    OPTION = "option"  # -x of a control command
    ARGUMENT = "argument"  # any other word after a control or shell command
    UNKNOWN = "unknown"  # a well-formed word the catalogue does not allow here
    ERROR = "error"  # text that cannot be read at all


class Place(Enum):
    """Where the parser stands: what may come next."""

    VERB = "verb"
    OBJECT_TYPE = "object-type"
    OBJECT_NAME_PENDING = "object-name-pending"  # after QLOCAL, before its "("
    OBJECT_NAME = "object-name"
    ATTRIBUTE = "attribute"
    VALUE = "value"
    FILTER_KEYWORD = "filter-keyword"
    FILTER_OPERATOR = "filter-operator"
    FILTER_VALUE = "filter-value"
    COMMAND_ARGUMENT = "command-argument"
    END = "end"  # after the ";" that ends a command: nothing more


@dataclass(frozen=True)
class CursorContext:
    place: Place
    verb: VerbSpec | None = None
    target: ObjectSpec | None = None
    variant: str | None = None  # CHLTYPE(SDR) -> "SDR"
    keyword: str | None = None  # the attribute (or filter keyword) whose value is read
    given: tuple[str, ...] = ()  # attributes already given (canonical names)
    values: tuple[str, ...] = ()  # values already in the current parentheses
    command: str | None = None  # control or shell command name
    command_kind: str | None = None  # "control" | "shell"
    words: tuple[str, ...] = ()  # the words already given after a control/shell command
    filtered: bool = False  # a WHERE clause is already there


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    role: Role
    context: CursorContext  # what the parser expected when this piece began
    quoted: bool = False
    closed: bool = True  # False for a quoted string still open at the end of the text


class _CommandState:
    """What one command has said so far; mutated as its pieces are read."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.place = Place.VERB
        self.verb: VerbSpec | None = None
        self.target: ObjectSpec | None = None
        self.variant: str | None = None
        self.keyword: str | None = None
        self.opener: Place | None = None  # what a "(" here would open
        self.given: list[str] = []
        self.values: list[str] = []
        self.command: str | None = None
        self.command_kind: str | None = None
        self.words: list[str] = []
        self.filtered = False

    def context(self) -> CursorContext:
        return CursorContext(
            self.place,
            self.verb,
            self.target,
            self.variant,
            self.keyword,
            tuple(self.given),
            tuple(self.values),
            self.command,
            self.command_kind,
            tuple(self.words),
            self.filtered,
        )

    @property
    def catalogue(self) -> Catalogue:
        return self.vocabulary.catalogue

    # --- words outside parentheses
    def start_command(self, kind: str, name: str) -> None:
        self.command_kind, self.command = kind, name
        self.place = Place.COMMAND_ARGUMENT

    def read_verb(self, word: str) -> Role:
        self.verb = self.catalogue.verb(word)
        self.place = Place.OBJECT_TYPE
        return Role.VERB if self.verb else Role.UNKNOWN

    def read_object_type(self, word: str) -> Role:
        obj = self.catalogue.object(word)
        if self.verb is not None and obj is not None and obj.name in self.verb.targets:
            self.target = obj
            if obj.takes_name:
                self.place = Place.OBJECT_NAME_PENDING
                self.opener = Place.OBJECT_NAME
            else:
                self.place = Place.ATTRIBUTE
            return Role.OBJECT_TYPE
        if self.verb is not None and not self.verb.requires_target:
            self.place = Place.ATTRIBUTE
            return self.read_attribute(word)
        self.place = Place.ATTRIBUTE
        self.opener = Place.VALUE
        self.keyword = word.upper()
        return Role.UNKNOWN

    def allowed(self) -> set[str]:
        if self.verb is None:
            return set()
        if self.target is None:
            return set(self.verb.params)
        return allowed_keywords(self.verb, self.target, self.variant)

    def canonical_attribute(self, word: str) -> str | None:
        """The attribute a word sets here (SHARE for NOSHARE, TARGET for TARGQ), or None."""
        upper = self.catalogue.canonical(word)
        allowed = self.allowed()
        positive = self.catalogue.positive_of(upper)
        if positive and positive in allowed:
            return positive
        return upper if upper in allowed else None

    def read_attribute(self, word: str) -> Role:
        canonical = self.canonical_attribute(word)
        if canonical is None and self.takes_filter() and is_where_word(word):
            self.read_where()  # WHERE typed, its "(" not yet
            return Role.WHERE
        self.given.append(canonical or word.upper())
        self.keyword = canonical or word.upper()
        self.place = Place.ATTRIBUTE
        self.opener = Place.VALUE
        return Role.ATTRIBUTE if canonical else Role.UNKNOWN

    def takes_filter(self) -> bool:
        return self.verb is not None and self.verb.attributes == "selectors" and not self.filtered

    def read_where(self) -> None:
        self.opener = Place.FILTER_KEYWORD
        self.place = Place.ATTRIBUTE

    # --- parentheses
    def open_group(self) -> bool:
        if self.opener is None:
            return False
        self.place, self.opener = self.opener, None
        self.values = []
        if self.place is Place.OBJECT_NAME:
            self.keyword = None
        if self.place is Place.FILTER_KEYWORD:
            self.filtered = True
        return True

    def close_group(self) -> None:
        self.place = Place.ATTRIBUTE
        self.keyword = None
        self.values = []

    def read_value(self, text: str) -> Role:
        place = self.place
        if place is Place.OBJECT_NAME:
            self.values.append(text)
            return Role.OBJECT_NAME
        if place is Place.FILTER_KEYWORD:
            self.keyword = self.catalogue.canonical(text)
            self.place = Place.FILTER_OPERATOR
            known = self.target is not None and self.keyword in self.target.all_attributes()
            return Role.ATTRIBUTE if known else Role.UNKNOWN
        if place is Place.FILTER_OPERATOR:
            self.place = Place.FILTER_VALUE
            return Role.OPERATOR if OPERATOR.fullmatch(text) else Role.UNKNOWN
        self.values.append(text)
        if self.target is not None and self.keyword == self.target.discriminator and len(self.values) == 1:
            self.variant = text.upper()
        return Role.VALUE

    def clear_opener(self) -> None:
        """Something other than "(" came: the word before takes no value after all."""
        self.opener = None
        if self.place is Place.OBJECT_NAME_PENDING:
            self.place = Place.ATTRIBUTE


class Scanner:
    """Reads the pieces of one command, a stretch of text at a time."""

    def __init__(self, vocabulary: Vocabulary, pieces: list[Piece] | None = None) -> None:
        self.state = _CommandState(vocabulary)
        self.pieces = [] if pieces is None else pieces

    def scan(self, text: str, start: int = 0, end: int | None = None) -> None:
        end = len(text) if end is None else end
        position = start
        while position < end:
            char = text[position]
            if char.isspace():
                position += 1
            elif self.state.place is Place.COMMAND_ARGUMENT:
                position = self._command_word(text, position, end)
            elif char == ";" and not text[position + 1 : end].strip():
                self._add(position, position + 1, Role.TERMINATOR)
                self.state.place = Place.END
                position += 1
            elif self.state.place in (
                Place.OBJECT_NAME,
                Place.VALUE,
                Place.FILTER_KEYWORD,
                Place.FILTER_OPERATOR,
                Place.FILTER_VALUE,
            ):
                position = self._inside(text, position, end)
            else:
                position = self._outside(text, position, end)

    def context(self) -> CursorContext:
        return self.state.context()

    def _add(
        self,
        start: int,
        end: int,
        role: Role,
        context: CursorContext | None = None,
        quoted: bool = False,
        closed: bool = True,
    ) -> None:
        self.pieces.append(Piece(start, end, role, context or self.state.context(), quoted, closed))

    def _command_word(self, text: str, position: int, end: int) -> int:
        stop = _word_end(text, position, end)
        word = text[position:stop]
        context = self.state.context()
        self.state.words.append(word)
        self._add(position, stop, Role.OPTION if word.startswith("-") else Role.ARGUMENT, context)
        return stop

    def _outside(self, text: str, position: int, end: int) -> int:
        state = self.state
        char = text[position]
        context = state.context()
        if state.place is Place.VERB:
            stop = _word_end(text, position, end)
            word = text[position:stop]
            shell = state.vocabulary.shell_command(word)
            control = state.vocabulary.control_command(word)
            if shell is not None or control is not None:
                state.start_command("shell" if shell else "control", shell.name if shell else control)
                self._add(position, stop, Role.COMMAND, context)
                return stop
            if word.startswith("\\"):  # a backslash marks a shell command, even one not (yet) known
                state.start_command("shell", word)
                self._add(position, stop, Role.UNKNOWN, context)
                return stop
        if char == ",":
            self._add(position, position + 1, Role.PUNCTUATION, context)
            return position + 1
        if char == "(":
            role = Role.PUNCTUATION if state.open_group() else Role.ERROR
            self._add(position, position + 1, role, context)
            return position + 1
        if state.place is Place.END:
            stop = _word_end(text, position, end)
            self._add(position, stop, Role.ERROR, context)
            return stop
        where = WHERE.match(text, position, end)
        if where and state.verb is not None and state.place is not Place.VERB:
            state.clear_opener()
            state.read_where()
            self._add(position, where.end(), Role.WHERE, context)
            return where.end()
        keyword = KEYWORD.match(text, position, end)
        if keyword is None:
            stop = _word_end(text, position, end)
            self._add(position, stop, Role.ERROR, context)
            state.clear_opener()
            return stop
        word = keyword.group()
        state.clear_opener()
        if state.place is Place.VERB:
            role = state.read_verb(word)
        elif state.place is Place.OBJECT_TYPE:
            role = state.read_object_type(word)
        else:
            role = state.read_attribute(word)
        self._add(position, keyword.end(), role, context)
        return keyword.end()

    def _inside(self, text: str, position: int, end: int) -> int:
        state = self.state
        char = text[position]
        context = state.context()
        if char == ")":
            state.close_group()
            self._add(position, position + 1, Role.PUNCTUATION, context)
            return position + 1
        if char == ",":
            self._add(position, position + 1, Role.PUNCTUATION, context)
            return position + 1
        if char == "'":
            quoted = QUOTED.match(text, position, end)
            stop = quoted.end() if quoted else end  # an unterminated string runs to the end
            role = state.read_value(text[position:stop])
            self._add(position, stop, role, context, quoted=True, closed=quoted is not None)
            return stop
        pattern = KEYWORD if state.place is Place.FILTER_KEYWORD else TOKEN
        match = pattern.match(text, position, end)
        if match is None:
            self._add(position, position + 1, Role.ERROR, context)
            return position + 1
        role = state.read_value(match.group())
        self._add(position, match.end(), role, context)
        return match.end()


def _word_end(text: str, position: int, end: int) -> int:
    stop = position
    while stop < end and not text[stop].isspace():
        stop += 1
    return stop


@dataclass(frozen=True)
class Scan:
    pieces: list[Piece]
    context: CursorContext  # what the parser expects at the end of the text


def scan(text: str, vocabulary: Vocabulary) -> Scan:
    """Scan one command already joined into a single line."""
    scanner = Scanner(vocabulary)
    scanner.scan(text)
    return Scan(scanner.pieces, scanner.context())


def scan_lines(text: str, vocabulary: Vocabulary) -> list[Piece]:
    """Scan a whole input buffer: several lines, continued commands, comments.

    Offsets are into `text`. Each physical line is scanned where it stands, so a
    word split across a continuation is shown as two pieces; runmqsc scripts
    rarely split words and the colours only have to be right for what is typed.
    """
    pieces: list[Piece] = []
    reader = LineReader()
    scanner = Scanner(vocabulary, pieces)
    offset = 0
    for line in text.split("\n"):
        continued = reader.in_command  # this line carries on the previous line's command
        reader.feed(line)
        if is_comment(line):
            pieces.append(Piece(offset, offset + len(line), Role.COMMENT, CursorContext(Place.END)))
        elif line.strip():
            if not continued:
                scanner = Scanner(vocabulary, pieces)
            body_end = offset + len(line.rstrip())
            if reader.in_command:
                body_end -= 1  # the "+" or "-" that continues the command
            scanner.scan(text, offset, body_end)
            if reader.in_command:
                pieces.append(Piece(body_end, body_end + 1, Role.CONTINUATION, scanner.context()))
        offset += len(line) + 1
    return pieces


def command_before_cursor(text_before_cursor: str) -> str | None:
    """The command being typed, continuation lines joined; None on a comment line."""
    *earlier, current = text_before_cursor.split("\n")
    if is_comment(current):
        return None
    reader = LineReader()
    for line in earlier:
        reader.feed(line)
    return reader.preview(current)
