"""The JSON and table renderings: one JSON object per command, values typed as the catalogue types them."""

from __future__ import annotations

import json

from mqsh.render.structured import json_record, render_json, render_table
from mqsh.responses import Display, Message, SyntaxProblem


def typed(name, value):
    return int(value) if name == "MAXDEPTH" else value


DISPLAYS = [Display("AMQ8409I", "Display Queue details.", [("QUEUE", "A"), ("MAXDEPTH", "5000"), ("SHARE", None)]),
            Display("AMQ8409I", "Display Queue details.", [("QUEUE", "B"), ("MAXDEPTH", "7"), ("NOSHARE", None)])]


def test_a_display_is_its_header_once_and_one_object_per_record_typed():
    record = json_record(DISPLAYS, typed, ok=True)
    assert record == {"ok": True, "messages": [{"msgid": "AMQ8409I", "text": "Display Queue details."}],
                      "objects": [{"QUEUE": "A", "MAXDEPTH": 5000, "SHARE": True},
                                  {"QUEUE": "B", "MAXDEPTH": 7, "NOSHARE": True}]}


def test_messages_keep_their_inserts_and_a_syntax_error_its_segment():
    record = json_record([Message("IBM MQ object damaged.", "AMQ8149E", ["[2101, Q1]"]), SyntaxProblem("DIS QX")],
                         typed, ok=False)
    assert record["ok"] is False and record["objects"] == []
    assert record["messages"][0] == {"msgid": "AMQ8149E", "text": "IBM MQ object damaged.", "inserts": ["[2101, Q1]"]}
    assert record["messages"][1]["msgid"] == "AMQ8405I" and record["messages"][1]["segment"] == "DIS QX"


def test_render_json_is_one_line_and_nothing_for_no_responses():
    line = render_json(DISPLAYS, typed)
    assert "\n" not in line and json.loads(line)["objects"][1]["QUEUE"] == "B"
    assert render_json([], typed) == ""


def test_a_table_per_kind_of_display():
    table = render_table(DISPLAYS).splitlines()
    assert table[0].split() == ["QUEUE", "MAXDEPTH", "SHARE", "NOSHARE"]
    assert table[2].split() == ["A", "5000", "YES"]
