"""The bottom toolbar: where the user is, and the syntax of what they are typing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from prompt_toolkit.application import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples

from mqsh.language.catalogue import AttributeSpec
from mqsh.language.usage import usage_lines
from mqsh.shell.scanner import Place, Role, command_before_cursor, scan
from mqsh.shell.vocabulary import Vocabulary


def value_hint(spec: AttributeSpec) -> str:
    """KEY( what may go here ) for one attribute, from its catalogue entry."""
    if spec.type == "flag":
        return spec.name + (f" | {spec.negative}" if spec.negative else "")
    if spec.type == "keyword":
        inside = " | ".join(spec.values)
    elif spec.type == "integer":
        bounds = f"{spec.min}..{spec.max}" if spec.min is not None and spec.max is not None else "integer"
        inside = " | ".join((*spec.values, bounds))
    elif spec.length is not None:
        inside = f"string, up to {spec.length} characters"
    else:
        inside = spec.type
    text = f"{spec.name}( {inside}{', ...' if spec.list else ''} )"
    return f"{text}  {spec.description}" if spec.description else text


def syntax_hint(text_before_cursor: str, vocabulary: Vocabulary) -> str:
    """One line on the command being typed: its shape, or the attribute at the cursor."""
    command = command_before_cursor(text_before_cursor)
    if not command or not command.strip():
        return ""
    result = scan(command, vocabulary)
    context = result.context
    if context.command_kind == "shell":
        entry = vocabulary.shell_command(context.command)
        return f"{entry.usage}  {entry.description}" if entry else ""
    if context.command_kind == "control":
        parser = vocabulary.control_commands.get(context.command)
        return " ".join(parser.format_usage().split()[1:]) if parser else ""
    verb, target = context.verb, context.target
    if verb is None:
        return ""
    if target is None:
        return usage_lines(vocabulary.catalogue, verb.name, None)[0].strip()
    last = result.pieces[-1]
    on_attribute = last.role is Role.ATTRIBUTE and last.end == len(command)  # MAXDEPTH| or MAXDEPTH(5|
    if context.keyword and (on_attribute or context.place in (Place.VALUE, Place.FILTER_VALUE)):
        spec = vocabulary.catalogue.attribute(context.keyword, target, verb)
        if spec is not None:
            return value_hint(spec)
    return command_shape(vocabulary, verb.name, target.name, context.variant)


def command_shape(vocabulary: Vocabulary, verb: str, target: str, variant: str | None) -> str:
    """The usage diagram's heading and what must be given, on one line.

    usage_lines puts the optional parameters, each in [ brackets ], after the
    heading and the required ones; the toolbar has room for the latter only.
    """
    lines = usage_lines(vocabulary.catalogue, verb, target, variant)
    shape = [lines[0]]
    for line in lines[1:]:
        if line.lstrip().startswith("["):
            break
        shape.append(line)
    return " ".join(" ".join(line.split()) for line in shape)


class ShellState(Protocol):
    current_qmgr: str | None
    output_format: str


def bottom_toolbar(session: ShellState, vocabulary: Vocabulary) -> Callable[[], StyleAndTextTuples]:
    """The toolbar callable for PromptSession: redrawn on every keystroke."""

    def toolbar() -> StyleAndTextTuples:
        qmgr = session.current_qmgr or "no queue manager"
        status = f" {qmgr} | format: {session.output_format} | help: what you can type | Ctrl-D: leave"
        try:
            hint = syntax_hint(get_app().current_buffer.document.text_before_cursor, vocabulary)
        except Exception:
            hint = ""  # the hint is a convenience; never let it break the prompt
        fragments: StyleAndTextTuples = [("class:bottom-toolbar.status", status)]
        if hint:
            fragments.append(("class:bottom-toolbar.syntax", "\n " + hint))
        return fragments

    return toolbar
