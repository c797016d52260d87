"""Channel authentication records deciding whether an inbound channel starts, and as whom."""

from __future__ import annotations

import pytest

from mqsh.model.network import inbound
from mqsh.model.network.inbound import address_matches, check, process_user, profile_matches
from mqsh.model.network.topology import default_address
from tests.model.network.conftest import depth, run

CHANNEL = "QM1.TO.QM2"
PROD, DR = "10.1.0.5", "10.2.0.7"


@pytest.fixture
def qm2(linked):
    """QM2, receiving QM1.TO.QM2, with the default rules crtmqm creates; commands go to it."""
    run(linked, "LAB USE QMGR(QM2)")
    return linked


def verdict(session, address=PROD, partner="QM1", channel=CHANNEL):
    return check(session.installation.connect("QM2"), channel, partner, address)


def refused(session, **kwargs):
    found = verdict(session, **kwargs)
    assert not found.accepted
    return found.refusal


def test_with_the_default_rules_a_receiver_runs_as_the_user_its_mca_runs_under(qm2):
    found = verdict(qm2)
    assert found.accepted and found.user == process_user() and found.warnings == ()
    run(qm2, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) MCAUSER('mqapp')")
    assert verdict(qm2).user == "mqapp"


def test_the_default_blockuser_rule_leaves_queue_manager_channels_alone_but_blocks_privileged_clients(qm2):
    # MQ: BLOCKUSER "only applies to SVRCONN channels and not queue manager to queue manager channels"
    run(qm2, f"ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) MCAUSER('mqm')")
    assert verdict(qm2).accepted and verdict(qm2).user == "mqm"
    run(qm2, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('mqm')")
    refusal = refused(qm2, channel="APP.SVRCONN")
    assert refusal.receiver.msgid == "AMQ9776E" and refusal.receiver.text == "Channel was blocked by userid"
    assert (
        "'MCAUSER(mqm)'" in refusal.receiver.explanation
        and f"from address '{PROD}'" in refusal.receiver.explanation
    )
    run(qm2, "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('appuser')")
    assert verdict(qm2, channel="APP.SVRCONN").accepted
    # a more specific BLOCKUSER profile replaces the default one for its channels
    run(
        qm2,
        "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('mqm')",
        "SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('nobody')",
    )
    assert verdict(qm2, channel="APP.SVRCONN").accepted


def test_the_default_rule_refuses_system_channels(qm2):
    run(qm2, "DEFINE CHANNEL(SYSTEM.QM1.RCVR) CHLTYPE(RCVR)")
    refusal = refused(qm2, channel="SYSTEM.QM1.RCVR")
    assert refusal.receiver.msgid == "AMQ9777E" and refusal.receiver.text == "Channel was blocked"
    assert refusal.receiver.explanation == (
        f"The inbound channel 'SYSTEM.QM1.RCVR' was blocked from address '{PROD}' because the active values of the "
        "channel matched a record configured with USERSRC(NOACCESS). The active values of the channel were "
        f"'QMNAME(QM1) ADDRESS({PROD})'."
    )
    assert "DISPLAY CHLAUTH" in refusal.receiver.action
    told = refusal.sender("SYSTEM.QM1.RCVR", "qm2(1414)")
    assert (
        told.msgid == "AMQ9558E"
        and told.text == "Remote Channel 'SYSTEM.QM1.RCVR' is not currently available."
    )


def test_blockaddr_refuses_before_the_channel_is_known_and_names_no_channel(qm2):
    run(qm2, "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.9.*','10.1.0.1-9')")
    refusal = refused(qm2)
    assert refusal.receiver.msgid == "AMQ9782E" and refusal.receiver.text == "Remote connection blocked."
    assert PROD in refusal.receiver.explanation and CHANNEL not in refusal.receiver.explanation
    assert refused(qm2, channel="NOT.DEFINED.HERE").receiver.msgid == "AMQ9782E"
    told = refusal.sender(CHANNEL, "qm2(1414)")
    assert told.msgid == "AMQ9208E" and told.text == "Error on receive from host 'qm2(1414)'."
    assert verdict(qm2, address="10.1.0.10").accepted and verdict(qm2, address="10.8.0.5").accepted
    # even a mapping that would let the channel in comes too late
    run(qm2, f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(MAP) MCAUSER('mqapp')")
    assert refused(qm2).receiver.msgid == "AMQ9782E"


def test_mapping_records_set_the_user_or_refuse(qm2):
    run(qm2, f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(MAP) MCAUSER('fromqm1')")
    assert verdict(qm2).user == "fromqm1"
    assert verdict(qm2, partner="QM9").user == process_user()  # the record is for QM1 only
    run(qm2, f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(NOACCESS) ACTION(REPLACE)")
    assert refused(qm2).receiver.msgid == "AMQ9777E"
    run(
        qm2,
        f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(CHANNEL) ACTION(REPLACE)",
        f"ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) MCAUSER('ownuser')",
    )
    assert verdict(qm2).user == "ownuser"  # USERSRC(CHANNEL): the channel's own MCAUSER


def test_the_most_specific_record_wins(qm2):
    run(qm2, "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)")
    assert refused(qm2).receiver.msgid == "AMQ9777E"
    run(qm2, "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(MAP) MCAUSER('prodnet')")
    assert verdict(qm2).user == "prodnet" and not verdict(qm2, address=DR).accepted
    run(qm2, "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('10.1.0.5') USERSRC(MAP) MCAUSER('thishost')")
    assert verdict(qm2).user == "thishost" and verdict(qm2, address="10.1.0.6").user == "prodnet"
    # for one profile, a queue manager map comes before an address map
    run(qm2, "SET CHLAUTH('*') TYPE(QMGRMAP) QMNAME('QM*') USERSRC(MAP) MCAUSER('anyqm')")
    assert verdict(qm2).user == "anyqm" and verdict(qm2, address=DR).user == "anyqm"
    run(qm2, "SET CHLAUTH('*') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(MAP) MCAUSER('qm1') ADDRESS('10.1.*')")
    assert verdict(qm2).user == "qm1" and verdict(qm2, partner="QM3").user == "anyqm"
    # and a more specific channel profile before any record of a generic one
    run(qm2, "SET CHLAUTH('QM1.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(MAP) MCAUSER('qm1chls')")
    assert verdict(qm2).user == "qm1chls"
    run(qm2, f"SET CHLAUTH('{CHANNEL}') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)")
    assert refused(qm2).receiver.msgid == "AMQ9777E"


def test_warn_yes_lets_the_channel_start_and_says_what_would_have_been_blocked(qm2):
    run(qm2, f"SET CHLAUTH('{CHANNEL}') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(NOACCESS) WARN(YES)")
    found = verdict(qm2)
    assert found.accepted and found.user == process_user()
    (warning,) = found.warnings
    assert warning.msgid == inbound.WARNING_ID and "would have been blocked" in warning.explanation
    assert PROD in warning.explanation and CHANNEL in warning.explanation
    run(qm2, "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.0.5') WARN(YES)")
    assert verdict(qm2).accepted and len(verdict(qm2).warnings) == 2
    run(qm2, "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.0.5') WARN(NO) ACTION(REPLACE)")
    assert refused(qm2).receiver.msgid == "AMQ9782E"


def test_chlauth_disabled_checks_nothing(qm2):
    run(
        qm2,
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('*')",
        f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(MAP) MCAUSER('mapped')",
    )
    assert not verdict(qm2).accepted
    run(qm2, "ALTER QMGR CHLAUTH(DISABLED)")
    found = verdict(qm2)
    assert found.accepted and found.user == process_user() and found.warnings == ()


def test_prod_accepts_only_prod_addresses(qm2):
    """Seed 003's commenters: every receiver has a user that cannot run anything, and records
    in production replace it with a valid one only for production queue managers' addresses;
    here, with MQ's own idiom, everything else is refused outright."""
    run(
        qm2,
        f"ALTER CHANNEL({CHANNEL}) CHLTYPE(RCVR) MCAUSER('NOTALLOWED')",
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(MAP) MCAUSER('mqprod')",
    )
    assert verdict(qm2).user == "mqprod"
    assert (
        verdict(qm2, address=DR).user == "NOTALLOWED"
    )  # runs, as a user the OAM would stop at its first put
    run(qm2, "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)")
    assert verdict(qm2).user == "mqprod"
    assert refused(qm2, address=DR).receiver.explanation.endswith(f"'QMNAME(QM1) ADDRESS({DR})'.")


def test_dr_blocks_prod_addresses(qm2):
    """The other scheme: the disaster-recovery site refuses anything from production's network,
    so a restored queue manager cannot be reached by production's senders."""
    run(
        qm2,
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(NOACCESS)",
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('10.2.*') USERSRC(MAP) MCAUSER('mqdr')",
    )
    assert refused(qm2).receiver.msgid == "AMQ9777E"
    assert verdict(qm2, address=DR).user == "mqdr"
    run(qm2, "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.*')")
    assert refused(qm2).receiver.msgid == "AMQ9782E" and verdict(qm2, address=DR).accepted


def test_generic_names_and_addresses():
    assert profile_matches("*", "ANY") and profile_matches("QM1.*", "QM1.TO.QM2")
    assert profile_matches("*.TO.*", "A.TO.B")
    assert not profile_matches("QM1.*", "QM2.TO.QM1") and not profile_matches("QM1", "QM1.X")
    assert profile_matches("QM1.TO.QM2", "QM1.TO.QM2") and not profile_matches("qm1.to.qm2", "QM1.TO.QM2")
    assert address_matches("*", "192.0.2.1") and address_matches("192.0.2.*", "192.0.2.1")
    assert address_matches("192.0.*", "192.0.2.1") and address_matches("192.*.1", "192.0.2.1")
    assert address_matches("192.0.*.1-8", "192.0.2.8") and not address_matches("192.0.*.1-8", "192.0.2.9")
    assert not address_matches("192.0.2.*", "192.0.3.1") and not address_matches("192.0.2", "192.0.2.1")
    assert not address_matches("prodhost", "192.0.2.1")


def test_a_refused_channel_retries_and_both_ends_say_why_once(linked):
    run(
        linked,
        "LAB SITE QMGR(QM1) ADDRESS(10.1.0.5)",
        "LAB USE QMGR(QM2)",
        f"SET CHLAUTH('{CHANNEL}') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(NOACCESS)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) COUNT(3) PERSISTENT",
        f"START CHANNEL({CHANNEL})",
        "LAB CLOCK ADVANCE(1M)",
    )
    shown = linked.render(linked.execute(f"DISPLAY CHSTATUS({CHANNEL}) STATUS"))
    assert (
        "STATUS(RETRYING)" in shown
        and depth(linked, "QM1", "QM2") == 3
        and depth(linked, "QM2", "APP.IN") == 0
    )
    sender_log = linked.installation.connect("QM1").errors.read()
    receiver_log = linked.installation.connect("QM2").errors.read()
    assert sender_log.count(f"AMQ9558E: Remote Channel '{CHANNEL}' is not currently available.") == 1
    assert receiver_log.count("AMQ9777E: Channel was blocked") == 1
    assert "blocked from address '10.1.0.5'" in receiver_log
    run(linked, "LAB USE QMGR(QM2)")
    assert "Channel Status not found" in linked.render(linked.execute(f"DISPLAY CHSTATUS({CHANNEL})"))
    # a queue manager map for the same profile comes before the address map: the next try
    # starts the channel, running as the user the map names
    run(linked, f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(MAP) MCAUSER('fromqm1')")
    assert depth(linked, "QM2", "APP.IN") == 0  # the sender tries again when its retry falls due
    run(linked, "LAB CLOCK ADVANCE(1M)")
    assert depth(linked, "QM2", "APP.IN") == 3 and depth(linked, "QM1", "QM2") == 0
    shown = linked.render(linked.execute(f"DISPLAY CHSTATUS({CHANNEL}) MCAUSER"))
    assert "MCAUSER(fromqm1)" in shown and "STATUS(RUNNING)" in shown and "CONNAME(10.1.0.5)" in shown
    # records changed while the channel runs do not touch it: they apply when it next starts
    run(
        linked,
        f"SET CHLAUTH('{CHANNEL}') TYPE(QMGRMAP) QMNAME('QM1') USERSRC(NOACCESS) ACTION(REPLACE)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
    )
    assert depth(linked, "QM2", "APP.IN") == 4


def test_a_conname_may_name_the_host_by_its_address(linked):
    run(
        linked,
        f"ALTER CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('{default_address('qm2')}(1414)')",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        f"START CHANNEL({CHANNEL})",
    )
    assert depth(linked, "QM2", "APP.IN") == 1


def test_a_record_in_warning_mode_lets_the_channel_run_and_the_receiver_says_so_once(linked):
    run(
        linked,
        "LAB SITE QMGR(QM1) ADDRESS(10.1.0.5)",
        "LAB USE QMGR(QM2)",
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.0.5') WARN(YES)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) COUNT(2) PERSISTENT",
        f"START CHANNEL({CHANNEL})",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
    )
    assert depth(linked, "QM2", "APP.IN") == 3
    receiver_log = linked.installation.connect("QM2").errors.read()
    assert receiver_log.count(f"{inbound.WARNING_ID}: Channel would have been blocked.") == 1
