"""LAB TIMELINE through the shell: the log's picture fits the terminal, and its SVG is a valid document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mqsh.lab.timeline_axis import Lane, Mark, Span
from mqsh.lab.timeline_draw import FILL, Picture, text_lines
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
    run(
        new,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q) COUNT(1500)",
        "LAB GET QUEUE(Q) COUNT(1400)",
        "rcdmqimg -m QA -t ql Q",
        "LAB PUT QUEUE(Q) COUNT(1500)",
        "SET LOG ARCHIVED('S0000000.LOG')",
        "LAB PUT QUEUE(Q) COUNT(10) SYNCPOINT",
        "LAB CRASH",
        "strmqm QA",
    )
    yield new
    new.close()


def test_the_terminal_picture_fits_the_width_and_shows_states_and_marks(many_extents, monkeypatch):
    monkeypatch.setenv("COLUMNS", "72")
    lines = run(many_extents, "LAB TIMELINE")
    assert lines[0].startswith("Log of queue manager QA: LSN 0 - ")
    assert all(len(line) <= 72 for line in lines), max(lines, key=len)
    bar = next(line for line in lines if line.startswith("┃"))
    assert (
        bar.startswith("┃" + FILL["archived"])
        and FILL["inactive"] in bar
        and bar.endswith(FILL["active"] + "┃")
    )
    marks = [line.split() for line in lines if line.startswith("   ") and "LSN" in line]
    kinds = {parts[0] for parts in marks}
    assert {"C", "I", "X", "R", "▼", "▽"} <= kinds
    assert any("a crash (LAB CRASH) at" in line for line in lines)
    assert any("media image of Q" in line for line in lines)


def test_the_svg_parses_and_has_an_extent_per_file_and_a_line_per_mark(many_extents, tmp_path):
    target = tmp_path / "qa.svg"
    said = run(many_extents, f"LAB TIMELINE SVG('{target}')")
    assert (
        len(said) == 1
        and said[0].startswith("Log of queue manager QA: LSN 0 - ")
        and said[0].endswith(f": drawn as SVG in {target}.")
    )
    root = ET.parse(target).getroot()
    assert root.tag == SVG + "svg"
    extents = root.findall(f".//{SVG}rect")
    files = sorted((many_extents.installation.paths("QA").log_dir).glob("S*.LOG"))
    assert {rect.get("data-extent") for rect in extents} == {path.name for path in files}
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
    run(
        session,
        "LAB PUT QUEUE(SQ1) COUNT(3)",
        "BACKUP CFSTRUCT(APP1)",
        "LAB PUT QUEUE(SQ1) COUNT(2)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1)",
    )
    lines = run(session, "LAB TIMELINE CFSTRUCT(APP1)")
    assert lines[0].startswith("Structure APP1 of group QSGA: the members' logs, ")
    assert "QM1:" in lines and "QM2:" in lines
    assert any(line.startswith("   B  ") and "BACKUP CFSTRUCT(APP1), LRSN " in line for line in lines)
    assert sum(1 for line in lines if line.startswith("   R  ")) == 2


def test_a_structures_failures_and_recoveries_are_drawn_on_every_members_lane(
    shared_queue_group, tmp_path, monkeypatch
):
    """Each failure (LAB FAIL CFSTRUCT) on every lane at its moment, each RECOVER CFSTRUCT where it
    read to in each member's log, a purge as a purge: in the terminal and in SVG."""
    monkeypatch.setenv("COLUMNS", "160")
    session = shared_queue_group
    run(
        session,
        "LAB CLOCK SET('2026-05-01 10:00:00')",
        "LAB PUT QUEUE(SQ1) COUNT(3)",
        "LAB CLOCK ADVANCE(1M)",
        "LAB FAIL CFSTRUCT(APP1)",
        "LAB CLOCK ADVANCE(1M)",
        "RECOVER CFSTRUCT(APP1)",
        "LAB PUT QUEUE(SQ1) COUNT(2)",
        "LAB CLOCK ADVANCE(1M)",
        "LAB FAIL CFSTRUCT(APP1)",
        "LAB CLOCK ADVANCE(1M)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
    )
    lines = run(session, "LAB TIMELINE CFSTRUCT(APP1)")
    failures = [line for line in lines if line.startswith("   X  ")]
    assert len(failures) == 4  # two failures, on each of the two members' lanes
    assert sum("2026-05-01 10:01:00" in line for line in failures) == 2
    assert all("CFSTRUCT(APP1) failed: every connected member told" in line for line in failures)
    assert any("3 persistent messages held" in line for line in failures)
    recoveries = [line for line in lines if line.startswith("   R  ")]
    assert len(recoveries) == 2 and all("2026-05-01 10:02:00" in line for line in recoveries)
    assert all("RECOVER CFSTRUCT(APP1) by QM1 read to here" in line for line in recoveries)
    purges = [line for line in lines if line.startswith("   P  ")]
    assert len(purges) == 2 and all("10:04:00" in line and "TYPE(PURGE) by QM1" in line for line in purges)
    target = tmp_path / "app1.svg"
    run(session, f"LAB TIMELINE CFSTRUCT(APP1) SVG('{target}')")
    classes = [line.get("class") for line in ET.parse(target).getroot().findall(f".//{SVG}line")]
    assert classes.count("mark failure") == 4 and classes.count("mark recovery") == 2
    assert classes.count("mark purge") == 2


def test_an_unknown_queue_manager_or_structure_is_refused(session):
    assert run(session, "LAB TIMELINE QMGR(NOPE)") == ["AMQ8118E: IBM MQ queue manager does not exist."]
    assert run(session, "LAB TIMELINE CFSTRUCT(APP1)") == [
        "mqsh: queue manager QM1 is not in a queue sharing group."
    ]


def test_short_extents_keep_a_few_columns_and_marks_land_inside_their_extent():
    picture = Picture(
        "t",
        [
            Lane(
                "L",
                [
                    Span("S0000000.LOG", 0, 999, "inactive"),
                    Span("S0000001.LOG", 1000, 1000, "missing"),
                    Span("S0000002.LOG", 1001, 1010, "active"),
                ],
                [Mark(1005, "failure", "x"), Mark(0, "checkpoint", "c")],
            )
        ],
    )
    lines = text_lines(picture, 40)
    bar = next(line for line in lines if line.startswith("┃"))
    assert len(bar) == 40 and bar.count(FILL["missing"]) == 3 and bar.count(FILL["active"]) >= 3
    marks = next(line for line in lines if "X" in line and "LSN" not in line)
    assert marks.index("X") > bar.rindex(FILL["missing"]) and marks[1] == "C"


def test_a_checkpoint_with_units_of_work_open_says_so(session):
    run(
        session, "DEFINE QLOCAL(Q) DEFPSIST(YES)", "LAB PUT QUEUE(Q) SYNCPOINT", "endmqm -i QM1"
    )  # its checkpoint
    lines = run(session, "LAB TIMELINE")
    assert any(
        line.startswith("   C  ") and line.endswith("checkpoint: 1 unit of work open") for line in lines
    )


def test_the_axis_runs_along_the_simulated_clock_with_the_copies_lab_backup_kept(data_dir, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    new = Session(data_dir)
    run(new, "LAB CLOCK SET('2026-03-03 09:00:00')", "crtmqm -ll QT", "strmqm QT")
    new.current_qmgr = "QT"
    run(
        new,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q) COUNT(300)",
        "LAB CLOCK ADVANCE(1H)",
        "endmqm QT",
        "LAB BACKUP QMGR(QT) TO(MON)",
        "strmqm QT",
        "LAB CLOCK ADVANCE(2D)",
        "LAB PUT QUEUE(Q) COUNT(300)",
        "LAB CLOCK ADVANCE(10M)",
        "LAB CRASH",
        "LAB CLOCK ADVANCE(5M)",
        "strmqm QT",
    )
    lines = run(new, "LAB TIMELINE")
    assert lines[0].endswith(", 2026-03-03 09:00:00 to 2026-03-05 10:15:00")
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    bar = next(line for line in lines if line.startswith("┃"))
    assert "+2d" in bar and bar.count("─") > 5  # two days with no record written
    times = next(line for line in lines[lines.index(bar) + 1 :] if ":" in line)  # under the marks' rows
    assert times.startswith(" 03-03 09:00") and "10:00" in times and "03-05 10:00" in times
    copy = next(line for line in lines if line.startswith("   K  "))
    assert copy.startswith("   K  2026-03-03 10:00:00  LSN ") and copy.endswith(
        "LAB BACKUP TO(MON): its log to LSN " + copy.split()[4]
    )
    failure = next(line for line in lines if line.startswith("   X  "))
    assert failure.startswith("   X  2026-03-05 10:10:00  LSN ")
    rows = lines[lines.index(bar) + 1 : lines.index(times)]
    column = {symbol: next(row.index(symbol) for row in rows if symbol in row) for symbol in "KX"}
    assert column["K"] < column["X"] < max(row.rindex("R") for row in rows if "R" in row)
    new.close()


def test_a_corrupt_extent_still_draws_the_log_up_to_it(data_dir):
    new = Session(data_dir)
    run(new, "crtmqm -ll -lf 1 QK", "strmqm QK")
    new.current_qmgr = "QK"
    run(
        new,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q) COUNT(60)",
        "endmqm QK",
        "LAB DAMAGE EXTENT(S0000001.LOG) HOW(CORRUPT)",
    )
    lines = run(new, "LAB TIMELINE")
    assert lines[0].startswith("Log of queue manager QK: LSN 0 - ")
    assert any(line.startswith("   C  ") for line in lines)  # the checkpoints before the damage
    new.close()


def test_marks_a_second_apart_on_a_long_log_stack_instead_of_hiding_each_other(data_dir, monkeypatch):
    """A crash and its restart a second later lie side by side on a long log, as do the restart point
    and the checkpoint at it: every mark listed below shows in the rows under the bar, stacked where
    two fall in one column, the earlier above."""
    monkeypatch.setenv("COLUMNS", "60")
    new = Session(data_dir)
    run(new, "LAB CLOCK SET('2026-03-03 09:00:00')", "crtmqm -ll QS", "strmqm QS")
    new.current_qmgr = "QS"
    run(
        new,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q) COUNT(3000)",
        "LAB CRASH",
        "LAB CLOCK ADVANCE(1S)",
        "strmqm QS",
    )
    lines = run(new, "LAB TIMELINE")
    bar = next(line for line in lines if line.startswith("┃"))
    times = next(line for line in lines[lines.index(bar) + 1 :] if ":" in line)
    rows = lines[lines.index(bar) + 1 : lines.index(times)]
    listed = [line.split()[0] for line in lines if line.startswith("   ") and line[3] != " "]
    shown = [symbol for row in rows for symbol in row if symbol != " "]
    assert len(rows) >= 2 and sorted(shown) == sorted(listed), (rows, listed)
    assert {"X", "R"} <= set(shown)
    assert any(line.startswith("   R  2026-03-03 09:00:01") for line in lines)
    new.close()


def test_a_recover_that_failed_the_structure_for_its_data_sets_is_drawn_as_a_failure_and_a_recovery(
    shared_queue_group, tmp_path, monkeypatch
):
    """A structure still allocated with a data set FAILED: RECOVER CFSTRUCT fails the structure first
    (IBM MQ docs: RECOVER CFSTRUCT), a failure on every lane at that moment naming the data set, then
    the recovery where it read to: in the terminal and in SVG."""
    monkeypatch.setenv("COLUMNS", "160")
    session = shared_queue_group
    run(
        session,
        "LAB CLOCK SET('2026-05-01 10:00:00')",
        "LAB PUT QUEUE(SQ1) COUNT(3) SIZE(70000)",  # offloaded: SMDS(QM1) holds their data
        "LAB CLOCK ADVANCE(1M)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB CLOCK ADVANCE(1M)",
        "RECOVER CFSTRUCT(APP1)",
    )
    lines = run(session, "LAB TIMELINE CFSTRUCT(APP1)")
    failures = [line for line in lines if line.startswith("   X  ")]
    assert len(failures) == 2 and all("2026-05-01 10:02:00" in line for line in failures)
    assert all(
        "CFSTRUCT(APP1) failed by RECOVER CFSTRUCT for its data sets QM1, 3 persistent messages held" in line
        for line in failures
    )
    recoveries = [line for line in lines if line.startswith("   R  ")]
    assert len(recoveries) == 2 and all("2026-05-01 10:02:00" in line for line in recoveries)
    target = tmp_path / "app1.svg"
    run(session, f"LAB TIMELINE CFSTRUCT(APP1) SVG('{target}')")
    classes = [line.get("class") for line in ET.parse(target).getroot().findall(f".//{SVG}line")]
    assert classes.count("mark failure") == 2 and classes.count("mark recovery") == 2
