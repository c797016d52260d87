"""DEFINE, DELETE and CLEAR of objects, and DEFINE REPLACE and LIKE: what MQ keeps, lends and refuses."""

from __future__ import annotations

import pytest

from tests.recovery.helpers import run, started


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


@pytest.mark.parametrize(
    "command", ["DELETE QLOCAL(NOT.THERE)", "STOP LISTENER(SYSTEM.DEFAULT.LISTENER.TCP)"]
)
def test_ignstate_yes_counts_an_object_already_as_asked_as_processed(session, command):
    assert not session.execute(command).ok
    result = session.execute(f"{command} IGNSTATE(YES)")
    assert result.ok and result.responses  # still says what it found


def test_crtmqm_gives_the_queue_manager_its_certificate_label(session):
    shown = dict(session.execute("DISPLAY QMGR CERTLABL").responses[0].attributes)
    assert shown["CERTLABL"] == "ibmwebspheremqqm1"


def test_a_listener_defined_without_trptype_is_tcp(session):
    assert session.execute("DEFINE LISTENER(L1) PORT(1415)").ok
    shown = dict(session.execute("DISPLAY LISTENER(L1)").responses[0].attributes)
    assert shown["TRPTYPE"] == "TCP" and shown["PORT"] == "1415" and "ADAPTER" not in shown


def test_cluster_and_clusnl_are_not_both_given_to_one_object(session):
    assert session.execute("DEFINE NAMELIST(NL1) NAMES(DEMO)").ok
    for refused in (
        "DEFINE QLOCAL(Q1) CLUSTER(DEMO) CLUSNL(NL1)",
        "DEFINE CHANNEL(R1) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CLUSNL(NL1) CONNAME('qm1(1414)')",
    ):
        result = session.execute(refused)
        assert not result.ok and "AMQ8766E" in session.render(result)
    assert not session.execute("DISPLAY QLOCAL(Q1)").ok  # nothing was defined
    assert session.execute("DEFINE QLOCAL(Q2) CLUSNL(NL1)").ok
    assert not session.execute("ALTER QLOCAL(Q2) CLUSTER(DEMO)").ok  # added to one having the other
    assert session.execute("ALTER QLOCAL(Q2) CLUSTER(DEMO) CLUSNL(' ')").ok  # one swapped for the other
    assert session.execute("DEFINE CHANNEL(S1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('qm1(1414)')").ok
    assert not session.execute("ALTER CHANNEL(S1) CHLTYPE(CLUSSDR) CLUSNL(NL1)").ok


@pytest.mark.parametrize("log_option, accepted", [("-lc", False), ("-ll", True), ("-lr", True)])
def test_logger_events_are_only_for_a_linear_log(data_dir, log_option, accepted):
    session = started(data_dir, log_option)
    result = session.execute("ALTER QMGR LOGGEREV(ENABLED)")
    shown = run(session, "DISPLAY QMGR LOGGEREV")[-1]
    if accepted:
        assert result.ok and shown.strip().endswith("LOGGEREV(ENABLED)")
    else:
        assert not result.ok
        assert session.render(result) == (
            "AMQ8518E: LOGGEREV is only valid when using a linear logging queue manager."
        )
        assert shown.strip().endswith("LOGGEREV(DISABLED)")
    assert session.execute("ALTER QMGR LOGGEREV(DISABLED)").ok
    session.close()


# ------------------------------------------------------------------ DEFINE ... REPLACE
def shown_values(session, command: str) -> dict[str, str]:
    result = session.execute(command)
    assert result.ok, session.render(result)
    return dict(result.responses[0].attributes)


def test_define_replace_resets_what_it_does_not_state_and_keeps_messages_and_creation_date(session):
    """IBM's Create Queue with Replace: unstated attributes take the type's defaults (it is no
    ALTER); the queue is the same one, with its messages and the date it was created."""
    session.execute("LAB CLOCK SET('2026-01-05 09:00:00')")
    assert session.execute("DEFINE QLOCAL(X) MAXDEPTH(7) DESCR('a') DEFPSIST(YES)").ok
    assert session.execute("LAB PUT QUEUE(X) COUNT(3)").ok
    session.execute("LAB CLOCK SET('2026-01-06 10:00:00')")
    assert (
        session.render(session.execute("DEFINE QLOCAL(X) DESCR('b') REPLACE"))
        == "AMQ8006I: IBM MQ queue created."
    )
    values = shown_values(session, "DISPLAY QLOCAL(X) MAXDEPTH DESCR DEFPSIST CURDEPTH CRDATE ALTDATE")
    assert (values["MAXDEPTH"], values["DESCR"], values["DEFPSIST"]) == ("5000", "b", "NO")
    assert (values["CURDEPTH"], values["CRDATE"], values["ALTDATE"]) == ("3", "2026-01-05", "2026-01-06")


@pytest.mark.parametrize(
    "first, again, display, attribute, default",
    [
        (
            "DEFINE CHANNEL(C1) CHLTYPE(SVRCONN) MCAUSER('app')",
            "DEFINE CHANNEL(C1) CHLTYPE(SVRCONN) DESCR('x') REPLACE",
            "DISPLAY CHANNEL(C1) MCAUSER",
            "MCAUSER",
            "",
        ),
        (
            "DEFINE PROCESS(P1) APPLICID('run.sh')",
            "DEFINE PROCESS(P1) DESCR('x') REPLACE",
            "DISPLAY PROCESS(P1) APPLICID",
            "APPLICID",
            "",
        ),
        (
            "DEFINE NAMELIST(N1) NAMES(A, B)",
            "DEFINE NAMELIST(N1) DESCR('x') REPLACE",
            "DISPLAY NAMELIST(N1) NAMCOUNT",
            "NAMCOUNT",
            "0",
        ),
        (
            "DEFINE TOPIC(T1) TOPICSTR('a/b') DEFPSIST(YES)",
            "DEFINE TOPIC(T1) TOPICSTR('a/b') REPLACE",
            "DISPLAY TOPIC(T1) DEFPSIST",
            "DEFPSIST",
            "ASPARENT",
        ),
        (
            "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1515)",
            "DEFINE LISTENER(L1) TRPTYPE(TCP) REPLACE",
            "DISPLAY LISTENER(L1) PORT",
            "PORT",
            "0",
        ),
        (
            "DEFINE QREMOTE(R1) RNAME(A) RQMNAME(QM9)",
            "DEFINE QREMOTE(R1) RNAME(B) REPLACE",
            "DISPLAY QREMOTE(R1) RQMNAME",
            "RQMNAME",
            "",
        ),
    ],
)
def test_define_replace_resets_every_object_type(session, first, again, display, attribute, default):
    assert session.execute(first).ok and session.execute(again).ok
    assert shown_values(session, display)[attribute].strip() == default


def test_define_replace_like_takes_the_like_objects_attributes_not_the_replaced_ones(session):
    assert session.execute("DEFINE QLOCAL(MODEL.Q) MAXDEPTH(42)").ok
    assert session.execute("DEFINE QLOCAL(X) MAXDEPTH(7) MAXMSGL(1000)").ok
    assert session.execute("DEFINE QLOCAL(X) LIKE(MODEL.Q) REPLACE").ok
    values = shown_values(session, "DISPLAY QLOCAL(X) MAXDEPTH MAXMSGL")
    assert (values["MAXDEPTH"], values["MAXMSGL"]) == ("42", "4194304")


def test_a_subscription_keeps_its_subid_on_replace_and_one_like_it_gets_its_own(session):
    assert session.execute("DEFINE QLOCAL(D)").ok
    assert session.execute("DEFINE SUB(S1) TOPICSTR('a/b') DEST(D) USERDATA('u')").ok
    first = shown_values(session, "DISPLAY SUB(S1) ALL")
    assert session.execute("DEFINE SUB(S1) TOPICSTR('a/b') DEST(D) REPLACE").ok
    replaced = shown_values(session, "DISPLAY SUB(S1) ALL")
    assert replaced["SUBID"] == first["SUBID"] and replaced["USERDATA"].strip() == ""
    assert session.execute("DEFINE SUB(S2) LIKE(S1) TOPICSTR('a/c')").ok
    assert shown_values(session, "DISPLAY SUB(S2) ALL")["SUBID"] != first["SUBID"]


def test_a_replaced_queue_is_the_same_after_a_restart(data_dir):
    from tests.support import run_mqsh

    script = (
        "DEFINE QLOCAL(X) MAXDEPTH(7) DEFPSIST(YES)\nLAB PUT QUEUE(X) COUNT(2)\n"
        "DEFINE QLOCAL(X) DESCR('b') REPLACE\nendmqm QM1\nstrmqm QM1\nDISPLAY QLOCAL(X) MAXDEPTH CURDEPTH DESCR\n"
    )
    done = run_mqsh(stdin=script, data_dir=data_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "MAXDEPTH(5000)" in done.stdout and "CURDEPTH(2)" in done.stdout and "DESCR(b)" in done.stdout


# ------------------------------------------------------------------ the default objects
@pytest.mark.parametrize(
    "alter, define, display, attribute, value",
    [
        (
            "ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(100)",
            "DEFINE QLOCAL(Z)",
            "DISPLAY QLOCAL(Z) MAXDEPTH",
            "MAXDEPTH",
            "100",
        ),
        (
            "ALTER QMODEL(SYSTEM.DEFAULT.MODEL.QUEUE) DEFTYPE(PERMDYN)",
            "DEFINE QMODEL(M)",
            "DISPLAY QMODEL(M) DEFTYPE",
            "DEFTYPE",
            "PERMDYN",
        ),
        (
            "ALTER QALIAS(SYSTEM.DEFAULT.ALIAS.QUEUE) DEFPSIST(YES)",
            "DEFINE QALIAS(A) TARGET(Z)",
            "DISPLAY QALIAS(A) DEFPSIST",
            "DEFPSIST",
            "YES",
        ),
        (
            "ALTER QREMOTE(SYSTEM.DEFAULT.REMOTE.QUEUE) RQMNAME(QM9)",
            "DEFINE QREMOTE(R) RNAME(Z)",
            "DISPLAY QREMOTE(R) RQMNAME",
            "RQMNAME",
            "QM9",
        ),
        (
            "ALTER CHANNEL(SYSTEM.DEF.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('nobody')",
            "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)",
            "DISPLAY CHANNEL(APP.SVRCONN) MCAUSER",
            "MCAUSER",
            "nobody",
        ),
        (
            "ALTER CHANNEL(SYSTEM.DEF.SENDER) CHLTYPE(SDR) HBINT(30)",
            "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(QM2)",
            "DISPLAY CHANNEL(TO.QM2) HBINT",
            "HBINT",
            "30",
        ),
        (
            "ALTER LISTENER(SYSTEM.DEFAULT.LISTENER.TCP) TRPTYPE(TCP) BACKLOG(50)",
            "DEFINE LISTENER(L) TRPTYPE(TCP)",
            "DISPLAY LISTENER(L) BACKLOG",
            "BACKLOG",
            "50",
        ),
        (
            "ALTER SERVICE(SYSTEM.DEFAULT.SERVICE) STARTCMD('/bin/true')",
            "DEFINE SERVICE(S)",
            "DISPLAY SERVICE(S) STARTCMD",
            "STARTCMD",
            "/bin/true",
        ),
        (
            "ALTER PROCESS(SYSTEM.DEFAULT.PROCESS) APPLICID('run.sh')",
            "DEFINE PROCESS(P)",
            "DISPLAY PROCESS(P) APPLICID",
            "APPLICID",
            "run.sh",
        ),
        (
            "ALTER NAMELIST(SYSTEM.DEFAULT.NAMELIST) DESCR('site list')",
            "DEFINE NAMELIST(N)",
            "DISPLAY NAMELIST(N) DESCR",
            "DESCR",
            "site list",
        ),
        (
            "ALTER TOPIC(SYSTEM.DEFAULT.TOPIC) DEFPSIST(YES)",
            "DEFINE TOPIC(T) TOPICSTR('a/b')",
            "DISPLAY TOPIC(T) DEFPSIST",
            "DEFPSIST",
            "YES",
        ),
        (
            "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) FAILDLAY(5)",
            "DEFINE AUTHINFO(AI) AUTHTYPE(IDPWOS)",
            "DISPLAY AUTHINFO(AI) FAILDLAY",
            "FAILDLAY",
            "5",
        ),
        (
            "ALTER SUB(SYSTEM.DEFAULT.SUB) EXPIRY(600)",
            "DEFINE SUB(S) TOPICSTR('a/b') DEST(SYSTEM.DEFAULT.LOCAL.QUEUE)",
            "DISPLAY SUB(S) EXPIRY",
            "EXPIRY",
            "600",
        ),
    ],
)
def test_define_without_like_takes_what_it_does_not_state_from_the_types_default_object(
    session, alter, define, display, attribute, value
):
    """IBM: without LIKE "the values of undefined parameters are taken from the default definition
    for queues of this type on the queue manager", which an installation may alter."""
    assert session.execute(alter).ok, alter
    assert session.execute(define).ok, define
    assert shown_values(session, display)[attribute].strip() == value


def test_define_sub_takes_what_it_does_not_state_from_the_default_subscription_through_the_shell(data_dir):
    """SYSTEM.DEFAULT.SUB is the default object of subscriptions as the other SYSTEM.DEFAULT objects are
    of their types: what a site alters in it, a DEFINE SUB without LIKE takes; LIKE names another; the
    subscription's identifier and dates are its own."""
    from tests.support import run_mqsh

    script = (
        "ALTER SUB(SYSTEM.DEFAULT.SUB) EXPIRY(600) USERDATA('site') PUBPRTY(5)\n"
        "DEFINE SUB(NEW.SUB) TOPICSTR('prices/fruit') DEST(SYSTEM.DEFAULT.LOCAL.QUEUE) PUBPRTY(2)\n"
        "DEFINE SUB(LIKE.SUB) TOPICSTR('prices/veg') DEST(SYSTEM.DEFAULT.LOCAL.QUEUE) LIKE(NEW.SUB) EXPIRY(7)\n"
        "DISPLAY SUB(LIKE.SUB) EXPIRY USERDATA PUBPRTY\nDISPLAY SUB(NEW.SUB) EXPIRY USERDATA PUBPRTY\n"
        "DISPLAY SUB(SYSTEM.DEFAULT.SUB) EXPIRY\n"
    )
    done = run_mqsh(stdin=f"crtmqm QM1\nstrmqm QM1\n{script}", data_dir=data_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    like, new, _default = done.stdout.split("AMQ8096I: IBM MQ subscription inquired.")[1:]
    assert "USERDATA(site)" in new and "EXPIRY(600)" in new and "PUBPRTY(2)" in new
    assert "USERDATA(site)" in like and "EXPIRY(7)" in like and "PUBPRTY(2)" in like
    subids = [line.split("SUBID(")[1].split(")")[0] for line in done.stdout.splitlines() if "SUBID(" in line]
    assert len(set(subids)) == 3


def test_the_default_objects_own_description_dates_and_name_are_not_what_is_lent(session):
    """DESCR is an attribute like any other (MQ's default objects have a blank one); the dates and
    name are the new object's own."""
    session.execute("LAB CLOCK SET('2026-01-05 09:00:00')")
    assert session.execute("DEFINE QLOCAL(FIRST)").ok
    assert shown_values(session, "DISPLAY QLOCAL(FIRST) DESCR")["DESCR"].strip() == ""
    session.execute("LAB CLOCK SET('2026-02-06 10:00:00')")
    assert session.execute("ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) DESCR('site default')").ok
    session.execute("LAB CLOCK SET('2026-03-07 11:00:00')")
    assert session.execute("DEFINE QLOCAL(Z) MAXDEPTH(9)").ok
    values = shown_values(session, "DISPLAY QLOCAL(Z) DESCR MAXDEPTH CRDATE ALTDATE")
    assert (values["QUEUE"], values["DESCR"], values["MAXDEPTH"]) == ("Z", "site default", "9")
    assert (values["CRDATE"], values["ALTDATE"]) == ("2026-03-07", "2026-03-07")


def test_define_replace_resets_what_it_does_not_state_to_the_default_objects_values(session):
    assert session.execute("ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(100)").ok
    assert session.execute("DEFINE QLOCAL(Z) MAXDEPTH(7) MAXMSGL(1000)").ok
    assert session.execute("DEFINE QLOCAL(Z) MAXMSGL(2000) REPLACE").ok
    values = shown_values(session, "DISPLAY QLOCAL(Z) MAXDEPTH MAXMSGL")
    assert (values["MAXDEPTH"], values["MAXMSGL"]) == ("100", "2000")


def test_without_its_default_object_a_type_is_defined_only_like_another_object(session):
    """MQ needs its default objects ("default objects of these names are required"): DEFINE
    without LIKE is DEFINE LIKE the default object, which is not found. LIKE still works, and
    defining the default object again (as strmqm -c does) gives it the product's values."""
    assert session.execute("DEFINE QLOCAL(OTHER) MAXDEPTH(42)").ok
    assert session.execute("DELETE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)").ok
    refused = session.execute("DEFINE QLOCAL(Z)")
    assert session.render(refused) == "AMQ8147E: IBM MQ object SYSTEM.DEFAULT.LOCAL.QUEUE not found."
    assert not refused.ok and not session.execute("DISPLAY QLOCAL(Z)").ok
    assert session.execute("DEFINE QLOCAL(Z) LIKE(OTHER)").ok
    assert shown_values(session, "DISPLAY QLOCAL(Z) MAXDEPTH")["MAXDEPTH"] == "42"
    assert session.execute("DELETE CHANNEL(SYSTEM.DEF.SVRCONN)").ok
    assert (
        session.render(session.execute("DEFINE CHANNEL(C) CHLTYPE(SVRCONN)"))
        == "AMQ8147E: IBM MQ object SYSTEM.DEF.SVRCONN not found."
    )
    assert session.execute(
        "DEFINE CHANNEL(C) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(X)"
    ).ok  # its own type's is there
    assert session.execute("DEFINE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)").ok
    assert session.execute("DEFINE QLOCAL(Y)").ok
    assert shown_values(session, "DISPLAY QLOCAL(Y) MAXDEPTH")["MAXDEPTH"] == "5000"


def test_strmqm_c_puts_the_default_objects_back_and_what_is_defined_after_takes_the_products_values(data_dir):
    from tests.support import run_mqsh

    script = (
        "ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(100)\nDELETE TOPIC(SYSTEM.DEFAULT.TOPIC)\n"
        "DEFINE QLOCAL(BEFORE)\nendmqm QM1\nstrmqm -c QM1\nstrmqm QM1\nDEFINE QLOCAL(AFTER)\n"
        "DEFINE TOPIC(T) TOPICSTR('a/b')\nDISPLAY QLOCAL(BEFORE) MAXDEPTH\nDISPLAY QLOCAL(AFTER) MAXDEPTH\n"
    )
    done = run_mqsh(stdin=f"crtmqm QM1\nstrmqm QM1\n{script}", data_dir=data_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 failed" in done.stdout and "AMQ8147E" not in done.stdout
    before, after = done.stdout.split("DISPLAY QLOCAL(BEFORE) MAXDEPTH")[1].split(
        "DISPLAY QLOCAL(AFTER) MAXDEPTH"
    )
    assert "MAXDEPTH(100)" in before and "MAXDEPTH(5000)" in after


def test_every_default_object_the_catalogue_names_is_one_crtmqm_creates_with_its_type(session):
    """DEFINE of a type with a default object needs it, so crtmqm must make each one."""
    for spec in (spec for spec in session.catalogue.objects.values() if spec.kind == "object"):
        for key, variant in spec.variants.items():
            if variant.default_object is None:
                continue
            command = f"DISPLAY {spec.name}({variant.default_object})"
            values = shown_values(session, command)
            assert values.get(spec.discriminator, key) == key, command


def test_crtmqm_creates_the_default_subscription_as_mq_does(session):
    """SYSTEM.DEFAULT.SUB, an administrative durable subscription with a blank topic string (IBM MQ
    docs: System and default objects), shown by DISPLAY SUB and DISPLAY SBSTATUS like any other."""
    shown = session.render(session.execute("DISPLAY SUB(SYSTEM.*) ALL"))
    assert "SUB(SYSTEM.DEFAULT.SUB)" in shown
    for attribute in (
        "TOPICSTR( )",
        "TOPICOBJ( )",
        "DEST( )",
        "DURABLE(YES)",
        "SUBTYPE(ADMIN)",
        "SUBSCOPE(ALL)",
    ):
        assert attribute in shown
    status = session.render(session.execute("DISPLAY SBSTATUS(SYSTEM.DEFAULT.SUB) ALL"))
    assert "SUB(SYSTEM.DEFAULT.SUB)" in status and "NUMMSGS(0)" in status
    listed = session.render(session.execute("DISPLAY SUB(*)"))
    assert listed.count("SUB(SYSTEM.DEFAULT.SUB)") == 1
