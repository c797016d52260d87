"""DISPLAY of objects: every attribute or the ones asked for, objects not found, and WHERE filters."""

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


@pytest.mark.parametrize(
    "command",
    [
        "DISPLAY QLOCAL(NO.SUCH.Q)",
        "DISPLAY QUEUE(NO.SUCH.Q) TYPE(QLOCAL)",
        "DISPLAY QUEUE(NO.SUCH.Q)",
        "DISPLAY CHANNEL(NO.SUCH)",
    ],
)
def test_a_named_object_that_does_not_exist_is_not_found(session, command):
    result = session.execute(command)
    assert not result.ok and result.responses[0].msgid == "AMQ8147E", session.render(result)


def test_a_named_object_of_another_type_is_not_shown(session):
    assert session.execute("DEFINE QALIAS(AN.ALIAS) TARGET(X)").ok
    result = session.execute("DISPLAY QLOCAL(AN.ALIAS)")
    assert not result.ok and result.responses[0].msgid == "AMQ8147E"
    assert session.execute("DISPLAY QUEUE(AN.ALIAS)").ok


def test_display_qmgr_event_shows_the_name_and_the_event_switches_as_runmqsc_lays_them_out(session):
    assert session.render(session.execute("DISPLAY QMGR EVENT")).splitlines() == [
        "AMQ8408I: Display Queue Manager details.",
        "   QMNAME(QM1)                             AUTHOREV(DISABLED)",
        "   CHLEV(DISABLED)                         CMDEV(DISABLED)",
        "   CONFIGEV(DISABLED)                      INHIBTEV(DISABLED)",
        "   LOCALEV(DISABLED)                       LOGGEREV(DISABLED)",
        "   PERFMEV(DISABLED)                       REMOTEEV(DISABLED)",
        "   SSLEV(DISABLED)                         STRSTPEV(ENABLED)",
    ]


def test_display_qmgr_pubsub_shows_the_publish_subscribe_attributes(session):
    assert session.render(session.execute("DISPLAY QMGR PUBSUB")).splitlines() == [
        "AMQ8408I: Display Queue Manager details.",
        "   QMNAME(QM1)                             PARENT( )",
        "   PSMODE(ENABLED)                         PSCLUS(ENABLED)",
        "   PSNPMSG(DISCARD)                        PSNPRES(NORMAL)",
        "   PSRTYCNT(5)                             PSSYNCPT(IFPER)",
        "   TREELIFE(1800)",
    ]


def test_groups_and_single_attributes_add_up_in_display_order(session):
    assert names(session.execute("DISPLAY QMGR CLUSTER CHLEV")) == [
        "QMNAME",
        "CHLEV",
        "CLWLDATA",
        "CLWLEXIT",
        "CLWLLEN",
        "CLWLMRUC",
        "CLWLUSEQ",
        "DEFCLXQ",
        "MONACLS",
        "REPOS",
        "REPOSNL",
        "STATACLS",
    ]
    chinit = names(session.execute("DISPLAY QMGR CHINIT"))
    assert chinit[0] == "QMNAME" and {"CHAD", "CHADEV", "CHADEXIT", "CHLAUTH", "IPADDRV"} <= set(chinit)
    system = names(session.execute("DISPLAY QMGR SYSTEM"))
    assert {"CCSID", "DEADQ", "MAXMSGL", "IMGRCOVQ", "VERSION"} <= set(system) and "PSMODE" not in system
    assert len(names(session.execute("DISPLAY QMGR ALL EVENT"))) == len(
        names(session.execute("DISPLAY QMGR"))
    )


@pytest.mark.parametrize(
    "command", ["DISPLAY CHANNEL(APP.*) TYPE(SVRCONN)", "DIS CHL(APP.*) CHLTYPE(SVRCONN)"]
)
def test_display_channel_type_shows_only_the_channels_of_that_type(session, command):
    session.execute("DEFINE CHANNEL(APP.TO.QM2) CHLTYPE(SDR) CONNAME('host(1414)') XMITQ(QM2)")
    session.execute("DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)")
    shown = [dict(record.attributes) for record in session.execute(command).responses]
    assert [(record["CHANNEL"], record["CHLTYPE"]) for record in shown] == [("APP.SVRCONN", "SVRCONN")]
    every = session.execute("DISPLAY CHANNEL(APP.*) TYPE(ALL)").responses
    assert [dict(record.attributes)["CHANNEL"] for record in every] == ["APP.SVRCONN", "APP.TO.QM2"]
    result = session.execute("DISPLAY CHANNEL(APP.SVRCONN) TYPE(SDR)")
    assert not result.ok and result.responses[0].msgid == "AMQ8147E"


@pytest.mark.parametrize(
    "where",
    [
        "MAXDEPTH CT 5",  # CT is for a list: MQ does not read it as EQ
        "CURDEPTH GT 'abc'",  # an integer is compared with an integer
        "CURDEPTH LK 5*",  # a generic value is for a string
        "DEFPSIST LT NO",  # one of a set of values: EQ or NE only
        "DEFPSIST EQ MAYBE",  # and a value of that set
        "SHARE EQ 1",  # a flag is YES or NO
    ],
)
def test_a_filter_whose_operator_or_value_does_not_fit_its_keyword_is_refused(session, where):
    session.execute("DEFINE QLOCAL(A1) MAXDEPTH(5)")
    result = session.execute(f"DISPLAY QLOCAL(*) WHERE({where})")
    assert not result.ok and not result.syntax_error
    assert [(message.msgid, message.text) for message in result.responses] == [
        ("AMQ8569E", "Error in filter specification.")
    ]


@pytest.mark.parametrize(
    "command, shown",
    [
        ("DISPLAY QLOCAL(A*) WHERE(MAXDEPTH EQ 5)", True),
        ("DISPLAY QLOCAL(A*) WHERE(DEFPSIST NE YES)", True),
        ("DISPLAY QLOCAL(A*) WHERE(SHARE EQ YES)", True),
        ("DISPLAY QLOCAL(A*) WHERE(QUEUE NL 'A*')", False),
        ("DISPLAY QLOCAL(A*) WHERE(QUEUE LK A1)", True),  # an explicit string with LK: itself only
        ("DISPLAY QLOCAL(A*) WHERE(QUEUE EQ 'A*')", False),  # with EQ a trailing * is a character
        ("DISPLAY CHANNEL(SYSTEM.DEF.SENDER) WHERE(CHLTYPE EQ SDR)", True),
        ("DISPLAY CHANNEL(SYSTEM.DEF.SENDER) WHERE(COMPHDR CT NONE)", True),
        ("DISPLAY CHANNEL(SYSTEM.DEF.SENDER) WHERE(COMPHDR EX NONE)", False),
    ],
)
def test_filters_that_fit_their_keyword_select(session, command, shown):
    session.execute("DEFINE QLOCAL(A1) MAXDEPTH(5)")
    result = session.execute(command)
    msgids = [response.msgid for response in result.responses]
    assert msgids == (["AMQ8409I"] if "QLOCAL" in command else ["AMQ8414I"]) if shown else ["AMQ8147E"]


def test_channel_type_filter_names_a_channel_type(session):
    result = session.execute("DISPLAY CHANNEL(*) WHERE(CHLTYPE EQ NONSENSE)")
    assert [message.msgid for message in result.responses] == ["AMQ8569E"]


def test_a_windows_dmpmqcfg_netbios_listener_loads_and_shows_its_transports_attributes(session):
    assert session.execute(
        "DEFINE LISTENER('SYSTEM.DEFAULT.LISTENER.NETBIOS') TRPTYPE(NETBIOS) LOCLNAME(' ') ADAPTER(0) "
        "NTBNAMES(1) SESSIONS(1) COMMANDS(1) CONTROL(MANUAL) DESCR(' ') REPLACE"
    ).ok
    assert names(session.execute("DISPLAY LISTENER(SYSTEM.DEFAULT.LISTENER.NETBIOS)")) == [
        "LISTENER",
        "CONTROL",
        "TRPTYPE",
        "LOCLNAME",
        "ADAPTER",
        "NTBNAMES",
        "SESSIONS",
        "COMMANDS",
        "DESCR",
        "ALTDATE",
        "ALTTIME",
    ]
    assert session.execute("DEFINE LISTENER(L.SPX) TRPTYPE(SPX) SOCKET(5555) BACKLOG(10)").ok
    assert names(session.execute("DISPLAY LISTENER(L.SPX)")) == [
        "LISTENER",
        "CONTROL",
        "TRPTYPE",
        "SOCKET",
        "BACKLOG",
        "DESCR",
        "ALTDATE",
        "ALTTIME",
    ]
