"""The JSON, table and CSV renderings: one JSON object per command, values typed as the catalogue types them;
one table or CSV block per kind of DISPLAY record."""

from __future__ import annotations

import csv
import io
import json

from mqsh.render.structured import json_record, render_csv, render_json, render_table
from mqsh.responses import Display, Message, SyntaxProblem


def typed(name, value):
    return int(value) if name == "MAXDEPTH" else value


DISPLAYS = [
    Display("AMQ8409I", "Display Queue details.", [("QUEUE", "A"), ("MAXDEPTH", "5000"), ("SHARE", None)]),
    Display("AMQ8409I", "Display Queue details.", [("QUEUE", "B"), ("MAXDEPTH", "7"), ("NOSHARE", None)]),
]


def test_a_display_is_its_header_once_and_one_object_per_record_typed():
    record = json_record(DISPLAYS, typed, ok=True)
    assert record == {
        "ok": True,
        "messages": [{"msgid": "AMQ8409I", "text": "Display Queue details."}],
        "objects": [
            {"QUEUE": "A", "MAXDEPTH": 5000, "SHARE": True},
            {"QUEUE": "B", "MAXDEPTH": 7, "NOSHARE": True},
        ],
    }


def test_messages_keep_their_inserts_and_a_syntax_error_its_segment():
    record = json_record(
        [Message("IBM MQ object damaged.", "AMQ8149S", ["[2016, Q1]"]), SyntaxProblem("DIS QX")],
        typed,
        ok=False,
    )
    assert record["ok"] is False and record["objects"] == []
    assert record["messages"][0] == {
        "msgid": "AMQ8149S",
        "text": "IBM MQ object damaged.",
        "inserts": ["[2016, Q1]"],
    }
    assert record["messages"][1]["msgid"] == "AMQ8405I" and record["messages"][1]["segment"] == "DIS QX"


def test_render_json_is_one_line_and_nothing_for_no_responses():
    line = render_json(DISPLAYS, typed)
    assert "\n" not in line and json.loads(line)["objects"][1]["QUEUE"] == "B"
    assert render_json([], typed) == ""


def test_a_table_per_kind_of_display():
    table = render_table(DISPLAYS).splitlines()
    assert table[0].split() == ["QUEUE", "MAXDEPTH", "SHARE", "NOSHARE"]
    assert table[2].split() == ["A", "5000", "YES"]


def test_table_and_csv_show_the_displays_alone_each_block_ending_in_a_blank_line():
    responses = [
        Message("IBM MQ queue created.", "AMQ8006I"),
        *DISPLAYS,
        Display("AMQ8408I", "Display Queue Manager details.", [("QMNAME", "QM1")]),
    ]
    table = render_table(responses).split("\n")
    assert not any("AMQ" in line for line in table)
    assert [line.split() for line in table if line and not line.startswith("-")] == [
        ["QUEUE", "MAXDEPTH", "SHARE", "NOSHARE"],
        ["A", "5000", "YES"],
        ["B", "7", "YES"],
        ["QMNAME"],
        ["QM1"],
    ]
    assert table[4] == "" and table[-1] == ""  # one block per kind of record, apart
    assert render_csv(responses) == ("QUEUE,MAXDEPTH,SHARE,NOSHARE\nA,5000,YES,\nB,7,,YES\n\nQMNAME\nQM1\n")


def test_csv_quotes_what_needs_it_and_joins_a_list():
    display = Display(
        "AMQ8550I",
        "Display namelist details.",
        [("NAMELIST", "N1"), ("DESCR", 'a, "quoted" one'), ("NAMES", ["Q1", "Q2"])],
    )
    rows = list(csv.reader(io.StringIO(render_csv([display]))))
    assert rows == [["NAMELIST", "DESCR", "NAMES"], ["N1", 'a, "quoted" one', "Q1,Q2"]]


def test_no_display_is_no_table_and_no_csv():
    assert render_table([Message("IBM MQ queue created.", "AMQ8006I")]) == ""
    assert render_csv([]) == ""
