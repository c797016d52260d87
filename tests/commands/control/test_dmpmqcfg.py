"""dmpmqcfg: MQ's dump format, and a dump that rebuilds the queue manager on another."""

from __future__ import annotations

import pytest

from mqsh.language.lines import split_commands
from mqsh.shell.session import Session

SETUP = [
    "ALTER QMGR DESCR('production') DEADQ(APP.DLQ) MAXMSGL(8388608)",
    "DEFINE QLOCAL(APP.DLQ) MAXDEPTH(100000)",
    "DEFINE QLOCAL(APP.IN) DESCR('it''s the input') MAXDEPTH(7) NOSHARE DEFPSIST(YES) BOQNAME(APP.DLQ)",
    "DEFINE QALIAS(APP.ALIAS) TARGET(APP.IN)",
    "DEFINE QREMOTE(APP.REMOTE) RNAME(THEIR.Q) RQMNAME(QM9) XMITQ(QM9)",
    "DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN)",
    "DEFINE QLOCAL(QM9) USAGE(XMITQ)",
    "DEFINE CHANNEL(QM1.TO.QM9) CHLTYPE(SDR) CONNAME('qm9.example.com(1414)') XMITQ(QM9) HBINT(60)",
    "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app')",
    "DEFINE NAMELIST(APP.NL) NAMES(APP.IN, APP.DLQ) DESCR('two queues')",
    "DEFINE PROCESS(APP.PROC) APPLICID('/usr/bin/app')",
    "DEFINE TOPIC(APP.TOPIC) TOPICSTR('app/prices')",
    "DEFINE LISTENER(APP.LSR) TRPTYPE(TCP) PORT(1415) CONTROL(QMGR)",
    "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('10.0.*') USERSRC(CHANNEL)",
    "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('nobody', 'root')",
    "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT,GET,INQ)",
    "SET POLICY(APP.IN) SIGNALG(SHA256) ENCALG(AES256) RECIP('CN=app,O=bank') ENFORCE",
    # A full repository of a cluster, with what its workload balancing reads
    "ALTER QMGR REPOS(DEMO) CLWLUSEQ(ANY)",
    "DEFINE NAMELIST(DEMO.NL) NAMES(DEMO, OTHER)",
    "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('qm1(1414)') CLWLWGHT(70) NETPRTY(3)",
    "DEFINE CHANNEL(TO.FR2) CHLTYPE(CLUSSDR) CLUSNL(DEMO.NL) CONNAME('fr2(1414)')",
    "DEFINE QLOCAL(APP.CLUSTERED) CLUSTER(DEMO) CLWLUSEQ(LOCAL) DEFBIND(NOTFIXED) CLWLRANK(4) CLWLPRTY(2)",
]
# What each queue manager gives an object itself, not carried by a dump: when, and its own identities.
TIMES = {"ALTDATE", "ALTTIME", "CRDATE", "CRTIME", "QMID", "QMNAME", "SUBID"}


def run(session: Session, command: str) -> list[str]:
    return session.render(session.execute(command)).splitlines()


@pytest.fixture
def qm1(data_dir):
    session = Session(data_dir)
    for command in ("crtmqm -ll QM1", "strmqm QM1"):
        assert session.execute(command).ok
    session.current_qmgr = "QM1"
    for command in SETUP:
        assert session.execute(command).ok, command
    yield session
    session.close()


def test_the_dump_has_mqs_header_layout_and_trailer(qm1):
    lines = run(qm1, "dmpmqcfg -m QM1")
    assert lines[0] == lines[7] == "*" * 79
    assert lines[1].startswith("* Script generated on ") and "   at " in lines[1] and lines[1].endswith(" ")
    assert lines[3:5] == ["* Queue manager name: QM1 ", "* Queue manager platform: UNIX "]
    assert lines[6] == "* Command issued: dmpmqcfg -m QM1  "
    assert lines[8] == "ALTER QMGR +"
    start = lines.index("DEFINE QLOCAL('APP.IN') +")
    assert (
        lines[start : start + 10]
        == [
            "DEFINE QLOCAL('APP.IN') +",
            "*  ALTDATE(" + lines[start + 1][11:],  # read-only: a comment line runmqsc skips
            "*  ALTTIME(" + lines[start + 2][11:],
            "   BOQNAME('APP.DLQ') +",
            "*  CRDATE(" + lines[start + 4][10:],
            "*  CRTIME(" + lines[start + 5][10:],
            "   DEFPSIST(YES) +",
            "   DESCR('it''s the input') +",
            "   MAXDEPTH(7) +",
            "   NOSHARE +",
        ]
    )
    assert lines[start + 10] == "   REPLACE"
    names = lines.index("DEFINE NAMELIST('APP.NL') +")
    assert lines[names + 2 : names + 4] == ["   NAMES('APP.IN' +", "        ,'APP.DLQ') +"]
    assert "   ACTION(REPLACE)" in lines and "   AUTHADD(GET,INQ,PUT)" in lines
    assert lines[-1] == "*" * 79 and lines[-2].startswith("* Number of objects/records: ")
    assert "* AuthRec count: 1 " in lines


def replayed_on_a_new_qm2(session, dump: str) -> None:
    """The dump run on a new queue manager QM2, which the session then works with."""
    for command in ("crtmqm -ll QM2", "strmqm QM2"):
        assert session.execute(command).ok
    session.current_qmgr = "QM2"
    for chunk in split_commands(dump):
        if chunk.is_command:
            result = session.execute(chunk.text)
            assert result.ok, (chunk.text, session.render(result))


def test_a_dump_replayed_on_a_new_queue_manager_rebuilds_every_object(qm1):
    dump = "\n".join(run(qm1, "dmpmqcfg -m QM1")) + "\n"
    replayed_on_a_new_qm2(qm1, dump)
    first, second = (qm1.installation.held[name] for name in ("QM1", "QM2"))
    compared = 0
    for key, obj in first.state.items():
        if obj.namespace == "QMGR":
            twin = second.lookup("QMGR", "QM2")
        else:
            twin = second.state.get(key)
        assert twin is not None, key

        def strip(attributes):
            return {name: value for name, value in attributes.items() if name not in TIMES}

        assert strip(twin.attributes) == strip(obj.attributes), key
        compared += 1
    assert compared > 40


def test_with_an_edited_default_object_a_dump_with_every_attribute_rebuilds_every_object(qm1):
    """IBM (dmpmqcfg): "If any default object has been edited, the -a option must be used if the
    dumped configuration will be used to restore the configuration": the objects defined like the
    edited default object and those that state the product's value both come back as they were."""
    for command in (
        "ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(100)",
        "DEFINE QLOCAL(A.LIKE.DEFAULT)",
        "DEFINE QLOCAL(Z.PRODUCT.VALUE) MAXDEPTH(5000)",
    ):
        assert qm1.execute(command).ok, command
    dump = "\n".join(run(qm1, "dmpmqcfg -m QM1 -a")) + "\n"
    replayed_on_a_new_qm2(qm1, dump)
    copy = qm1.installation.held["QM2"]
    depths = {
        name: copy.lookup("QUEUE", name).attributes["MAXDEPTH"]
        for name in ("A.LIKE.DEFAULT", "Z.PRODUCT.VALUE", "SYSTEM.DEFAULT.LOCAL.QUEUE")
    }
    assert depths == {"A.LIKE.DEFAULT": 100, "Z.PRODUCT.VALUE": 5000, "SYSTEM.DEFAULT.LOCAL.QUEUE": 100}


def test_a_dump_replayed_over_its_own_queue_manager_undoes_every_change_since(qm1):
    """DEFINE ... REPLACE sets what it does not state to its default, so the dump's objects come
    back exactly as dumped, attributes changed since (and not in the dump) too."""
    before = {key: dict(obj.attributes) for key, obj in qm1.installation.held["QM1"].state.items()}
    dump = "\n".join(run(qm1, "dmpmqcfg -m QM1 -x object")) + "\n"
    for command in (
        "ALTER QLOCAL(APP.IN) MAXMSGL(1000) DESCR('changed')",
        "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MAXMSGL(2000) DESCR('changed')",
        "ALTER PROCESS(APP.PROC) USERDATA('changed')",
    ):
        assert qm1.execute(command).ok, command
    for chunk in split_commands(dump):
        if chunk.is_command:
            result = qm1.execute(chunk.text)
            assert result.ok, (chunk.text, qm1.render(result))

    def strip(attributes):
        return {name: value for name, value in attributes.items() if name not in TIMES}

    after = qm1.installation.held["QM1"].state
    for key, attributes in before.items():
        assert strip(after[key].attributes) == strip(attributes), key
        if "CRDATE" in attributes and after[key].namespace != "QMGR":
            assert after[key].attributes["CRDATE"] == attributes["CRDATE"], key  # the same object still


def test_exports_types_names_and_one_line_format(qm1):
    lines = run(qm1, "dmpmqcfg -m QM1 -t queue -n APP.I* -o 1line")
    body = lines[8 : lines.index("*" * 79, 8)]
    assert body == [
        "DEFINE QLOCAL('APP.IN') BOQNAME('APP.DLQ') DEFPSIST(YES) DESCR('it''s the input') "
        "MAXDEPTH(7) NOSHARE REPLACE"
    ]
    assert "* Queue count: 1 " in lines
    chlauth = run(qm1, "dmpmqcfg -m QM1 -x chlauth")
    # Most specific first, as MQ lists the rules: names, then longer generic profiles before shorter.
    assert [line for line in chlauth if line.startswith("SET ")] == [
        "SET CHLAUTH('SYSTEM.ADMIN.SVRCONN') +",
        "SET CHLAUTH('SYSTEM.*') +",
        "SET CHLAUTH('APP.*') +",
        "SET CHLAUTH('*') +",
    ]
    assert "   USERLIST('nobody' +" in chlauth and "        ,'root') +" in chlauth
    every = run(qm1, "dmpmqcfg -m QM1 -t queue -n APP.DLQ -a")
    assert "   MAXMSGL(4194304) +" in every  # -a: defaults too


def test_a_queue_manager_that_is_not_running_or_not_there(qm1):
    qm1.execute("endmqm QM1")
    result = qm1.execute("dmpmqcfg -m QM1")
    assert not result.ok and result.code != 0
    result = qm1.execute("dmpmqcfg -m NOPE")
    assert (result.ok, result.code) == (False, 16)
