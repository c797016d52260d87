"""Table (tabulate) and JSON renderings of the same responses.

Table: consecutive DISPLAY records of one kind form one table, one row per
object. JSON: one line per command, an object that tools such as jq read:
{"ok": true, "messages": [{"msgid", "text", "inserts"}], "objects": [...]},
each DISPLAY record an object with attribute names as keys (a bare word such
as SHARE or NOSHARE becomes a key with the value true) and values typed as
the catalogue types them (typed: integers as numbers).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import groupby
from typing import Any

from tabulate import tabulate

from mqsh.render.mqsc import response_lines
from mqsh.responses import Display, Message, Response, SyntaxProblem


def _row(display: Display) -> dict[str, Any]:
    return {name: True if value is None else value for name, value in display.attributes}


def _cell(value: Any) -> str:
    if value is True:
        return "YES"
    if isinstance(value, list):
        return ",".join(value)
    return str(value).strip()


def render_table(responses: list[Response]) -> str:
    blocks: list[str] = []
    for is_display, group in groupby(responses, key=lambda response: isinstance(response, Display)):
        items = list(group)
        if not is_display:
            blocks += ["\n".join(response_lines(item)) for item in items]
            continue
        for _title, same in groupby(items, key=lambda display: display.title):
            rows = [_row(display) for display in same]
            headers = list(dict.fromkeys(name for row in rows for name in row))
            table = [[_cell(row.get(name, "")) for name in headers] for row in rows]
            blocks.append(tabulate(table, headers=headers, tablefmt="simple"))
    return "\n".join(blocks)


Typed = Callable[[str, Any], Any]  # attribute name, rendered value -> the value as JSON shows it


def json_record(responses: list[Response], typed: Typed, ok: bool) -> dict[str, Any]:
    """One command's responses as one JSON object: its messages, and the objects DISPLAY returned."""
    messages: list[dict[str, Any]] = []
    objects: list[dict[str, Any]] = []
    for response in responses:
        if isinstance(response, Display):
            header = {"msgid": response.msgid, "text": response.title}
            if header not in messages:  # MQ's header of each record (AMQ8409I ...), once
                messages.append(header)
            objects.append({name: typed(name, value) for name, value in _row(response).items()})
        elif isinstance(response, SyntaxProblem):
            messages.append({"msgid": "AMQ8405I", "text": "Syntax error detected at or near end of command "
                             "segment below:-", "segment": response.segment})
        else:
            message: dict[str, Any] = {"msgid": response.msgid, "text": response.text}
            if response.inserts:
                message["inserts"] = response.inserts
            messages.append(message)
    return {"ok": ok, "messages": messages, "objects": objects}


def render_json(responses: list[Response], typed: Typed, ok: bool = True) -> str:
    return json.dumps(json_record(responses, typed, ok)) if responses else ""
