"""Completion for the interactive shell: suggestion records -> prompt-toolkit completions.

mqsh.shell.suggest says what kind of word fits at the cursor; each record type
has one matcher here that lists the concrete words (from the catalogue, the
control-command parsers, the shell-command registry, or the session's objects)
and keeps those that match what is typed.
"""

from __future__ import annotations

import argparse
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from mqsh.language.catalogue import AttributeSpec
from mqsh.language.validate import WHERE_OPERATORS, allowed_keywords, first_keyword
from mqsh.shell.scanner import WHERE_WORD, command_before_cursor
from mqsh.shell.vocabulary import Vocabulary

if TYPE_CHECKING:
    from mqsh.shell.suggest import (
        Attribute,
        AttributeValue,
        ControlArgument,
        ControlCommand,
        ControlOption,
        FilterKeyword,
        ObjectName,
        ObjectType,
        ShellArgument,
        ShellCommand,
        Suggestion,
        Verb,
    )

# runmqsc folds unquoted names to upper case and needs quotes around anything
# else but letters, digits and . / _ %.
_PLAIN_NAME = re.compile(r"[A-Z0-9./_%]+")
_NAME_LOOKUP_WAIT = 0.2  # seconds; a name list is not worth blocking on a running command


class NameSource(Protocol):
    def object_names(self, target: str, qmgr_name: str | None = None) -> list[str]: ...
    def qmgr_names(self) -> list[str]: ...


class SessionNames:
    """The session's object names, read from the completion thread.

    Completion runs in its own thread; the lock keeps it off the model while
    the REPL runs a command (the REPL holds `lock` around execute).
    """

    def __init__(self, session: NameSource) -> None:
        self._session = session
        self.lock = threading.Lock()

    def _read(self, read: Callable[[], Iterable[str]]) -> list[str]:
        if not self.lock.acquire(timeout=_NAME_LOOKUP_WAIT):
            return []
        try:
            return list(read())
        finally:
            self.lock.release()

    def object_names(self, target: str, qmgr_name: str | None = None) -> list[str]:
        return self._read(lambda: self._session.object_names(target, qmgr_name))

    def qmgr_names(self) -> list[str]:
        return self._read(self._session.qmgr_names)


def _cased(candidate: str, typed: str) -> str:
    """Keywords follow the case the user types in: def -> define."""
    return candidate.lower() if typed and typed == typed.lower() and typed.upper() != typed else candidate


def keyword_matches(words: Iterable[tuple[str, str]], typed: str) -> list[Completion]:
    """Keywords that start with what is typed (case-insensitive), in the order given."""
    prefix = typed.upper()
    return [
        Completion(_cased(word, typed), -len(typed), display_meta=meta)
        for word, meta in dict.fromkeys(words)
        if word.upper().startswith(prefix)
    ]


def _quoted(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def name_matches(names: Iterable[str], typed: str, generic: bool = False) -> list[Completion]:
    """Object names: prefix matches first, then names that merely contain what is typed.

    A name that needs quotes is completed with them; typing a quote restricts the
    match to the case as typed, as MQ keeps quoted names as they are.
    """
    quoted_typed = typed.startswith("'")
    wanted = typed[1:] if quoted_typed else typed.upper()
    candidates = sorted(set(names))
    prefixed = [name for name in candidates if name.startswith(wanted)]
    # One letter is found in most names; matching inside names starts at two.
    containing = [
        name for name in candidates if len(wanted) > 1 and wanted in name[1:] and name not in prefixed
    ]
    completions = []
    for name in prefixed + containing:
        text = _quoted(name) if quoted_typed or not _PLAIN_NAME.fullmatch(name) else name
        completions.append(Completion(text, -len(typed)))
    if generic and not quoted_typed:
        completions.append(Completion(f"{wanted}*", -len(typed), display_meta="generic name"))
    return completions


def _usage_choices(usage: str) -> list[str]:
    """The alternatives a usage line spells as a|b|c (\\format mqsc|table|json, \\pager [on|off|COMMAND])."""
    choices: list[str] = []
    for word in usage.split():
        if "|" in word:
            # Words in capitals (FILE, COMMAND) stand for what the user gives: nothing to offer.
            choices += [
                choice for choice in word.strip("[]{}()<>").split("|") if choice and not choice.isupper()
            ]
    return choices


def _names_a_qmgr(action: argparse.Action) -> bool:
    """Control-command arguments that hold a queue manager name (QM, -m QMgrName)."""
    label = f"{action.dest} {action.metavar or ''}".upper()
    return "QM" in label


class MqshCompleter(Completer):
    """Completes MQSC, control commands and shell commands for the REPL."""

    def __init__(self, vocabulary: Vocabulary, names: NameSource) -> None:
        self.vocabulary = vocabulary
        self.names = names
        self._matchers: dict[type, Callable[[Suggestion, str], list[Completion]]] = {}

    def _matcher(self, record: Suggestion) -> Callable[[Suggestion, str], list[Completion]]:
        """The matcher of a record's type. The suggestion records load with the first completion,
        not before the prompt is drawn."""
        if not self._matchers:
            from mqsh.shell.suggest import (
                Attribute,
                AttributeValue,
                ControlArgument,
                ControlCommand,
                ControlOption,
                FilterKeyword,
                FilterOperator,
                ObjectName,
                ObjectType,
                ShellArgument,
                ShellCommand,
                Verb,
                Where,
            )

            self._matchers = {
                Verb: self._verbs,
                ObjectType: self._object_types,
                ObjectName: self._object_names,
                Attribute: self._attributes,
                Where: lambda record, typed: keyword_matches([(WHERE_WORD, "filter")], typed),
                AttributeValue: self._attribute_values,
                FilterKeyword: self._filter_keywords,
                FilterOperator: lambda record, typed: keyword_matches(
                    [(operator, "operator") for operator in WHERE_OPERATORS], typed
                ),
                ControlCommand: self._control_commands,
                ControlOption: self._control_options,
                ControlArgument: self._control_arguments,
                ShellCommand: self._shell_commands,
                ShellArgument: self._shell_arguments,
            }
        return self._matchers[type(record)]

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        # Completion runs in a background thread on every keystroke; whatever goes
        # wrong there must cost the user a completion menu, never a traceback.
        text = document.text_before_cursor
        if "\n" in text and not text.rsplit("\n", 1)[-1].strip() and not complete_event.completion_requested:
            return  # a continuation line with nothing typed yet: no menu until a key asks (Tab) or a word starts
        try:
            completions = self.completions_for(text)
        except Exception:
            return
        yield from completions

    def completions_for(self, text_before_cursor: str) -> list[Completion]:
        command = command_before_cursor(text_before_cursor)
        if command is None:
            return []
        from mqsh.shell.suggest import suggest

        suggestions = suggest(command, self.vocabulary)
        current_line = text_before_cursor.rsplit("\n", 1)[-1]
        if not current_line.endswith(suggestions.word):
            return []  # a word split over a continuation: leave it alone
        completions: list[Completion] = []
        for record in suggestions.items:
            completions += self._matcher(record)(record, suggestions.word)
        return completions

    # --- MQSC
    @property
    def _catalogue(self):
        return self.vocabulary.catalogue

    def _verbs(self, record: Verb, typed: str) -> list[Completion]:
        words = []
        for verb in sorted(self._catalogue.verbs.values(), key=lambda verb: verb.name):
            words.append((verb.name, verb.description or "verb"))
            words += [(synonym, f"= {verb.name}") for synonym in verb.synonyms]
        return keyword_matches(words, typed)

    def _object_types(self, record: ObjectType, typed: str) -> list[Completion]:
        words = []
        for target in self._catalogue.verbs[record.verb].targets:
            obj = self._catalogue.objects[target]
            words.append((obj.name, obj.description or obj.kind))
            words += [(synonym, f"= {obj.name}") for synonym in obj.synonyms]
        return keyword_matches(words, typed)

    def _object_names(self, record: ObjectName, typed: str) -> list[Completion]:
        return name_matches(self.names.object_names(record.object_type), typed, record.generic)

    def _attribute_meta(self, spec: AttributeSpec | None) -> str:
        if spec is None:
            return ""
        return spec.description or spec.type

    def _attributes(self, record: Attribute, typed: str) -> list[Completion]:
        catalogue = self._catalogue
        verb = catalogue.verbs[record.verb]
        obj = catalogue.objects.get(record.object_type) if record.object_type else None
        allowed = allowed_keywords(verb, obj, record.variant) if obj else set(verb.params)
        first = first_keyword(verb, obj) if obj else None
        if first is not None and not record.given:
            allowed = {first}  # what the validator wants straight after the name, and nothing else
        required = verb.required_for(obj.name) if obj else ()

        def rank(name: str) -> tuple[bool, bool, str]:
            # What must be given comes first (DEFINE CHANNEL wants CHLTYPE straight after
            # the name); z/OS-only parameters, accepted but rarely wanted here, come last.
            spec = catalogue.attribute(name, obj, verb)
            return name not in required, spec is not None and spec.zos_only, name

        words: list[tuple[str, str]] = []
        for name in sorted(allowed - record.given, key=rank):
            spec = catalogue.attribute(name, obj, verb)
            words.append((name, self._attribute_meta(spec)))
            if spec is not None and spec.type == "flag" and spec.negative:
                words.append((spec.negative, f"not {name}"))
        return keyword_matches(words, typed)

    def _attribute_values(self, record: AttributeValue, typed: str) -> list[Completion]:
        obj = self._catalogue.objects.get(record.object_type) if record.object_type else None
        verb = self._catalogue.verbs.get(record.verb) if record.verb else None
        spec = self._catalogue.attribute(record.attribute, obj, verb)
        if spec is None:
            return []
        if spec.type == "string":
            return self._named_object_values(spec.names or record.attribute, typed)
        if spec.type not in ("keyword", "integer"):
            return []
        given = record.given if spec.list else frozenset()
        return keyword_matches([(value, "") for value in spec.values if value not in given], typed)

    def _named_object_values(self, attribute: str, typed: str) -> list[Completion]:
        """A value that names an object (the catalogue's names: XMITQ names a QUEUE), or of an attribute
        called like an object type: QUEUE(, PROCESS(, QMGR(."""
        named = self._catalogue.object(attribute)
        if named is None or named.kind not in ("object", "family"):
            return []
        if named.takes_name:
            return name_matches(self.names.object_names(named.name), typed)
        # The one object without a name of its own is the queue manager, named by itself.
        return name_matches(self.names.qmgr_names(), typed)

    def _filter_keywords(self, record: FilterKeyword, typed: str) -> list[Completion]:
        obj = self._catalogue.objects[record.object_type]
        return keyword_matches(
            [
                (name, self._attribute_meta(self._catalogue.attribute(name, obj)))
                for name in obj.all_attributes()
                if obj.filters_on(name)
            ],
            typed,
        )

    # --- control commands
    def _parser(self, command: str) -> argparse.ArgumentParser | None:
        return self.vocabulary.control_commands.get(command)

    def _control_commands(self, record: ControlCommand, typed: str) -> list[Completion]:
        words = [
            (name, parser.description or "control command")
            for name, parser in sorted(self.vocabulary.control_commands.items())
        ]
        return [
            Completion(name, -len(typed), display_meta=meta)
            for name, meta in words
            if name.startswith(typed.lower())
        ]

    def _control_options(self, record: ControlOption, typed: str) -> list[Completion]:
        parser = self._parser(record.command)
        if parser is None:
            return []
        completions = []
        for action in parser._actions:  # see suggest._control_records on _actions
            for option in action.option_strings:
                if option not in record.excluded and option.startswith(typed):
                    completions.append(Completion(option, -len(typed), display_meta=action.help or ""))
        return completions

    def _control_arguments(self, record: ControlArgument, typed: str) -> list[Completion]:
        parser = self._parser(record.command)
        if parser is None:
            return []
        for action in parser._actions:
            if action.dest != record.dest:
                continue
            if action.choices:
                return [
                    Completion(str(choice), -len(typed))
                    for choice in action.choices
                    if str(choice).startswith(typed)
                ]
            if _names_a_qmgr(action):
                return [
                    Completion(name, -len(typed), display_meta="queue manager")
                    for name in sorted(self.names.qmgr_names())
                    if name.upper().startswith(typed.upper())
                ]
            given = dict(record.given)
            from mqsh.commands.control.media import (
                BY_WORD,  # loads with the first completion that needs it, not at the prompt
            )

            if action.dest == "name" and given.get("type") in BY_WORD:
                # rcdmqimg / rcrmqobj -t qlocal NAME: the objects of that type the queue manager holds.
                kind = BY_WORD[given["type"]]
                target = kind.object_type or kind.namespace
                if target:
                    return name_matches(self.names.object_names(target, given.get("qmgr")), typed)
        return []

    # --- shell commands
    def _shell_commands(self, record: ShellCommand, typed: str) -> list[Completion]:
        completions = []
        for entry in self.vocabulary.shell_commands:
            for name in (entry.name, *entry.aliases):
                if name.lower().startswith(typed.lower()):
                    completions.append(Completion(name, -len(typed), display_meta=entry.description))
        return completions

    def _shell_arguments(self, record: ShellArgument, typed: str) -> list[Completion]:
        entry = self.vocabulary.shell_command(record.command)
        if entry is None:
            return []
        if "FILE" in entry.usage.replace("[", " ").split() and not typed.startswith("|"):
            return _paths(typed)
        return [
            Completion(choice, -len(typed))
            for choice in _usage_choices(entry.usage)
            if choice.startswith(typed.lower())
        ]


def _paths(typed: str) -> list[Completion]:
    """Files and directories whose path starts with what is typed (\\i FILE, \\o FILE); hidden
    ones only once a dot is typed, as shells offer them."""
    head, slash, start = typed.rpartition("/")
    folder = head + slash
    try:
        entries = sorted(os.scandir(os.path.expanduser(folder) or "."), key=lambda entry: entry.name)
    except OSError:
        return []
    return [
        Completion(
            folder + entry.name + ("/" if entry.is_dir() else ""),
            -len(typed),
            display=entry.name + ("/" if entry.is_dir() else ""),
        )
        for entry in entries
        if entry.name.startswith(start) and (start.startswith(".") or not entry.name.startswith("."))
    ]
