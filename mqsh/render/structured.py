"""Table (tabulate) and JSON renderings of the same responses.

Table: consecutive DISPLAY records of one kind form one table, one row per
object. JSON: one object per DISPLAY record with attribute names as keys (a
bare word such as SHARE or NOSHARE becomes a key with the value true), and
messages as {"message": id, "text": ...}.
"""

from __future__ import annotations

import json
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


def _json_item(response: Response) -> dict[str, Any]:
    if isinstance(response, Display):
        return _row(response)
    if isinstance(response, SyntaxProblem):
        return {"message": "AMQ8405I", "text": "Syntax error", "segment": response.segment}
    assert isinstance(response, Message)
    item: dict[str, Any] = {"message": response.msgid, "text": response.text}
    if response.inserts:
        item["inserts"] = response.inserts
    return item


def render_json(responses: list[Response]) -> str:
    return "\n".join(json.dumps(_json_item(response)) for response in responses)
