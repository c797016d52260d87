"""Table (tabulate), CSV and JSON renderings of the same responses.

Table and CSV: the DISPLAY records alone (the session shows any other
response apart from them, in runmqsc's words); consecutive records of one kind
form one table or CSV block - a header row of attribute names, then one row
per object - and each block ends with a blank line, as psql ends a result, so
that the blocks of several commands stay apart. JSON: one line per command, an object that tools such as jq read:
{"ok": true, "messages": [{"msgid", "text", "inserts"}], "objects": [...]},
each DISPLAY record an object with attribute names as keys (a bare word such
as SHARE or NOSHARE becomes a key with the value true) and values typed as
the catalogue types them (typed: integers as numbers).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from itertools import groupby
from typing import Any

from mqsh.responses import Display, Response, SyntaxProblem


def _row(display: Display) -> dict[str, Any]:
    return {name: True if value is None else value for name, value in display.attributes}


def _cell(value: Any) -> str:
    if value is True:
        return "YES"
    if isinstance(value, list):
        return ",".join(value)
    return str(value).strip()


def _blocks(responses: list[Response]) -> Iterator[tuple[list[str], list[list[str]]]]:
    """(headers, rows) for each run of DISPLAY records of one kind; other responses are skipped."""
    displays = [response for response in responses if isinstance(response, Display)]
    for _title, same in groupby(displays, key=lambda display: display.title):
        rows = [_row(display) for display in same]
        headers = list(dict.fromkeys(name for row in rows for name in row))
        yield headers, [[_cell(row.get(name, "")) for name in headers] for row in rows]


def render_table(responses: list[Response]) -> str:
    from tabulate import tabulate  # loads only for --format table: the other formats start without it

    return "".join(
        tabulate(rows, headers=headers, tablefmt="simple") + "\n\n" for headers, rows in _blocks(responses)
    ).removesuffix("\n")


def render_csv(responses: list[Response]) -> str:
    import csv  # for --format csv only

    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    for headers, rows in _blocks(responses):
        writer.writerows([headers, *rows])
        text.write("\n")
    return text.getvalue().removesuffix("\n")


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
            messages.append(
                {
                    "msgid": "AMQ8405I",
                    "text": "Syntax error detected at or near end of command segment below:-",
                    "segment": response.segment,
                }
            )
        else:
            message: dict[str, Any] = {"msgid": response.msgid, "text": response.text}
            if response.inserts:
                message["inserts"] = response.inserts
            messages.append(message)
    return {"ok": ok, "messages": messages, "objects": objects}


def render_json(responses: list[Response], typed: Typed, ok: bool = True) -> str:
    return json.dumps(json_record(responses, typed, ok)) if responses else ""
