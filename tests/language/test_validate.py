"""Validation against the catalogue: synonyms, flags, repeats, unknown words."""

from __future__ import annotations

import pytest

from mqsh.language.catalogue import load
from mqsh.language.validate import MqscSyntaxError, parse_command


def check(text):
    return parse_command(text, load())


def test_synonyms_resolve():
    command = check("DEF QL(A) MAXDEPTH(10) NOSHARE")
    assert (command.verb, command.target, command.name) == ("DEFINE", "QLOCAL", "A")
    assert command.params == {"MAXDEPTH": 10, "SHARE": False}


@pytest.mark.parametrize(
    "text, segment",
    [
        ("DEFI QL(A)", "DEFI"),
        ("DEFINE QL(A) REPLACE NOREPLACE", "DEFINE QL(A) REPLACE NOREPLACE"),
        ("DEFINE QL(A) MAXDEPTH(1) MAXDEPTH(2)", "DEFINE QL(A) MAXDEPTH(1) MAXDEPTH(2)"),
        ("DEFINE QL(A) NOSUCH(1)", "DEFINE QL(A) NOSUCH"),
        ("DEFINE QL(A) MAXDEPTH(x)", "DEFINE QL(A) MAXDEPTH(x)"),
    ],
)
def test_errors_quote_the_segment_up_to_the_fault(text, segment):
    with pytest.raises(MqscSyntaxError) as error:
        check(text)
    assert error.value.segment == segment


def test_display_selectors_and_all():
    command = check("dis ql(*) maxdepth descr all")
    assert command.selectors == ["MAXDEPTH", "DESCR"] and command.flag("ALL")


# ------------------------------------------------------------------ names and CHLTYPE position
@pytest.mark.parametrize(
    "text",
    [
        "DEFINE QLOCAL(APP#Q)",
        "DEFINE QLOCAL('APP Q')",
        "DEFINE CHANNEL(TO-QM2) CHLTYPE(SDR)",
        "DELETE QLOCAL(APP.*)",
    ],
)
def test_object_names_take_only_mq_characters(text):
    with pytest.raises(MqscSyntaxError) as error:
        parse_command(text, load())
    assert "character" in error.value.reason


@pytest.mark.parametrize(
    "text",
    [
        "DEFINE QLOCAL('app/queue_1%')",
        "DISPLAY QLOCAL(APP.*)",
        "DISPLAY QLOCAL(*)",
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('nobody')",
    ],
)
def test_names_mq_allows(text):
    parse_command(text, load())


def test_chltype_must_follow_the_channel_name_on_define_and_alter():
    for text in (
        "DEFINE CHANNEL(C1) TRPTYPE(TCP) CHLTYPE(SDR) CONNAME('h') XMITQ(X)",
        "ALTER CHANNEL(C1) DESCR('x') CHLTYPE(SVRCONN)",
    ):
        with pytest.raises(MqscSyntaxError) as error:
            parse_command(text, load())
        assert "CHLTYPE" in error.value.reason
    parse_command("DEFINE CHANNEL(C1) CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('h') XMITQ(X)", load())
    parse_command("DISPLAY CHANNEL(*) TRPTYPE CHLTYPE(SDR)", load())  # a filter, anywhere


def test_define_sub_needs_its_name_though_other_verbs_find_it_by_subid():
    from mqsh.language import catalogue
    from mqsh.language.validate import MqscSyntaxError, parse_command

    loaded = catalogue.load()
    for text in ("DEFINE SUB PUBACCT(X)", "DEF SUB TOPICSTR('a')", "DEFINE SUB('') TOPICSTR('a')"):
        with pytest.raises(MqscSyntaxError):
            parse_command(text, loaded)
    assert parse_command("DELETE SUB SUBID(414D5120)", loaded).name is None


# ------------------------------------------------------------------ bad names (issue 17)
@pytest.mark.parametrize(
    "text", ["DEFINE SUB TOPICSTR('a')", "DEF SUB PUBACCT(X)", "DEFINE SUB('') TOPICSTR('a')"]
)
def test_define_sub_needs_the_subscription_name(text):
    with pytest.raises(MqscSyntaxError) as error:
        check(text)
    assert "name is required" in error.value.reason


@pytest.mark.parametrize("text", ["DISPLAY SUB SUBID(ABC)", "DELETE SUB SUBID(ABC)", "REFRESH SECURITY"])
def test_other_verbs_may_still_leave_an_optional_name_out(text):
    assert check(text).name is None


@pytest.mark.parametrize(
    "text",
    [
        "LAB DAMAGE SUB('')",
        "LAB DAMAGE QUEUE(' ')",
        "LAB DAMAGE TOPIC('a b')",
        "LAB DAMAGE CHANNEL('')",
        "LAB CRASH QMGR('')",
        "LAB USE QMGR('Q M')",
        "LAB PUT QUEUE('')",
        "LAB OPEN QUEUE('Q#1')",
        "LAB LOAD QUEUE('') RECORDS(5)",
    ],
)
def test_a_lab_control_names_its_object_with_mq_characters(text):
    with pytest.raises(MqscSyntaxError) as error:
        check(text)
    assert "is not an object name" in error.value.reason


@pytest.mark.parametrize(
    "text",
    [
        "LAB DAMAGE SUB('app/sub.1%')",
        "LAB DAMAGE TOPIC(FZ.T1) HOW(DELETE)",
        "LAB CRASH",
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(Q1) COUNT(3)",
    ],
)
def test_lab_controls_with_mq_names(text):
    check(text)


@pytest.mark.parametrize("value", ["5_000", "٣", "𝟘", "1e3", "0x10"])
def test_an_integer_is_written_with_the_digits_0_to_9(value):
    with pytest.raises(MqscSyntaxError) as error:
        check(f"DEFINE QLOCAL(A) MAXDEPTH({value})")
    assert "is not a number" in error.value.reason


@pytest.mark.parametrize("value", ["9" * 20, "9" * 5000, "-" + "9" * 30])
def test_an_integer_longer_than_64_bits_is_out_of_range(value):
    with pytest.raises(MqscSyntaxError) as error:
        check(f"DEFINE QLOCAL(A) MAXDEPTH({value})")
    assert "is out of range" in error.value.reason


@pytest.mark.parametrize("value, number", [("5", 5), ("+5", 5), ("0000000000000000000000007", 7)])
def test_integers_mq_reads(value, number):
    assert check(f"DEFINE QLOCAL(A) MAXDEPTH({value})").params["MAXDEPTH"] == number


def test_display_qmgr_takes_its_attribute_groups_as_bare_words():
    command = parse_command("DISPLAY QMGR SYSTEM EVENT CHINIT CLUSTER PUBSUB", load())
    assert command.selectors == ["SYSTEM", "EVENT", "CHINIT", "CLUSTER", "PUBSUB"]
    with pytest.raises(MqscSyntaxError):
        parse_command("DISPLAY QMGR CLUSTER(C1)", load())  # a group word takes no value
    with pytest.raises(MqscSyntaxError):
        parse_command("DISPLAY QMGR WHERE(EVENT EQ 1)", load())  # nor is it an attribute to filter on
    assert parse_command("SUSPEND QMGR CLUSTER(C1)", load()).params["CLUSTER"] == "C1"


def test_listener_attributes_belong_to_their_transport():
    catalogue = load()
    assert (
        parse_command(
            "DEFINE LISTENER(L) TRPTYPE(NETBIOS) LOCLNAME(MQNAME) ADAPTER(1) NTBNAMES(2) "
            "SESSIONS(3) COMMANDS(4)",
            catalogue,
        ).params["ADAPTER"]
        == 1
    )
    assert (
        parse_command("DEFINE LISTENER(L) TRPTYPE(LU62) TPNAME('MQSERIES')", catalogue).params["TPNAME"]
        == "MQSERIES"
    )
    with pytest.raises(MqscSyntaxError) as error:
        parse_command("DEFINE LISTENER(L) TRPTYPE(TCP) ADAPTER(1)", catalogue)
    assert error.value.segment.endswith("ADAPTER")


def test_the_policy_commands_are_valid_mqsc_and_their_values_are_checked():
    catalogue = load()
    command = parse_command(
        "SET POLICY(PAY.Q) SIGNALG(SHA256) ENCALG(3DES) SIGNER('CN=a,O=b') "
        "RECIP('CN=c','CN=d') TOLERATE KEYREUSE(UNLIMITED) ACTION(ADD)",
        catalogue,
    )
    assert command.params == {
        "SIGNALG": "SHA256",
        "ENCALG": "3DES",
        "SIGNER": ["CN=a,O=b"],
        "RECIP": ["CN=c", "CN=d"],
        "ENFORCE": False,
        "KEYREUSE": "UNLIMITED",
        "ACTION": "ADD",
    }
    assert parse_command("DISPLAY POLICY(*)", catalogue).name == "*"
    assert parse_command("DELETE POLICY(PAY.Q) IGNSTATE(YES)", catalogue).target == "POLICY"
    for wrong, at in (
        ("SET POLICY(P) SIGNALG(SHA999)", "SIGNALG(SHA999)"),
        ("SET POLICY(P) ACTION(REMOVEALL)", "ACTION(REMOVEALL)"),
        ("SET POLICY(P) KEYREUSE(0)", "KEYREUSE(0)"),
        ("SET POLICY(P) ENFORCE TOLERATE", "TOLERATE"),
        ("SET POLICY SIGNALG(MD5)", "SET POLICY"),
    ):
        with pytest.raises(MqscSyntaxError) as error:
            parse_command(wrong, catalogue)
        assert error.value.segment.endswith(at), (wrong, error.value.segment)


def test_delete_takes_the_channel_table_the_authority_records_and_ignstate_the_reference_lists():
    catalogue = load()
    assert parse_command("DELETE CHANNEL(C1) CHLTABLE(CLNTTBL)", catalogue).params == {"CHLTABLE": "CLNTTBL"}
    assert parse_command("DELETE TOPIC(T1) AUTHREC(NO)", catalogue).params == {"AUTHREC": "NO"}
    assert (
        parse_command(
            "DELETE AUTHREC PROFILE(Q1) OBJTYPE(QUEUE) PRINCIPAL(APP) IGNSTATE(YES)", catalogue
        ).params["IGNSTATE"]
        == "YES"
    )
    with pytest.raises(MqscSyntaxError):
        parse_command("DELETE CHANNEL(C1) CHLTABLE(OTHER)", catalogue)


def rejected(text: str) -> MqscSyntaxError:
    with pytest.raises(MqscSyntaxError) as error:
        check(text)
    return error.value


# ------------------------------------------------------------ accepted and rejected


@pytest.mark.parametrize(
    "text",
    [
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(Q1) COUNT(100) SIZE(2048) PERSISTENT SYNCPOINT PRIORITY(5)",
        "LAB PUT QUEUE(Q1) NONPERSISTENT",
        "LAB GET QUEUE(Q1) COUNT(5) NOSYNCPOINT",
        "LAB COMMIT",
        "LAB BACKOUT",
        "LAB CLOCK ADVANCE(30D)",
        "LAB CLOCK SET('2025-01-01 00:00:00')",
        "LAB CRASH",
        "LAB CRASH QMGR(QM1)",
        "REFRESH SECURITY",
        "REFRESH SECURITY(*) TYPE(SSL)",
        "REF SECURITY TYPE(AUTHSERV)",
        "RESET QMGR TYPE(ADVANCELOG)",
        "RESET QMGR TYPE(REDUCELOG) REDUCE(MAX)",
        "RESET QMGR TYPE(ARCHLOG) ARCHIVED(S0000012.LOG)",
        "REFRESH QMGR TYPE(EXPIRY)",
        "SET LOG ARCHIVED(S0000003.LOG)",
        "PING QMGR",
        "PING CHANNEL(TO.QM2) DATALEN(64)",
        "RESET CHANNEL(TO.QM2) SEQNUM(1)",
        "RESOLVE CHANNEL(TO.QM2) ACTION(BACKOUT)",
        "STOP CHANNEL(TO.QM2) MODE(FORCE) STATUS(INACTIVE)",
        "START CHANNEL(TO.QM2)",
        "STA LISTENER(L1) IGNSTATE(YES)",
        "STOP SERVICE(S1)",
        "START SERVICE(S1)",
        "REFRESH CLUSTER(*) REPOS(YES)",
        "RESET CLUSTER(C1) ACTION(FORCEREMOVE) QMNAME(QM9) QUEUES(YES)",
        "SUSPEND QMGR CLUSTER(C1) MODE(FORCE)",
        "RESUME QMGR CLUSTER(C1)",
        "DELETE AUTHREC PROFILE(Q1) OBJTYPE(QUEUE) PRINCIPAL('app')",
        "DISPLAY AUTHREC PROFILE(Q1) OBJTYPE(QUEUE) MATCH(EXACT)",
        "DIS CHLAUTH(*) ALL",
        "DISPLAY CHSTATUS(*) ALL",
        "DIS CHS(TO.*) SAVED",
        "DISPLAY QSTATUS(Q1) TYPE(HANDLE) ALL",
        "DIS QS(*) WHERE(CURDEPTH GT 0)",
        "DISPLAY QMSTATUS ALL",
        "DISPLAY QMSTATUS LOG",
        "DIS QMSTATUS CURRLOG MEDIALOG RECLOG",
        "DISPLAY LSSTATUS(*) ALL",
        "DISPLAY SVSTATUS(*)",
        "DISPLAY SUB(*) ALL",
        "DISPLAY SBSTATUS(*)",
        "DISPLAY TPSTATUS('#') TYPE(SUB)",
        "DISPLAY QMGR IMGRCOVO IMGRCOVQ IMGSCHED",
        "DIS Q(*) TYPE(QLOCAL) MAXDEPTH",
        "DISPLAY QUEUE(QA.A) TARGET",
        "DIS CLUSQMGR(*) CLUSTER(C1) QMTYPE STATUS",
        "ALTER QMGR IMGSCHED(AUTO) IMGINTVL(OFF) IMGLOGLN(3271) IMGRCOVO(NO) IMGRCOVQ(NO) LOGGEREV(ENABLED)",
        "ALTER QMGR MAXPROPL(NOLIMIT) MONQ(NONE)",
        "ALTER QLOCAL(Q1) IMGRCOVQ(QMGR) MONQ(QMGR) FORCE",
        "DEFINE QLOCAL(Q1) MAXFSIZE(DEFAULT) STREAMQ(Q2) STRMQOS(MUSTDUP) CAPEXPRY(100) NOHARDENBO",
        "DEFINE QMODEL(M1) DEFTYPE(SHAREDYN)",
        "DEFINE QREMOTE(R1) RNAME(Q1) RQMNAME(QM2) XMITQ(QM2)",
        "DEFINE QLOCAL(Q1) LIKE(Q2) NOREPLACE",
        "DELETE QLOCAL(Q1) NOPURGE",
        "CLEAR QLOCAL(Q1)",
        "DEFINE CHANNEL(C1) CHLTYPE(MQTT) PORT(1883) PROTOCOL(MQTTV311,HTTP) SSLCAUTH(NEVER)",
        "DEFINE CHANNEL(C1) CHLTYPE(SVRCONN) KAINT(AUTO) MONCHL(HIGH) COMPMSG(ZLIBFAST,RLE)",
        "DELETE CHANNEL(C1) CHLTYPE(MQTT)",
        "DISPLAY CHANNEL(*) CHLTYPE(SDR) ALL",
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) IPADDR('10.0.0.1') BACKLOG(100) CONTROL(STARTONLY)",
        "DEFINE NAMELIST(N1) NAMES(A,B,C)",
        "DEFINE PROCESS(P1) APPLTYPE(UNIX) APPLICID('/bin/true')",
        "DEFINE SUB(S1) TOPICSTR('a/b') DEST(Q1) DESTQMGR(QM2) EXPIRY(UNLIMITED) PUBPRTY(ASQDEF)",
        "DEFINE AUTHINFO(A1) AUTHTYPE(OCSP) OCSPURL('http://ocsp')",
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('9.*','10.*')",
        "SET CHLAUTH(C1) TYPE(QMGRMAP) QMNAME(QM2) USERSRC(MAP) MCAUSER(u1) ACTION(REPLACE)",
        "BACKUP CFSTRUCT(APP1) EXCLINT(60)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        "REC CFSTRUCT(APP1)",
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLOAD(SMDS) DSBLOCK(1M) DSEXPAND(YES) RECOVER(YES)",
        "RESET CFSTRUCT(APP1) ACTION(FAIL)",
        "DISPLAY CFSTATUS(APP1) TYPE(SMDS)",
        "RESET SMDS(QM01) CFSTRUCT(APP1) STATUS(RECOVERED)",
        "START SMDSCONN(*) CFSTRUCT(APP1)",
        "DISPLAY SMDSCONN(*) CFSTRUCT(APP1)",
        "ALTER SMDS(QM01) CFSTRUCT(APP1) DSBUFS(DEFAULT)",
        "DISPLAY QLOCAL(Q1) CMDSCOPE(*)",
        "DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(Q1) OBJTYPE(QUEUE)",
        "DIS ENTAUTH GROUP('mqm') OBJNAME('QM1') OBJTYPE(QMGR) SERVCOMP('MQSeries.UNIX.auth.service') ALL",
        "DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(C1) OBJTYPE(CHANNEL) AUTHLIST",
        "DISPLAY PUBSUB",
        "DISPLAY PUBSUB TYPE(ALL) ALL",
        "DIS PUBSUB TYPE(LOCAL) STATUS SUBCOUNT TPCOUNT",
        "DISPLAY APSTATUS(*)",
        "DISPLAY APSTATUS(MYAPP) TYPE(LOCAL) ALL",
        "DIS APSTATUS(*) TYPE(QMGR) BALSTATE",
        "DISPLAY APSTATUS(*) TYPE(APPL) WHERE(BALANCED EQ NO)",
        "DISPLAY AUTHSERV",
        "DISPLAY AUTHSERV ALL",
        "DIS AUTHSERV IFVER UIDSUPP",
        "DISPLAY TCLUSTER(*)",
        "DIS TCLUSTER(T*) ALL",
        "DISPLAY TCLUSTER(*) WHERE(CLUSTER EQ C1) CLUSQMGR",
        "CLEAR TOPICSTR('a/b') CLRTYPE(RETAINED)",
        "CLEAR TOPICSTR('a/b') CLRTYPE(RETAINED) SCOPE(LOCAL)",
        "START CHINIT",
        "START CHINIT INITQ(SYSTEM.CHANNEL.INITQ)",
        "PURGE CHANNEL(MQTT.CHL)",
        "PURGE CHANNEL(MQTT.CHL) CLIENTID('c1')",
        "PURGE CHANNEL(MQTT.CHL) CHLTYPE(MQTT) CLIENTID('c1')",
        "DEFINE CHANNEL(C1) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(XQ) SPLPROT(ASPOLICY)",
        "ALTER CHANNEL(C1) CHLTYPE(RCVR) SPLPROT(REMOVE)",
        "DEFINE TOPIC(T1) TOPICSTR('a') TYPE(LOCAL)",
        "ALTER TOPIC(T1) TYPE(LOCAL)",
        "DELETE QLOCAL(Q1) AUTHREC(NO)",
        "DELETE QALIAS(A1) AUTHREC(YES)",
        "DELETE QMODEL(M1) AUTHREC(NO)",
        "DELETE QREMOTE(R1) AUTHREC(NO)",
        "DELETE TOPIC(T1) AUTHREC(NO)",
    ],
)
def test_accepted(text):
    check(text)


@pytest.mark.parametrize(
    "text, stop",
    [
        ("LAB PUT COUNT(5)", "LAB PUT COUNT(5)"),  # QUEUE is required
        ("LAB PUT QUEUE(Q1) COUNT(0)", "COUNT(0)"),  # below 1
        ("LAB PUT QUEUE(Q1) PRIORITY(10)", "PRIORITY(10)"),
        ("LAB USE", "LAB USE"),
        ("LAB USE(QM1)", "USE(QM1)"),  # lab controls take no name
        ("DEFINE CHANNEL(C1) TRPTYPE(TCP)", "TRPTYPE(TCP)"),  # CHLTYPE is required
        ("DEFINE CHANNEL(C1) CHLTYPE(SDR) SHARECNV(10)", "SHARECNV"),  # a SVRCONN attribute
        ("SET AUTHREC PROFILE(Q1) PRINCIPAL('app') AUTHADD(PUT)", "AUTHADD(PUT)"),  # OBJTYPE is required
        ("SET CHLAUTH(C1) USERSRC(MAP)", "USERSRC(MAP)"),  # TYPE is required
        ("RESET QMGR TYPE(EXPIRY)", "TYPE(EXPIRY)"),  # a REFRESH QMGR type
        ("REFRESH QMGR TYPE(ADVANCELOG)", "TYPE(ADVANCELOG)"),
        ("RESOLVE CHANNEL(C1)", "RESOLVE CHANNEL(C1)"),  # ACTION is required
        ("SUSPEND QMGR CLUSTER(C1) MODE(TERMINATE)", "MODE(TERMINATE)"),
        ("ALTER QMGR IMGRCOVQ(QMGR)", "IMGRCOVQ(QMGR)"),  # QMGR value is for queues only
        ("ALTER QMGR MONQ(QMGR)", "MONQ(QMGR)"),
        ("ALTER QLOCAL(Q1) MONQ(NONE)", "MONQ(NONE)"),
        ("ALTER QMGR CURDEPTH(1)", "CURDEPTH"),
        ("ALTER QLOCAL(Q1) CURDEPTH(1)", "CURDEPTH"),  # read-only
        ("DEFINE QLOCAL(Q1) DEFTYPE(PERMDYN)", "DEFTYPE"),  # read-only on local queues
        ("DEFINE QMODEL(M1) DEFTYPE(PREDEFINED)", "DEFTYPE(PREDEFINED)"),
        ("DEFINE TOPIC(T1) DESCR('no string')", "DESCR('no string')"),  # TOPICSTR is required
        ("ALTER QMGR IMGINTVL(NEVER)", "IMGINTVL(NEVER)"),
        ("DISPLAY QMSTATUS(QM1)", "QMSTATUS(QM1)"),
        ("START QMGR", "START QMGR"),
        ("END QMGR", "END"),
        ("DISPLAY ENTAUTH PRINCIPAL('app') OBJTYPE(QUEUE)", "OBJTYPE(QUEUE)"),  # OBJNAME is required
        ("DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(Q1) OBJTYPE(FILE)", "OBJTYPE(FILE)"),
        ("DISPLAY ENTAUTH(Q1) OBJNAME(Q1) OBJTYPE(QUEUE)", "ENTAUTH(Q1)"),  # no name
        ("DISPLAY PUBSUB TYPE(REMOTE)", "TYPE(REMOTE)"),
        ("DISPLAY APSTATUS(*) TYPE(CHANNEL)", "TYPE(CHANNEL)"),
        ("CLEAR TOPICSTR('a/b')", "CLEAR TOPICSTR('a/b')"),  # CLRTYPE is required
        ("CLEAR TOPICSTR('a/b') CLRTYPE(ALL)", "CLRTYPE(ALL)"),
        ("CLEAR TOPICSTR('a/b') CLRTYPE(RETAINED) SCOPE(QMGR)", "SCOPE(QMGR)"),
        ("PURGE CHANNEL(C1) CHLTYPE(SDR)", "CHLTYPE(SDR)"),
        ("DEFINE CHANNEL(C1) CHLTYPE(SDR) SPLPROT(ALWAYS)", "SPLPROT(ALWAYS)"),
        ("DEFINE TOPIC(T1) TOPICSTR('a') TYPE(CLUSTER)", "TYPE(CLUSTER)"),
        ("DELETE QLOCAL(Q1) AUTHREC(MAYBE)", "AUTHREC(MAYBE)"),
        ("DELETE CHANNEL(C1) AUTHREC(NO)", "AUTHREC"),
        ("DISPLAY CLUSQMGR(*) WHERE(MCANAME EQ ' ')", "WHERE(MCANAME EQ ' ')"),  # not a filter keyword
        ("DISPLAY CLUSQMGR(*) WHERE(CMDSCOPE EQ QM1)", "WHERE(CMDSCOPE EQ QM1)"),
        # IBM's DISPLAY pages name the keywords each may not filter on
        ("DISPLAY QSTATUS(*) WHERE(TYPE EQ QUEUE)", "WHERE(TYPE EQ QUEUE)"),
        ("DIS QS(*) WHERE(QTIME GT 0)", "WHERE(QTIME GT 0)"),
        ("DIS QS(*) TYPE(HANDLE) WHERE(URID EQ X)", "WHERE(URID EQ X)"),
        ("DIS CHS(*) WHERE(XQTIME GT 0)", "WHERE(XQTIME GT 0)"),
        ("DIS CHS(*) WHERE(CURRENT EQ YES)", "WHERE(CURRENT EQ YES)"),
        ("DIS CONN(*) WHERE(EXTCONN EQ X)", "WHERE(EXTCONN EQ X)"),
        ("DIS CONN(*) WHERE(QSGDISP EQ QMGR)", "WHERE(QSGDISP EQ QMGR)"),
        ("DIS QL(*) WHERE(QDPHIEV EQ ENABLED)", "WHERE(QDPHIEV EQ ENABLED)"),  # a family member takes QUEUE's
        ("DIS Q(*) WHERE(QSVCIEV EQ NONE)", "WHERE(QSVCIEV EQ NONE)"),
        ("DIS CFSTATUS(*) WHERE(TYPE EQ SUMMARY)", "WHERE(TYPE EQ SUMMARY)"),
    ],
)
def test_rejected(text, stop):
    error = rejected(text)
    assert error.segment.endswith(stop), error.segment


def test_targq_is_another_spelling_of_target():
    command = check("DEFINE QALIAS(QA.A) TARGQ(QL.A) DEFPSIST(NO)")
    assert command.params["TARGET"] == "QL.A" and "TARGQ" not in command.params
    assert check("DIS QA(QA.A) TARGQ").selectors == ["TARGET"]
    rejected("DEFINE QALIAS(QA.A) TARGQ(QL.A) TARGET(QL.B)")


def test_flags_and_negatives_land_on_the_positive_name():
    command = check("DEFINE QLOCAL(Q1) NOSHARE NOTRIGGER HARDENBO REPLACE")
    assert command.params == {"SHARE": False, "TRIGGER": False, "HARDENBO": True, "REPLACE": True}


def test_optional_names():
    assert check("REFRESH SECURITY").name is None
    assert check("REFRESH SECURITY(*) TYPE(CONNAUTH)").name == "*"
    assert check("DELETE SUB SUBID(414D5120514D3120202020202020202066B7A56520000D06)").name is None
    rejected("DEFINE QLOCAL")
