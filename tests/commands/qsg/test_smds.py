"""ALTER and DISPLAY SMDS: a member's overrides for its shared message data set of a structure."""

from __future__ import annotations

import pytest

from tests.commands.conftest import run


@pytest.fixture
def structures(group):
    """The group's APP1 offloads to data sets, APP2 to Db2."""
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')",
        "DEFINE CFSTRUCT(APP2) CFLEVEL(5) OFFLOAD(DB2)",
    ):
        assert group.execute(command).ok, command
    return group


def details(lines: list[str]) -> list[list[str]]:
    """The keyword lines of each CSQM201I message."""
    found, current = [], None
    for line in lines:
        if line.startswith("CSQM201I"):
            current = []
        elif line.startswith("END "):
            found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def test_every_member_has_an_entry_showing_default_until_overridden(structures):
    lines = run(structures, "DISPLAY SMDS(*) CFSTRUCT(APP1)")
    assert lines[1] == "CSQM293I -QM1 CSQMDRTS 2 SMDS FOUND MATCHING REQUEST CRITERIA"
    assert details(lines) == [
        ["SMDS(QM1)", "CFSTRUCT(APP1)", "DSBUFS(DEFAULT)", "DSEXPAND(DEFAULT)"],
        ["SMDS(QM2)", "CFSTRUCT(APP1)", "DSBUFS(DEFAULT)", "DSEXPAND(DEFAULT)"],
    ]


def test_an_override_is_one_members_and_seen_from_every_member(structures):
    assert run(structures, "ALTER SMDS(QM2) CFSTRUCT(APP1) DSBUFS(500)") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMASMD ' ALTER SMDS' NORMAL COMPLETION",
    ]
    structures.current_qmgr = "QM2"
    assert details(run(structures, "DISPLAY SMDS(*) CFSTRUCT(APP1) DSBUFS")) == [
        ["SMDS(QM1)", "CFSTRUCT(APP1)", "DSBUFS(DEFAULT)"],
        ["SMDS(QM2)", "CFSTRUCT(APP1)", "DSBUFS(500)"],
    ]
    run(structures, "ALTER SMDS(QM2) CFSTRUCT(APP1) DSEXPAND(NO)")  # keeps DSBUFS
    assert details(run(structures, "DISPLAY SMDS(QM2) CFSTRUCT(APP1)")) == [
        ["SMDS(QM2)", "CFSTRUCT(APP1)", "DSBUFS(500)", "DSEXPAND(NO)"]
    ]


def test_star_alters_every_members_entry(structures):
    run(structures, "ALTER SMDS(*) CFSTRUCT(APP1) DSEXPAND(NO)")
    assert [entry[-1] for entry in details(run(structures, "DISPLAY SMDS(*) CFSTRUCT(APP1)"))] == [
        "DSEXPAND(NO)",
        "DSEXPAND(NO)",
    ]


@pytest.mark.parametrize(
    "command, message",
    [
        ("ALTER SMDS(QM1) CFSTRUCT(NOPE) DSBUFS(5)", "CSQM094I -QM1 CSQMASMD CFSTRUCT(NOPE) WAS NOT FOUND"),
        ("ALTER SMDS(QM1) CFSTRUCT(APP2) DSBUFS(5)", "CSQM092I -QM1 CSQMASMD CFSTRUCT(APP2) VALUE INVALID"),
        ("ALTER SMDS(QM9) CFSTRUCT(APP1) DSBUFS(5)", "CSQM094I -QM1 CSQMASMD SMDS(QM9) WAS NOT FOUND"),
        ("DISPLAY SMDS(QM9) CFSTRUCT(APP1)", "CSQM094I -QM1 CSQMDRTS SMDS(QM9) WAS NOT FOUND"),
    ],
)
def test_what_has_no_data_set_ends_abnormally(structures, command, message):
    result = structures.execute(command)
    assert not result.ok
    assert structures.render(result).splitlines()[1] == message


def test_only_a_star_stands_for_every_member_outside_display(structures):
    assert structures.execute("ALTER SMDS(Q*) CFSTRUCT(APP1) DSBUFS(5)").syntax_error
