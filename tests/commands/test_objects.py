"""DEFINE, DISPLAY, DELETE and CLEAR of objects: what MQ shows and refuses."""

from __future__ import annotations

import pytest


def names(result) -> list[str]:
    return [name for name, _value in result.responses[0].attributes]


def test_one_named_object_shows_every_attribute_and_a_generic_name_the_summary(session):
    session.execute("DEFINE QLOCAL(Q1)")
    assert "MAXDEPTH" in names(session.execute("DISPLAY QLOCAL(Q1)"))
    assert names(session.execute("DISPLAY QLOCAL(Q*)")) == ["QUEUE", "TYPE"]
    assert names(session.execute("DISPLAY QLOCAL(Q1) MAXDEPTH")) == ["QUEUE", "TYPE", "MAXDEPTH"]
    assert names(session.execute("DISPLAY QLOCAL(Q1) WHERE(MAXDEPTH GT 0)")) == ["QUEUE", "TYPE", "MAXDEPTH"]


def test_display_qmgr_shows_everything_alone_and_only_what_is_asked_for_otherwise(session):
    assert len(names(session.execute("DISPLAY QMGR"))) > 90
    assert names(session.execute("DISPLAY QMGR PSMODE")) == ["QMNAME", "PSMODE"]


def test_namcount_counts_the_names(session):
    session.execute("DEFINE NAMELIST(NL1) NAMES(A, B, C)")
    shown = dict(session.execute("DIS NL(NL1) NAMCOUNT").responses[0].attributes)
    assert shown["NAMCOUNT"] == "3"


@pytest.mark.parametrize("command", ["CLEAR QLOCAL(Q1)", "DELETE QLOCAL(Q1)"])
def test_a_queue_open_by_an_application_cannot_be_cleared_or_deleted(session, command):
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    shown = dict(session.execute("DISPLAY QLOCAL(Q1) IPPROCS OPPROCS").responses[0].attributes)
    assert shown["IPPROCS"] == "1" and shown["OPPROCS"] == "1"
    result = session.execute(command)
    assert not result.ok and result.responses[0].msgid == "AMQ8148E"
    session.execute("LAB CLOSE QUEUE(Q1)")
    assert session.execute(command).ok


@pytest.mark.parametrize("command", ["DELETE QLOCAL(NOT.THERE)", "STOP LISTENER(SYSTEM.DEFAULT.LISTENER.TCP)"])
def test_ignstate_yes_counts_an_object_already_as_asked_as_processed(session, command):
    assert not session.execute(command).ok
    result = session.execute(f"{command} IGNSTATE(YES)")
    assert result.ok and result.responses  # still says what it found


def test_crtmqm_gives_the_queue_manager_its_certificate_label(session):
    shown = dict(session.execute("DISPLAY QMGR CERTLABL").responses[0].attributes)
    assert shown["CERTLABL"] == "ibmwebspheremqqm1"


@pytest.mark.parametrize("command", ["DISPLAY QLOCAL(NO.SUCH.Q)", "DISPLAY QUEUE(NO.SUCH.Q) TYPE(QLOCAL)",
                                     "DISPLAY QUEUE(NO.SUCH.Q)", "DISPLAY CHANNEL(NO.SUCH)"])
def test_a_named_object_that_does_not_exist_is_not_found(session, command):
    result = session.execute(command)
    assert not result.ok and result.responses[0].msgid == "AMQ8147E", session.render(result)


def test_a_named_object_of_another_type_is_not_shown(session):
    assert session.execute("DEFINE QALIAS(AN.ALIAS) TARGET(X)").ok
    result = session.execute("DISPLAY QLOCAL(AN.ALIAS)")
    assert not result.ok and result.responses[0].msgid == "AMQ8147E"
    assert session.execute("DISPLAY QUEUE(AN.ALIAS)").ok
