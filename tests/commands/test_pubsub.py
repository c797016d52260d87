"""DISPLAY PUBSUB: the local engine's state, from PSMODE, and what is defined in the topic tree."""

from __future__ import annotations

import pytest

from mqsh.commands.pubsub import topic_nodes


def test_topic_nodes_are_every_level_of_every_string():
    assert topic_nodes(["a/b/c", "a/b", "x", ""]) == {"a", "a/b", "a/b/c", "x"}


def local(session, text="DISPLAY PUBSUB"):
    result = session.execute(text)
    assert result.ok, session.render(result)
    assert len(result.responses) == 1
    return dict(result.responses[0].attributes)


def test_the_local_engine_counts_subscriptions_and_topic_nodes(session):
    before = local(session)
    assert before["QMNAME"] == "QM1" and before["TYPE"] == "LOCAL" and before["STATUS"] == "ACTIVE"
    assert session.execute("DEFINE TOPIC(PRICES) TOPICSTR('prices/fruit') TYPE(LOCAL)").ok
    assert session.execute(
        "DEFINE SUB(S1) TOPICSTR('prices/fruit/apples') DEST(SYSTEM.DEFAULT.LOCAL.QUEUE)"
    ).ok
    after = local(session, "DISPLAY PUBSUB TYPE(LOCAL) ALL")
    assert after["SUBCOUNT"] == str(int(before["SUBCOUNT"]) + 1)
    assert int(after["TPCOUNT"]) >= int(before["TPCOUNT"]) + 3  # prices, prices/fruit, prices/fruit/apples


@pytest.mark.parametrize(
    "mode, status", [("COMPAT", "COMPAT"), ("DISABLED", "INACTIVE"), ("ENABLED", "ACTIVE")]
)
def test_status_follows_psmode(session, mode, status):
    assert session.execute(f"ALTER QMGR PSMODE({mode})").ok
    assert local(session, "DISPLAY PUBSUB STATUS") == {"QMNAME": "QM1", "TYPE": "LOCAL", "STATUS": status}


@pytest.mark.parametrize("kind", ["CHILD", "PARENT"])
def test_no_hierarchy_connection_exists(session, kind):
    result = session.execute(f"DISPLAY PUBSUB TYPE({kind})")
    assert not result.ok and result.responses[0].msgid == "AMQ8724E"
