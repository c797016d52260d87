"""When Enter runs the input: once no command waits for a continuation line."""

from __future__ import annotations

import pytest

from mqsh.shell.keys import is_complete


@pytest.mark.parametrize(
    "text, complete",
    [
        ("", True),
        ("DEFINE QLOCAL(Q1)", True),
        ("DEFINE QLOCAL(Q1) +", False),
        ("DEFINE QLOCAL(Q1) -", False),
        ("DEFINE QLOCAL(Q1) +   ", False),
        ("DEFINE QLOCAL(Q1) +\n  MAXDEPTH(5)", True),
        ("DEFINE QLOCAL(Q1) +\n* a comment", False),
        ("DEFINE QLOCAL(Q1) +\n", False),
        ("DEFINE QLOCAL(Q1) +\n;", True),
        ("DEFINE QLOCAL(Q1) ;", True),
        ("* just a comment", True),
        ("DEFINE QLOCAL(Q1)\nDEFINE QLOCAL(Q2) +", False),
    ],
)
def test_is_complete(text, complete):
    assert is_complete(text) is complete
