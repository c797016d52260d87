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
