"""Objects' facts added up from extent summaries, and the freshness rule applied to them."""

from __future__ import annotations

from mqsh.core.objects import MQObject
from mqsh.recovery.replay.summaries import LogSummary, fate_rows


def bodies_from(texts):
    return lambda lsns: {lsn: texts[lsn] for lsn in lsns}


def test_extents_add_up():
    summary = LogSummary()
    summary.add(
        {"count": 3, "newest": {"QUEUE/A": [4, None]}, "objects": [[2, "OBJ", "QUEUE/A", 1]]},
        bodies_from({2: "two"}),
    )
    summary.add(
        {"count": 2, "newest": {"QUEUE/A": [7, 6], "QUEUE/B": [5, None]}, "objects": []}, bodies_from({})
    )
    assert summary.count == 5
    assert summary.newest == {"QUEUE/A": [7, 6], "QUEUE/B": [5, None]}
    assert summary.bodies([2]) == {2: "two"}


def test_only_facts_newer_than_the_object_file_count():
    summary = LogSummary()
    texts = {3: '{"o":"QLOCAL"}', 8: '{"o":"QLOCAL","a":{"DESCR":"new"}}', 9: "image"}
    summary.add(
        {
            "count": 10,
            "newest": {"QUEUE/A": [9, 4], "QUEUE/OLD": [5, None], "QUEUE/GONE": [6, None]},
            "objects": [
                [3, "OBJ", "QUEUE/A", 1],
                [8, "OBJ", "QUEUE/A", None],
                [9, "IMG", "QUEUE/A", None],
                [6, "DEL", "QUEUE/GONE", None],
            ],
        },
        bodies_from(texts),
    )
    base = {
        "QUEUE/A": MQObject("QLOCAL", "A", {}, "QUEUE", lsn=5),
        "QUEUE/OLD": MQObject("QLOCAL", "OLD", {}, "QUEUE", lsn=5),
    }
    rows = {row["key"]: row for row in fate_rows(summary, base)}
    assert rows[None]["read"] == 10
    queue = rows["QUEUE/A"]
    assert queue["max_lsn"] == 9 and queue["last_clr"] is None  # the CLR at 4 is in the file already
    assert queue["last_obj"] == {"t": "IMG", "body": "image"} and queue["img"] == "image"
    assert queue["creations"] == [8, 9] and queue["last_del"] is None
    assert [media["lsn"] for media in queue["object_records"]] == [
        3,
        8,
        9,
    ]  # media tracking sees every record
    assert rows["QUEUE/OLD"]["max_lsn"] is None  # nothing newer than its file
    assert (
        rows["QUEUE/GONE"]["last_obj"] == {"t": "DEL", "body": None} and rows["QUEUE/GONE"]["last_del"] == 6
    )
