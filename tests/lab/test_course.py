"""mqsh lab: the labs listed in order, and each run in a scratch data directory against its expected report."""

from __future__ import annotations

import io
import shutil

from mqsh.cli import lab_report
from mqsh.lab import course
from tests.support import REPO, run_mqsh

EXAMPLES = sorted(REPO.glob("examples/*.mqsc"))


def test_the_list_names_every_lab_in_order_with_its_subject_and_title(data_dir):
    done = run_mqsh("lab", data_dir=data_dir)
    assert done.returncode == 0
    rows = [line for line in done.stdout.splitlines()[1:] if line[:2].isdigit() and "labs." not in line]
    assert [row.split()[0] for row in rows] == [path.name[:2] for path in EXAMPLES]
    assert any("queue-sharing groups" in row and "RECOVER CFSTRUCT TYPE(PURGE)" in row for row in rows)
    # Labs past a full decade keep their subject: 45-47 are queue-sharing group labs, 48 a cluster's.
    subjects = {row.split()[0]: row for row in rows}
    assert all("queue-sharing groups" in subjects[number] for number in ("45", "46", "47"))
    assert "clusters and disaster recovery" in subjects["48"]
    # A title that runs on to the next comment line is shown whole.
    assert not any(row.endswith(" of") for row in rows)
    assert f"{len(EXAMPLES)} labs." in done.stdout


def test_a_lab_run_prints_its_report_and_says_it_matched(data_dir):
    done = run_mqsh("lab", "run", "0", data_dir=data_dir)
    assert done.returncode == 0, done.stdout[-500:]
    assert done.stdout.startswith((REPO / "examples/00-first-steps.out").read_text())
    assert done.stdout.endswith("Lab 00 (first steps) matched its expected report.\n")
    assert not (data_dir / "qmgrs").exists()  # the lab ran in a scratch directory of its own


def test_a_report_that_differs_exits_1_with_the_first_difference(tmp_path):
    for suffix in (".mqsc", ".out"):
        shutil.copy(REPO / f"examples/00-first-steps{suffix}", tmp_path / f"00-first-steps{suffix}")
    expected = tmp_path / "00-first-steps.out"
    expected.write_text(
        expected.read_text().replace("AMQ8006I: IBM MQ queue created.", "AMQ8006I: changed.", 1)
    )
    out = io.StringIO()
    assert course.run(course.labs(tmp_path), ["00"], lab_report, out) == course.DIFFERED
    text = out.getvalue()
    assert "Lab 00 (first steps) differs from its expected report." in text
    assert "-AMQ8006I: changed." in text and "+AMQ8006I: IBM MQ queue created." in text


def test_an_unknown_lab_or_word_is_refused_with_36(data_dir):
    unknown = run_mqsh("lab", "run", "99", data_dir=data_dir)
    assert unknown.returncode == 36 and "no lab 99" in unknown.stdout
    wrong = run_mqsh("lab", "start", data_dir=data_dir)
    assert wrong.returncode == 36 and wrong.stdout.startswith("usage: mqsh lab")
