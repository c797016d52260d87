"""Text before the cursor -> what kinds of words may come next (typed suggestion records).

This is the pure half of completion: strings in, records out, no prompt-toolkit.
mqsh.shell.completer turns each record into concrete completions.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from mqsh.language.catalogue import ObjectSpec
from mqsh.shell.scanner import CursorContext, Piece, Place, Role, scan
from mqsh.shell.vocabulary import Vocabulary


@dataclass(frozen=True)
class Verb:
    """An MQSC verb or one of its synonyms."""


@dataclass(frozen=True)
class ObjectType:
    verb: str


@dataclass(frozen=True)
class ObjectName:
    object_type: str  # the catalogue type whose objects are named here (QUEUE for QSTATUS)
    generic: bool = False  # the verb takes generic names (ABC*, *)


@dataclass(frozen=True)
class Attribute:
    verb: str
    object_type: str | None
    variant: str | None = None
    given: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Where:
    """The WHERE filter of a DISPLAY."""


@dataclass(frozen=True)
class AttributeValue:
    attribute: str
    object_type: str | None = None
    verb: str | None = None  # a verb may read a keyword its own way (RESET QMGR TYPE)
    given: frozenset[str] = frozenset()  # list values already given


@dataclass(frozen=True)
class FilterKeyword:
    object_type: str


@dataclass(frozen=True)
class FilterOperator:
    pass


@dataclass(frozen=True)
class ControlCommand:
    pass


@dataclass(frozen=True)
class ControlOption:
    command: str
    excluded: frozenset[str] = frozenset()  # given already, or ruled out by one that was (-lc: -ll)


@dataclass(frozen=True)
class ControlArgument:
    command: str
    dest: str  # the argparse destination of the positional or option value
    given: tuple[tuple[str, str], ...] = ()  # (dest, value) of the options typed before it


@dataclass(frozen=True)
class ShellCommand:
    pass


@dataclass(frozen=True)
class ShellArgument:
    command: str


Suggestion = (
    Verb
    | ObjectType
    | ObjectName
    | Attribute
    | Where
    | AttributeValue
    | FilterKeyword
    | FilterOperator
    | ControlCommand
    | ControlOption
    | ControlArgument
    | ShellCommand
    | ShellArgument
)


@dataclass(frozen=True)
class Suggestions:
    word: str  # the part of the word already typed, which a completion replaces
    items: list[Suggestion]


# Pieces a user may still be typing when the cursor sits right after them.
_OPEN_ROLES = {
    Role.VERB,
    Role.OBJECT_TYPE,
    Role.OBJECT_NAME,
    Role.ATTRIBUTE,
    Role.VALUE,
    Role.OPERATOR,
    Role.COMMAND,
    Role.OPTION,
    Role.ARGUMENT,
    Role.UNKNOWN,
    Role.WHERE,
}


def _still_typed(piece: Piece) -> bool:
    return piece.role in _OPEN_ROLES and not (piece.quoted and piece.closed)


def suggest(text_before_cursor: str, vocabulary: Vocabulary) -> Suggestions:
    """What may be typed at the end of one (joined) command."""
    result = scan(text_before_cursor, vocabulary)
    last = result.pieces[-1] if result.pieces else None
    if last is None or last.end < len(text_before_cursor):  # the cursor follows a blank
        return Suggestions("", _records(result.context, vocabulary))
    if _still_typed(last):
        word = text_before_cursor[last.start :]
        return Suggestions(word, _records(last.context, vocabulary, word))
    if text_before_cursor[-1] in "(,":  # a value or list item starts here
        return Suggestions("", _records(result.context, vocabulary))
    # Right after ")" (a blank must come before the next parameter), a closed
    # string, a ";" or unreadable text: nothing fits.
    return Suggestions("", [])


def _records(context: CursorContext, vocabulary: Vocabulary, word: str = "") -> list[Suggestion]:
    place, verb, target = context.place, context.verb, context.target
    if place is Place.VERB:
        if word.startswith("\\"):
            return [ShellCommand()]
        return [Verb(), ControlCommand(), ShellCommand()]
    if place is Place.COMMAND_ARGUMENT:
        if context.command_kind == "shell":
            return [ShellArgument(context.command)]
        return _control_records(context, vocabulary, word)
    if verb is None:
        return []
    if place is Place.OBJECT_TYPE:
        return [ObjectType(verb.name)]
    if place is Place.OBJECT_NAME and target is not None:
        return [ObjectName(_named_type(target, vocabulary), generic=verb.attributes == "selectors")]
    if place is Place.ATTRIBUTE:
        records: list[Suggestion] = [
            Attribute(verb.name, target.name if target else None, context.variant, frozenset(context.given))
        ]
        if verb.attributes == "selectors" and not context.filtered:
            records.append(Where())
        return records
    if place in (Place.VALUE, Place.FILTER_VALUE) and context.keyword:
        return [
            AttributeValue(
                context.keyword,
                target.name if target else None,
                verb.name,
                frozenset(value.upper() for value in context.values),
            )
        ]
    if place is Place.FILTER_KEYWORD and target is not None:
        return [FilterKeyword(target.name)]
    if place is Place.FILTER_OPERATOR:
        return [FilterOperator()]
    return []


def _named_type(target: ObjectSpec, vocabulary: Vocabulary) -> str:
    """Status objects (QSTATUS, CHSTATUS) are named after the objects they report on."""
    if target.kind == "status" and target.name_attribute in vocabulary.catalogue.objects:
        return target.name_attribute
    return target.name


def _control_records(context: CursorContext, vocabulary: Vocabulary, word: str) -> list[Suggestion]:
    command = context.command
    parser = vocabulary.control_commands.get(command)
    if parser is None:
        return []
    # argparse has no public way to list its arguments; _actions and
    # _mutually_exclusive_groups are what argcomplete and argparse's own help
    # formatter read too.
    options = {option: action for action in parser._actions for option in action.option_strings}
    given_options: set[str] = set()
    positionals_given = 0
    expects_value: argparse.Action | None = None
    given: dict[str, str] = {}
    for earlier in context.words:
        if expects_value is not None:
            given[expects_value.dest] = earlier
            expects_value = None
        elif earlier in options:
            given_options.add(earlier)
            action = options[earlier]
            if action.nargs != 0:
                expects_value = action
        elif not earlier.startswith("-"):
            positionals_given += 1
    if expects_value is not None:
        return [ControlArgument(command, expects_value.dest, tuple(given.items()))]
    excluded = set(given_options)
    for group in parser._mutually_exclusive_groups:
        options_of_group = {option for action in group._group_actions for option in action.option_strings}
        if options_of_group & given_options:
            excluded |= options_of_group
    option_record = ControlOption(command, frozenset(excluded))
    if word.startswith("-"):
        return [option_record]
    positionals = [action for action in parser._actions if not action.option_strings]
    if positionals_given < len(positionals):
        return [
            ControlArgument(command, positionals[positionals_given].dest, tuple(given.items())),
            option_record,
        ]
    return [option_record]
