"""Keywords of MQ 9.4's syntax diagrams that a real script may hold: each one parses and validates,
and a value the diagram does not allow is refused with the reason the catalogue gives."""

from __future__ import annotations

import pytest

from mqsh.language.catalogue import load
from mqsh.language.usage import usage_lines
from mqsh.language.validate import MqscSyntaxError, parse_command

CATALOGUE = load()


@pytest.mark.parametrize(
    "text, expected",
    [
        # ALTER QMGR, z/OS channel initiator and queue-sharing group parameters
        ("ALTER QMGR ACTCHL(200)", {"ACTCHL": 200}),
        ("ALTER QMGR ADOPTCHK(NETADDR) ADOPTMCA(ALL)", {"ADOPTCHK": "NETADDR", "ADOPTMCA": "ALL"}),
        ("ALTER QMGR BRIDGEEV(ENABLED)", {"BRIDGEEV": "ENABLED"}),
        ("ALTER QMGR CERTQSGL('qsg cert')", {"CERTQSGL": "qsg cert"}),
        ("ALTER QMGR CFCONLOS(TOLERATE)", {"CFCONLOS": "TOLERATE"}),
        ("ALTER QMGR CHIADAPS(8) CHIDISPS(5) CHISERVP(' ')", {"CHIADAPS": 8, "CHIDISPS": 5, "CHISERVP": ""}),
        ("ALTER QMGR DNSGROUP(GRP1) DNSWLM(NO)", {"DNSGROUP": "GRP1", "DNSWLM": "NO"}),
        ("ALTER QMGR EXPRYINT(OFF)", {"EXPRYINT": "OFF"}),
        ("ALTER QMGR EXPRYINT(300)", {"EXPRYINT": 300}),
        (
            "ALTER QMGR GROUPUR(ENABLED) IGQ(ENABLED) IGQAUT(ONLYIGQ) IGQUSER(IGQUSR)",
            {"GROUPUR": "ENABLED", "IGQ": "ENABLED", "IGQAUT": "ONLYIGQ", "IGQUSER": "IGQUSR"},
        ),
        (
            "ALTER QMGR LSTRTMR(60) LU62CHL(200) LUGROUP(LUGRP) LUNAME(LU1) LU62ARM(01)",
            {"LSTRTMR": 60, "LU62CHL": 200, "LUGROUP": "LUGRP", "LUNAME": "LU1", "LU62ARM": "01"},
        ),
        ("ALTER QMGR MAXCHL(300)", {"MAXCHL": 300}),
        # ALTER QMGR after MONCHL: the z/OS channel initiator, TCP/IP and security parameters
        ("ALTER QMGR OPORTMIN(5000) OPORTMAX(5100)", {"OPORTMIN": 5000, "OPORTMAX": 5100}),
        (
            "ALTER QMGR RCVTIME(5) RCVTTYPE(MULTIPLY) RCVTMIN(60)",
            {"RCVTIME": 5, "RCVTTYPE": "MULTIPLY", "RCVTMIN": 60},
        ),
        ("ALTER QMGR RCVTTYPE(ADD) RCVTIME(999999)", {"RCVTTYPE": "ADD", "RCVTIME": 999999}),
        ("ALTER QMGR RCVTTYPE(EQUAL) RCVTIME(0)", {"RCVTTYPE": "EQUAL", "RCVTIME": 0}),
        ("ALTER QMGR SCYCASE(MIXED) SQQMNAME(IGNORE)", {"SCYCASE": "MIXED", "SQQMNAME": "IGNORE"}),
        (
            "ALTER QMGR SCYCASE(UPPER) SQQMNAME(USE) SSLTASKS(8)",
            {"SCYCASE": "UPPER", "SQQMNAME": "USE", "SSLTASKS": 8},
        ),
        (
            "ALTER QMGR TCPCHL(200) TCPKEEP(YES) TCPNAME(TCPIP) TCPSTACK(MULTIPLE)",
            {"TCPCHL": 200, "TCPKEEP": "YES", "TCPNAME": "TCPIP", "TCPSTACK": "MULTIPLE"},
        ),
        ("ALTER QMGR TCPKEEP(NO) TCPSTACK(SINGLE)", {"TCPKEEP": "NO", "TCPSTACK": "SINGLE"}),
        ("ALTER QMGR TRAXSTR(YES) TRAXTBL(2048)", {"TRAXSTR": "YES", "TRAXTBL": 2048}),
        ("ALTER QMGR TRAXSTR(NO) TRAXTBL(2)", {"TRAXSTR": "NO", "TRAXTBL": 2}),
        # ... and those every platform has, with the values the reference gives them
        ("ALTER QMGR MONACLS(QMGR) STATACLS(QMGR)", {"MONACLS": "QMGR", "STATACLS": "QMGR"}),
        ("ALTER QMGR MONACLS(MEDIUM) STATACLS(LOW)", {"MONACLS": "MEDIUM", "STATACLS": "LOW"}),
        ("ALTER QMGR MONACLS(OFF) STATACLS(HIGH)", {"MONACLS": "OFF", "STATACLS": "HIGH"}),
        ("ALTER QMGR PSNPRES(DISCARD) PSNPMSG(KEEP)", {"PSNPRES": "DISCARD", "PSNPMSG": "KEEP"}),
        (
            "ALTER QMGR PSNPRES(KEEP) PSSYNCPT(YES) PSRTYCNT(0)",
            {"PSNPRES": "KEEP", "PSSYNCPT": "YES", "PSRTYCNT": 0},
        ),
        (
            "ALTER QMGR PSNPRES(SAFE) PSMODE(COMPAT) PSCLUS(DISABLED)",
            {"PSNPRES": "SAFE", "PSMODE": "COMPAT", "PSCLUS": "DISABLED"},
        ),
        (
            "ALTER QMGR PARENT(QMP) TREELIFE(0) TRIGINT(999999999)",
            {"PARENT": "QMP", "TREELIFE": 0, "TRIGINT": 999999999},
        ),
        (
            "ALTER QMGR PERFMEV(ENABLED) REMOTEEV(ENABLED) SSLEV(ENABLED) STRSTPEV(DISABLED)",
            {"PERFMEV": "ENABLED", "REMOTEEV": "ENABLED", "SSLEV": "ENABLED", "STRSTPEV": "DISABLED"},
        ),
        ("ALTER QMGR REPOS(CL1)", {"REPOS": "CL1"}),
        (
            "ALTER QMGR REPOSNL(CLNL) REVDNS(DISABLED) ROUTEREC(QUEUE)",
            {"REPOSNL": "CLNL", "REVDNS": "DISABLED", "ROUTEREC": "QUEUE"},
        ),
        ("ALTER QMGR SCHINIT(MANUAL) SCMDSERV(MANUAL)", {"SCHINIT": "MANUAL", "SCMDSERV": "MANUAL"}),
        (
            "ALTER QMGR SSLCRLNL(CRLNL) SSLCRYP(' ') SSLFIPS(YES) SSLRKEYC(1000000)",
            {"SSLCRLNL": "CRLNL", "SSLCRYP": "", "SSLFIPS": "YES", "SSLRKEYC": 1000000},
        ),
        ("ALTER QMGR SSLKEYR('/var/mqm/qmgrs/QM1/ssl/key')", {"SSLKEYR": "/var/mqm/qmgrs/QM1/ssl/key"}),
        (
            "ALTER QMGR STATCHL(NONE) STATINT(604800) STATMQI(ON) STATQ(NONE) MONQ(NONE)",
            {"STATCHL": "NONE", "STATINT": 604800, "STATMQI": "ON", "STATQ": "NONE", "MONQ": "NONE"},
        ),
        ("ALTER QMGR SUITEB(128_BIT,192_BIT)", {"SUITEB": ["128_BIT", "192_BIT"]}),
        # OpenTelemetry on z/OS (MQ 9.4.3): the queue manager's own values
        ("ALTER QMGR OTELTRAC(ON)", {"OTELTRAC": "ON"}),
        ("ALTER QMGR OTELTRAC(NONE) OTELPCTL(AUTO)", {"OTELTRAC": "NONE", "OTELPCTL": "AUTO"}),
        ("ALTER QMGR OTELPCTL(MANUAL)", {"OTELPCTL": "MANUAL"}),
        # the authority event scope of the 9.4 diagram
        (
            "ALTER QMGR AUTHOREV(ENABLED) AUTHEVSC(ALLCHECKS)",
            {"AUTHOREV": "ENABLED", "AUTHEVSC": "ALLCHECKS"},
        ),
        ("ALTER QMGR AUTHEVSC(FAILURES)", {"AUTHEVSC": "FAILURES"}),
        # queues: OpenTelemetry (local, model, remote) and the z/OS index type and storage class
        ("DEFINE QLOCAL(Q1) OTELTRAC(QMGR) OTELPCTL(QMGR)", {"OTELTRAC": "QMGR", "OTELPCTL": "QMGR"}),
        ("ALTER QLOCAL(Q1) OTELTRAC(OFF) OTELPCTL(AUTO)", {"OTELTRAC": "OFF", "OTELPCTL": "AUTO"}),
        ("DEFINE QMODEL(M1) OTELTRAC(ON)", {"OTELTRAC": "ON"}),
        ("ALTER QMODEL(M1) OTELPCTL(MANUAL)", {"OTELPCTL": "MANUAL"}),
        ("DEFINE QREMOTE(R1) RNAME(Q1) RQMNAME(QM2) OTELTRAC(ON)", {"OTELTRAC": "ON"}),
        ("ALTER QREMOTE(R1) OTELPCTL(QMGR)", {"OTELPCTL": "QMGR"}),
        (
            "DEFINE QLOCAL(Q1) INDXTYPE(CORRELID) STGCLASS(REMOTE)",
            {"INDXTYPE": "CORRELID", "STGCLASS": "REMOTE"},
        ),
        ("ALTER QLOCAL(Q1) INDXTYPE(MSGTOKEN)", {"INDXTYPE": "MSGTOKEN"}),
        (
            "DEFINE QMODEL(M1) INDXTYPE(GROUPID) STGCLASS(DEFAULT)",
            {"INDXTYPE": "GROUPID", "STGCLASS": "DEFAULT"},
        ),
        (
            "DEFINE TOPIC(T1) TOPICSTR('a/b') OTELTRAC(ASPARENT) OTELPCTL(ASPARENT)",
            {"OTELTRAC": "ASPARENT", "OTELPCTL": "ASPARENT"},
        ),
        ("ALTER TOPIC(T1) OTELTRAC(ON) OTELPCTL(MANUAL)", {"OTELTRAC": "ON", "OTELPCTL": "MANUAL"}),
        # channels: the z/OS default disposition
        ("DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(XQ) DEFCDISP(SHARED)", {"DEFCDISP": "SHARED"}),
        (
            "DEFINE CHANNEL(C1) CHLTYPE(RQSTR) CONNAME('h(1414)') DEFCDISP(FIXSHARED)",
            {"DEFCDISP": "FIXSHARED"},
        ),
        ("ALTER CHANNEL(C1) CHLTYPE(SDR) DEFCDISP(PRIVATE)", {"DEFCDISP": "PRIVATE"}),
        # DISPLAY CHANNEL picks one type with TYPE, or with CHLTYPE
        ("DISPLAY CHANNEL(*) TYPE(SDR)", {"TYPE": "SDR"}),
        ("DISPLAY CHANNEL(*) TYPE(AMQP) ALL", {"TYPE": "AMQP"}),
        ("DIS CHL(*) TYPE(ALL) CONNAME", {"TYPE": "ALL"}),
        ("DISPLAY CHANNEL(*) CHLTYPE(SVRCONN)", {"CHLTYPE": "SVRCONN"}),
        ("DISPLAY CONN(*) TYPE(*)", {"TYPE": "*"}),
        ("DISPLAY CONN(*) TYPE(ALL) ALL", {"TYPE": "ALL"}),
        # DISPLAY CONN: the handles' fields, and z/OS's unit-of-recovery disposition
        (
            "DISPLAY CONN(*) TYPE(HANDLE) OBJNAME OBJTYPE ASTATE HSTATE OPENOPTS READA QSGDISP",
            {"TYPE": "HANDLE"},
        ),
        (
            "DIS CONN(*) TYPE(HANDLE) WHERE(OBJTYPE EQ TOPIC) TOPICSTR SUBID SUBNAME DEST DESTQMGR",
            {"TYPE": "HANDLE"},
        ),
        ("DISPLAY CONN(*) TYPE(CONN) ASID NID PSBNAME PSTID TASKNO TRANSID CONNTAG", {"TYPE": "CONN"}),
        ("DISPLAY CONN(*) URDISP(GROUP) CMDSCOPE(*)", {"URDISP": "GROUP", "CMDSCOPE": "*"}),
        ("DISPLAY CONN(*) URDISP(QMGR) WHERE(ASID EQ 0012)", {"URDISP": "QMGR"}),
        ("DISPLAY CONN(*) TYPE(HANDLE) URDISP(ALL)", {"TYPE": "HANDLE", "URDISP": "ALL"}),
        # DISPLAY QMSTATUS TYPE(NATIVEHA) and its fields
        ("DISPLAY QMSTATUS TYPE(NATIVEHA) ALL", {"TYPE": "NATIVEHA", "ALL": True}),
        (
            "DISPLAY QMSTATUS TYPE(NATIVEHA) NHATYPE(*) ROLE INSYNC BACKLOG CONNACTV REPLADDR",
            {"TYPE": "NATIVEHA", "NHATYPE": "*"},
        ),
        (
            "DISPLAY QMSTATUS TYPE(NATIVEHA) WHERE(ROLE EQ ACTIVE) GRPNAME GRPROLE GRSTATUS GRPVER CONNGRP",
            {"TYPE": "NATIVEHA"},
        ),
        (
            "DISPLAY QMSTATUS TYPE(NATIVEHA) ACKLSN HAINITDA HAINITL HAINITTI HASTATUS INITTIME LIVETIME",
            {"TYPE": "NATIVEHA"},
        ),
        ("DISPLAY QMSTATUS TYPE(NATIVEHA) RCOVLSN RCOVTIME SYNCTIME GRPADDR INSTANCE", {"TYPE": "NATIVEHA"}),
        # PUTAUT on a server-connection channel (z/OS)
        ("DEFINE CHANNEL(C1) CHLTYPE(SVRCONN) PUTAUT(ONLYMCA)", {"PUTAUT": "ONLYMCA"}),
        ("ALTER CHANNEL(C1) CHLTYPE(SVRCONN) PUTAUT(DEF)", {"PUTAUT": "DEF"}),
        # z/OS displays with no object name
        ("DISPLAY ARCHIVE", {}),
        ("DISPLAY ARCHIVE CMDSCOPE(*)", {"CMDSCOPE": "*"}),
        ("DIS SECURITY", {}),
        ("DISPLAY SECURITY ALL", {"ALL": True}),
        ("DISPLAY SECURITY SWITCHES CMDSCOPE(QM2)", {"CMDSCOPE": "QM2"}),
    ],
)
def test_reference_keywords_are_accepted(text, expected):
    command = parse_command(text, CATALOGUE)
    assert {name: command.params[name] for name in expected} == expected


@pytest.mark.parametrize(
    "text, stop, reason",
    [
        # the queue manager's OTELTRAC has NONE but not QMGR; a queue's has QMGR but not NONE
        ("ALTER QMGR OTELTRAC(QMGR)", "OTELTRAC(QMGR)", "OTELTRAC(QMGR) is not one of OFF, ON, NONE"),
        ("ALTER QLOCAL(Q1) OTELTRAC(NONE)", "OTELTRAC(NONE)", "OTELTRAC(NONE) is not one of QMGR, OFF, ON"),
        ("ALTER QMGR OTELPCTL(QMGR)", "OTELPCTL(QMGR)", "OTELPCTL(QMGR) is not one of MANUAL, AUTO"),
        ("DEFINE QREMOTE(R1) OTELPCTL(ON)", "OTELPCTL(ON)", "OTELPCTL(ON) is not one of QMGR, MANUAL, AUTO"),
        (
            "ALTER TOPIC(T1) OTELTRAC(NONE)",
            "OTELTRAC(NONE)",
            "OTELTRAC(NONE) is not one of ASPARENT, QMGR, OFF, ON",
        ),
        (
            "ALTER QLOCAL(Q1) OTELPCTL(ASPARENT)",
            "OTELPCTL(ASPARENT)",
            "OTELPCTL(ASPARENT) is not one of QMGR, MANUAL, AUTO",
        ),
        # alias queues have neither
        ("DEFINE QALIAS(A1) TARGET(Q1) OTELTRAC(ON)", "OTELTRAC", "OTELTRAC is not valid here"),
        ("ALTER QALIAS(A1) OTELPCTL(AUTO)", "OTELPCTL", "OTELPCTL is not valid here"),
        # ASQMGR is a structure's CFCONLOS, not the queue manager's
        (
            "ALTER QMGR CFCONLOS(ASQMGR)",
            "CFCONLOS(ASQMGR)",
            "CFCONLOS(ASQMGR) is not one of TERMINATE, TOLERATE",
        ),
        (
            "ALTER QMGR AUTHEVSC(ALL)",
            "AUTHEVSC(ALL)",
            "AUTHEVSC(ALL) is not one of FAILURES, ALLCONNS, ALLCHECKS",
        ),
        ("ALTER QMGR DNSWLM(YES)", "DNSWLM(YES)", "DNSWLM(YES) is not one of NO"),
        (
            "ALTER QMGR IGQAUT(ONLYMCA)",
            "IGQAUT(ONLYMCA)",
            "IGQAUT(ONLYMCA) is not one of DEF, CTX, ONLYIGQ, ALTIGQ",
        ),
        ("ALTER QMGR EXPRYINT(NEVER)", "EXPRYINT(NEVER)", "EXPRYINT(NEVER) is not a number"),
        ("ALTER QMGR MAXCHL(-1)", "MAXCHL(-1)", "MAXCHL(-1) is out of range"),
        # the cluster-sender defaults take monitoring levels, not switches
        (
            "ALTER QMGR MONACLS(ENABLED)",
            "MONACLS(ENABLED)",
            "MONACLS(ENABLED) is not one of QMGR, OFF, LOW, MEDIUM, HIGH",
        ),
        (
            "ALTER QMGR MONACLS(NONE)",
            "MONACLS(NONE)",
            "MONACLS(NONE) is not one of QMGR, OFF, LOW, MEDIUM, HIGH",
        ),
        (
            "ALTER QMGR STATACLS(ON)",
            "STATACLS(ON)",
            "STATACLS(ON) is not one of QMGR, OFF, LOW, MEDIUM, HIGH",
        ),
        (
            "ALTER QMGR PSNPRES(DROP)",
            "PSNPRES(DROP)",
            "PSNPRES(DROP) is not one of NORMAL, SAFE, DISCARD, KEEP",
        ),
        (
            "ALTER QMGR PSNPRES(ASPARENT)",
            "PSNPRES(ASPARENT)",
            "PSNPRES(ASPARENT) is not one of NORMAL, SAFE, DISCARD, KEEP",
        ),
        (
            "ALTER QMGR RCVTTYPE(DIVIDE)",
            "RCVTTYPE(DIVIDE)",
            "RCVTTYPE(DIVIDE) is not one of MULTIPLY, ADD, EQUAL",
        ),
        ("ALTER QMGR RCVTIME(1000000)", "RCVTIME(1000000)", "RCVTIME(1000000) is out of range"),
        ("ALTER QMGR RCVTMIN(1000000)", "RCVTMIN(1000000)", "RCVTMIN(1000000) is out of range"),
        ("ALTER QMGR SCYCASE(LOWER)", "SCYCASE(LOWER)", "SCYCASE(LOWER) is not one of UPPER, MIXED"),
        ("ALTER QMGR SQQMNAME(YES)", "SQQMNAME(YES)", "SQQMNAME(YES) is not one of USE, IGNORE"),
        ("ALTER QMGR TCPKEEP(ENABLED)", "TCPKEEP(ENABLED)", "TCPKEEP(ENABLED) is not one of YES, NO"),
        ("ALTER QMGR TCPSTACK(DUAL)", "TCPSTACK(DUAL)", "TCPSTACK(DUAL) is not one of SINGLE, MULTIPLE"),
        ("ALTER QMGR TRAXSTR(ON)", "TRAXSTR(ON)", "TRAXSTR(ON) is not one of YES, NO"),
        ("ALTER QMGR TRAXTBL(2049)", "TRAXTBL(2049)", "TRAXTBL(2049) is out of range"),
        ("ALTER QMGR OPORTMAX(65536)", "OPORTMAX(65536)", "OPORTMAX(65536) is out of range"),
        ("ALTER QMGR TCPCHL(ALL)", "TCPCHL(ALL)", "TCPCHL(ALL) is not a number"),
        ("ALTER QMGR SSLTASKS(-1)", "SSLTASKS(-1)", "SSLTASKS(-1) is out of range"),
        (
            "ALTER QLOCAL(Q1) INDXTYPE(QUEUE)",
            "INDXTYPE(QUEUE)",
            "INDXTYPE(QUEUE) is not one of NONE, MSGID, CORRELID, GROUPID, MSGTOKEN",
        ),
        (
            "DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(XQ) DEFCDISP(GROUP)",
            "DEFCDISP(GROUP)",
            "DEFCDISP(GROUP) is not one of PRIVATE, FIXSHARED, SHARED",
        ),
        (
            "DISPLAY CHANNEL(*) TYPE(QLOCAL)",
            "TYPE(QLOCAL)",
            "TYPE(QLOCAL) is not one of ALL, SDR, SVR, RCVR, RQSTR, CLNTCONN, SVRCONN, CLUSSDR, CLUSRCVR, AMQP",
        ),
        ("DISPLAY CONN(*) URDISP(SHARED)", "URDISP(SHARED)", "URDISP(SHARED) is not one of ALL, GROUP, QMGR"),
        ("DISPLAY CONN(*) TYPE(QUEUE)", "TYPE(QUEUE)", "TYPE(QUEUE) is not one of CONN, HANDLE, ALL, *"),
        ("DISPLAY QMSTATUS TYPE(REPLICA)", "TYPE(REPLICA)", "TYPE(REPLICA) is not one of QMGR, NATIVEHA"),
        (
            "DEFINE CHANNEL(C1) CHLTYPE(SVRCONN) PUTAUT(NONE)",
            "PUTAUT(NONE)",
            "PUTAUT(NONE) is not one of DEF, CTX, ONLYMCA, ALTMCA",
        ),
        ("DISPLAY ARCHIVE(LOG1)", "ARCHIVE(LOG1)", "ARCHIVE takes no name"),
        ("DISPLAY ARCHIVE TIMEOUT", "TIMEOUT", "TIMEOUT is not valid here"),
        ("DISPLAY SECURITY MAXCHL", "MAXCHL", "MAXCHL is not valid here"),
        # the queue manager's parameters are not a queue's, nor DEFINE's
        ("ALTER QLOCAL(Q1) MAXCHL(10)", "MAXCHL", "MAXCHL is not valid here"),
        ("DEFINE QLOCAL(Q1) AUTHEVSC(ALLCONNS)", "AUTHEVSC", "AUTHEVSC is not valid here"),
    ],
)
def test_values_outside_the_reference_are_refused(text, stop, reason):
    with pytest.raises(MqscSyntaxError) as error:
        parse_command(text, CATALOGUE)
    assert error.value.segment.endswith(stop), error.value.segment
    assert error.value.reason == reason


def test_zos_parameters_stay_out_of_the_usage_text():
    """runmqsc's usage text is that of Multiplatforms: the z/OS parameters are accepted, not offered."""
    text = "\n".join(usage_lines(CATALOGUE, "ALTER", "QMGR", None))
    for name in ("ACTCHL", "IGQ(", "MAXCHL", "OTELTRAC", "OTELPCTL", "CFCONLOS", "EXPRYINT"):
        assert name not in text, name
    assert "AUTHEVSC( FAILURES | ALLCONNS | ALLCHECKS )" in text
    queue = "\n".join(usage_lines(CATALOGUE, "DEFINE", "QLOCAL", None))
    assert "OTELTRAC" not in queue and "INDXTYPE" not in queue and "STGCLASS" not in queue


def test_zos_queue_manager_attributes_are_display_selectors():
    """DISPLAY QMGR takes the z/OS parameters as a z/OS script asks for them; the modelled queue
    manager (Multiplatforms) has no value to show for them."""
    command = parse_command("DISPLAY QMGR MAXCHL TCPNAME TRAXSTR QSGNAME CPILEVEL RCVTIME", CATALOGUE)
    assert command.selectors == ["MAXCHL", "TCPNAME", "TRAXSTR", "QSGNAME", "CPILEVEL", "RCVTIME"]
    qmgr = CATALOGUE.objects["QMGR"]
    for name in command.selectors:
        assert name not in qmgr.all_attributes(), name
    text = "\n".join(usage_lines(CATALOGUE, "ALTER", "QMGR", None))
    for name in ("OPORTMAX", "RCVTTYPE", "SCYCASE", "SQQMNAME", "SSLTASKS", "TCPSTACK", "TRAXTBL"):
        assert name not in text, name
    assert "STATACLS( QMGR | OFF | LOW | MEDIUM | HIGH )" in text


@pytest.mark.parametrize(
    "text, selectors",
    [
        ("DISPLAY CONN(*) TYPE(HANDLE) TOPICSTR SUBNAME QSGDISP", ["TOPICSTR", "SUBNAME", "QSGDISP"]),
        ("DISPLAY SECURITY TIMEOUT INTERVAL SWITCHES", ["TIMEOUT", "INTERVAL", "SWITCHES"]),
    ],
)
def test_fields_the_model_never_has_are_selectors(text, selectors):
    """Fields of z/OS and of topic handles: asked for by name, never shown by the model."""
    command = parse_command(text, CATALOGUE)
    assert command.selectors == selectors
    obj = CATALOGUE.objects[command.target]
    assert not set(selectors) & set(obj.all_attributes())


def test_putaut_is_offered_to_receivers_not_server_connections():
    """PUTAUT is a receiving channel's; a server-connection channel takes it on z/OS only."""
    assert "PUTAUT(" in "\n".join(usage_lines(CATALOGUE, "ALTER", "CHANNEL", "RCVR"))
    assert "PUTAUT(" not in "\n".join(usage_lines(CATALOGUE, "ALTER", "CHANNEL", "SVRCONN"))
    assert "PUTAUT(" not in "\n".join(usage_lines(CATALOGUE, "DEFINE", "CHANNEL", "SDR"))
