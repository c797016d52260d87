"""The z/OS commands of structures and shared message data sets: every valid form, and what is not."""

from __future__ import annotations

import pytest

from mqsh.language.catalogue import load
from mqsh.language.validate import MqscSyntaxError, parse_command

CATALOGUE = load()


@pytest.mark.parametrize(
    "text",
    [
        "DISPLAY CFSTATUS(APP1)",
        "DISPLAY CFSTATUS(APP*) TYPE(SUMMARY)",
        "DISPLAY CFSTATUS(*) TYPE(CONNECT)",
        "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)",
        "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)",
        "DISPLAY CFSTATUS(*) TYPE(SMDS) SMDS(*) CMDSCOPE(*)",
        "DISPLAY CFSTATUS(*) WHERE(STATUS EQ FAILED)",
        "DISPLAY QLOCAL(SQ) CFSTRUCT",
        "DISPLAY QUEUE(SQ) CFSTRUCT QSGDISP(SHARED)",
        "DISPLAY QMODEL(*) CFSTRUCT",
        "DISPLAY QUEUE(*) WHERE(CFSTRUCT EQ APP1)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)",
        "RESET SMDS(*) CFSTRUCT(APP1) ACCESS(DISABLED)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)",
        "START SMDSCONN(QM1) CFSTRUCT(APP1)",
        "START SMDSCONN(*) CFSTRUCT(*) CMDSCOPE(*)",
        "STOP SMDSCONN(QM2) CFSTRUCT(APP1) CMDSCOPE(QM2)",
        "DISPLAY SMDSCONN(*) CFSTRUCT(*)",
        "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1) WHERE(STATUS EQ OPEN)",
        "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP*) AVAIL STATUS",
        "DISPLAY USAGE TYPE(SMDS)",
        "DISPLAY USAGE TYPE(SMDS) CFSTRUCT(APP1)",
        "DISPLAY USAGE TYPE(ALL) CFSTRUCT(*)",
        "RESET CFSTRUCT(APP1) ACTION(FAIL)",
        "ALTER SMDS(QM1) CFSTRUCT(APP1) DSBUFS(DEFAULT)",
        "RECOVER CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        "BACKUP CFSTRUCT(APP1) EXCLINT(30)",
        "BACKUP CFSTRUCT(APP1) EXCLINT(600)",
        "BACKUP CFSTRUCT(*)",
        "BACKUP CFSTRUCT(CSQ*)",
    ],
)
def test_valid_forms(text):
    parse_command(text, CATALOGUE)


@pytest.mark.parametrize(
    "text",
    [
        "RESET SMDS(QM1) CFSTRUCT(APP1)",  # neither ACCESS nor STATUS
        "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED) STATUS(FAILED)",  # both
        "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(SUSPENDED)",  # only the queue manager suspends access
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(ACTIVE)",
        "RESET SMDS(QM1) ACCESS(ENABLED)",
        "RESET CFSTRUCT(APP1) ACTION(RECOVER)",
        "START SMDSCONN(QM1)",
        "STOP SMDSCONN(QM1) CFSTRUCT(APP1) AVAIL(STOPPED)",
        "DISPLAY CFSTATUS(APP1) TYPE(USAGE)",
        "DISPLAY USAGE TYPE(QUEUE)",
        "BACKUP CFSTRUCT(APP1) EXCLINT(29)",
        "BACKUP CFSTRUCT(APP1) EXCLINT(601)",
        "BACKUP CFSTRUCT(APP1,APP2)",
        "RECOVER CFSTRUCT(APP1,APPLICATION12)",  # a name longer than 12
    ],
)
def test_invalid_forms(text):
    with pytest.raises(MqscSyntaxError):
        parse_command(text, CATALOGUE)


def test_recover_takes_a_list_of_structures():
    command = parse_command("RECOVER CFSTRUCT(APP1,APP2, APP3)", CATALOGUE)
    assert (command.name, command.names) == ("APP1", ["APP1", "APP2", "APP3"])
    assert parse_command("RECOVER CFSTRUCT(APP1)", CATALOGUE).names == ["APP1"]
