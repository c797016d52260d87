"""runmqsc's own text: AMQ lines, the two-column DISPLAY layout, the syntax-error block.

DISPLAY layout, measured on real transcripts: three blanks, then items two to a
line with the second starting in column 44. An item pairs with the next only
when it is at most 37 characters and the next at most 36. A list of names
(NAMES, USERLIST) starts a line: of several, it is written one name per line,
later ones indented eight columns and led by a comma, and such lines stand
alone; of one, it may pair with the item after it. The item before a list
stands alone, padded to 40 columns. An empty list (RCVEXIT( )) is an item
like any other.
"""

from __future__ import annotations

from typing import Any

from mqsh.responses import Display, Message, Response, SyntaxProblem

INDENT = "   "
LEFT = 40  # width of the left column after the indent: the right item starts in column 44
CELL = 40  # lines standing alone beside a list are padded to this width
LEFT_MAX, RIGHT_MAX = 37, 36


def _item_text(name: str, value: Any) -> str:
    return name if value is None else f"{name}({value})"


class _Leading(str):
    """An item that must start a line: a list of one name."""


def _cell(name: str, value: Any) -> str | list[str]:
    """One item's text (a _Leading one for a list of one name), or the lines of a list of several."""
    if not isinstance(value, list):
        return _item_text(name, value)
    if not value:
        return _item_text(name, " ")
    if len(value) == 1:
        return _Leading(_item_text(name, value[0]))
    return [f"{name}({value[0]}", *(f"     ,{element}" for element in value[1:-1]), f"     ,{value[-1]})"]


def zos_display_lines(display: Display) -> list[str]:
    """z/OS's multi-line CSQM201I message: the title, one keyword a line, the END line."""
    items = [
        _item_text(name, ",".join(value) if isinstance(value, list) else value)
        for name, value in display.attributes
    ]
    return [f"{display.msgid} {display.title}", *items, display.end]


def display_lines(display: Display) -> list[str]:
    if display.end:
        return zos_display_lines(display)
    lines = [f"{display.msgid}: {display.title}"]
    cells = [_cell(name, value) for name, value in display.attributes]
    index = 0
    while index < len(cells):
        cell = cells[index]
        following = cells[index + 1] if index + 1 < len(cells) else None
        starts_line = isinstance(following, (list, _Leading))
        if isinstance(cell, list):
            lines += [f"{INDENT}{line}".ljust(CELL) for line in cell]
            index += 1
        elif (
            following is not None
            and not starts_line
            and len(cell) <= LEFT_MAX
            and len(following) <= RIGHT_MAX
        ):
            lines.append(f"{INDENT}{cell:<{LEFT}}{following}")
            index += 2
        else:
            text = f"{INDENT}{cell}"
            lines.append(text.ljust(CELL) if starts_line else text)
            index += 1
    return lines


def syntax_lines(problem: SyntaxProblem) -> list[str]:
    lines = ["AMQ8405I: Syntax error detected at or near end of command segment below:-", problem.segment]
    if problem.hint:
        lines.append(problem.hint)
    elif problem.usage:
        lines += ["", f"{problem.usage_msgid}: {problem.usage_title}", ""] + problem.usage
    return lines


def message_lines(message: Message) -> list[str]:
    indent = "" if message.zos else INDENT
    return [message.line()] + [f"{indent}{insert}" for insert in message.inserts]


def response_lines(response: Response) -> list[str]:
    if isinstance(response, Display):
        return display_lines(response)
    if isinstance(response, SyntaxProblem):
        return syntax_lines(response)
    return message_lines(response)


def render(responses: list[Response]) -> str:
    return "\n".join(line for response in responses for line in response_lines(response))
