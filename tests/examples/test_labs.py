"""Every lab in examples/ runs and prints exactly its expected report."""

from __future__ import annotations

import pytest

from tests.support import REPO, run_mqsh

LABS = sorted((REPO / "examples").glob("*.mqsc"))


@pytest.mark.parametrize("lab", LABS, ids=[lab.stem for lab in LABS])
def test_lab_report(lab, data_dir):
    done = run_mqsh("-f", str(lab), data_dir=data_dir)
    expected = lab.with_suffix(".out").read_text()
    assert done.stdout == expected
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
