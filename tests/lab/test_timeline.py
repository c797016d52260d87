"""LAB TIMELINE through the shell: the log's picture fits the terminal, and its SVG is a valid document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mqsh.lab.timeline_draw import FILL, Lane, Mark, Picture, Span, text_lines
from mqsh.shell.session import Session
from tests.recovery.helpers import run

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def many_extents(data_dir):
    """QA on a linear log of small extents, archived log management; the first extent archived, a
    unit of work in flight at a crash, restarted."""
    new = Session(data_dir)
    run(new, "crtmqm -ll -lf 16 --log-management archive QA", "strmqm QA")
    new.current_qmgr = "QA"
    run(new, "DEFINE QLOCAL(Q) DEFPSIST(YES)", "LAB PUT QUEUE(Q) COUNT(1500)", "LAB GET QUEUE(Q) COUNT(1400)",
        "rcdmqimg -m QA -t ql Q", "LAB PUT QUEUE(Q) COUNT(1500)", "SET LOG ARCHIVED('S0000000.LOG')",
        "LAB PUT QUEUE(Q) COUNT(10) SYNCPOINT", "LAB CRASH", "strmqm QA")
    yield new
    new.close()


def test_the_terminal_picture_fits_the_width_and_shows_states_and_marks(many_extents, monkeypatch):
    monkeypatch.setenv("COLUMNS", "72")
    lines = run(many_extents, "LAB TIMELINE")
    assert lines[0].startswith("Log of queue manager QA: LSN 0 - ")
    assert all(len(line) <= 72 for line in lines), max(lines, key=len)
    bar = next(line for line in lines if line.startswith("┃"))
    assert bar.startswith("┃" + FILL["archived"]) and FILL["inactive"] in bar and bar.endswith(FILL["active"] + "┃")
    marks = [line.split() for line in lines if line.startswith("   ") and "LSN" in line]
    kinds = {parts[0] for parts in marks}
    assert {"C", "I", "X", "R", "▼", "▽"} <= kinds
    assert any("a crash (LAB CRASH) at" in line for line in lines)
    assert any("media image of Q" in line for line in lines)


def test_the_svg_parses_and_has_an_extent_per_file_and_a_line_per_mark(many_extents, tmp_path):
    target = tmp_path / "qa.svg"
    assert run(many_extents, f"LAB TIMELINE SVG('{target}')") == \
        [f"{run(many_extents, 'LAB TIMELINE')[0]}: drawn as SVG in {target}."]
    root = ET.parse(target).getroot()
    assert root.tag == SVG + "svg"
    extents = root.findall(f".//{SVG}rect")
    files = sorted((many_extents.installation.paths("QA").log_dir).glob("S*.LOG"))
    assert len(extents) == len(files)
    assert {rect.get("class") for rect in extents} == {"extent archived", "extent inactive", "extent active"}
    classes = [line.get("class") for line in root.findall(f".//{SVG}line")]
    assert "mark failure" in classes and "mark recovery" in classes and "mark checkpoint" in classes


def test_a_missing_extent_is_drawn_missing(many_extents):
    run(many_extents, "endmqm QA")
    (many_extents.installation.paths("QA").log_dir / "S0000002.LOG").unlink()
    lines = run(many_extents, "LAB TIMELINE QMGR(QA)")
    bar = next(line for line in lines if line.startswith("┃"))
    assert FILL["missing"] in bar


def test_a_structure_has_a_lane_per_member_with_its_backup_and_recovery(shared_queue_group):
    session = shared_queue_group
    run(session, "LAB PUT QUEUE(SQ1) COUNT(3)", "BACKUP CFSTRUCT(APP1)", "LAB PUT QUEUE(SQ1) COUNT(2)",
        "LAB FAIL CFSTRUCT(APP1)", "RECOVER CFSTRUCT(APP1)")
    lines = run(session, "LAB TIMELINE CFSTRUCT(APP1)")
    assert lines[0] == "Structure APP1 of group QSGA: the members' logs"
    assert "QM1:" in lines and "QM2:" in lines
    assert any(line.startswith("   B  LSN") and "BACKUP CFSTRUCT(APP1) at " in line for line in lines)
    assert sum(1 for line in lines if line.startswith("   R  LSN")) == 2


def test_an_unknown_queue_manager_or_structure_is_refused(session):
    assert run(session, "LAB TIMELINE QMGR(NOPE)") == ["AMQ8118E: IBM MQ queue manager does not exist."]
    assert run(session, "LAB TIMELINE CFSTRUCT(APP1)") == ["mqsh: queue manager QM1 is not in a queue sharing group."]


def test_short_extents_keep_a_few_columns_and_marks_land_inside_their_extent():
    picture = Picture("t", [Lane("L", [Span("S0000000.LOG", 0, 999, "inactive"), Span("S0000001.LOG", 1000, 1000,
                                                                                      "missing"),
                                       Span("S0000002.LOG", 1001, 1010, "active")],
                                  [Mark(1005, "failure", "x"), Mark(0, "checkpoint", "c")])])
    lines = text_lines(picture, 40)
    bar = next(line for line in lines if line.startswith("┃"))
    assert len(bar) == 40 and bar.count(FILL["missing"]) == 3 and bar.count(FILL["active"]) >= 3
    marks = next(line for line in lines if "X" in line and "LSN" not in line)
    assert marks.index("X") > bar.rindex(FILL["missing"]) and marks[1] == "C"


def test_a_checkpoint_with_units_of_work_open_says_so(session):
    run(session, "DEFINE QLOCAL(Q) DEFPSIST(YES)", "LAB PUT QUEUE(Q) SYNCPOINT", "endmqm -i QM1")  # its checkpoint
    lines = run(session, "LAB TIMELINE")
    assert any(line.startswith("   C  LSN") and line.endswith("checkpoint: 1 unit of work open") for line in lines)
