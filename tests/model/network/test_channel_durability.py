"""No persistent message is lost or doubled on a channel, whatever is cut or killed.

Random runs of puts, channel stops and starts, network cuts and joins, and crashes of either
queue manager, with kills injected between the steps of a batch (after the sender's unit, in
the middle of the receiver's, after the receiver's): at the end every persistent message the
puts acknowledged is on the target queue exactly once.
"""

from __future__ import annotations

import random

import pytest

from mqsh.model.network import transfer
from tests.model.network.conftest import depth, run
from tests.support import Killed, kill_sometimes

pytestmark = pytest.mark.slow


def restart(session, *qmgrs: str) -> None:
    for name in qmgrs:
        session.installation.crash(name)
    for name in qmgrs:
        run(session, f"strmqm {name}")
    run(session, "LAB USE QMGR(QM1)")


def recover(session) -> None:
    """Both queue managers restart after a kill, and the sender is started again (which may be
    killed in its turn)."""
    while True:
        restart(session, "QM1", "QM2")
        try:
            session.execute("START CHANNEL(QM1.TO.QM2)")
            return
        except Killed:
            continue


@pytest.mark.parametrize("seed", range(40))
def test_random_cuts_and_kills_lose_or_double_no_persistent_message(linked, monkeypatch, seed):
    rng = random.Random(seed)
    for step in ("deliver", "_arrive", "_forget"):
        monkeypatch.setattr(transfer, step, kill_sometimes(rng, getattr(transfer, step), 0.08))
    acknowledged = maybe = 0
    run(linked, "LAB SITE QMGR(QM2) SITE(DR)", "START CHANNEL(QM1.TO.QM2)")
    for _ in range(30):
        action = rng.choice(
            [
                "put",
                "put",
                "put",
                "cut",
                "join",
                "stop",
                "start",
                "crash1",
                "crash2",
                "receiver",
                "wait",
                "wait",
            ]
        )
        count = rng.randint(1, 12)
        persistent = rng.random() < 0.7
        try:
            if action == "put":
                run(linked, f"LAB PUT QUEUE(APP.OUT) COUNT({count}) {'' if persistent else 'NON'}PERSISTENT")
                acknowledged += count if persistent else 0
            elif action in ("cut", "join"):
                run(linked, f"LAB NETWORK {action.upper()} SITES(MAIN,DR)")
            elif action == "wait":  # a retrying sender tries again once SHORTTMR has passed
                run(linked, "LAB CLOCK ADVANCE(1M)")
            elif action in ("stop", "start"):
                linked.execute(f"{action.upper()} CHANNEL(QM1.TO.QM2)")
            elif action == "receiver":
                run(linked, "LAB USE QMGR(QM2)")
                linked.execute(rng.choice(["STOP", "START"]) + " CHANNEL(QM1.TO.QM2)")
                run(linked, "LAB USE QMGR(QM1)")
            else:
                restart(linked, "QM1" if action == "crash1" else "QM2")
                linked.execute("START CHANNEL(QM1.TO.QM2)")
        except Killed:
            # A put whose command was killed after it was logged, before its answer: it may stay.
            maybe += count if action == "put" and persistent else 0
            recover(linked)
    monkeypatch.undo()
    run(linked, "LAB NETWORK JOIN SITES(MAIN,DR)", "LAB USE QMGR(QM2)")
    linked.execute("START CHANNEL(QM1.TO.QM2)")
    run(linked, "LAB USE QMGR(QM1)")
    linked.execute("START CHANNEL(QM1.TO.QM2)")
    run(linked, "LAB CLOCK ADVANCE(1M)")
    arrived = linked.installation.connect("QM2").lookup("QUEUE", "APP.IN").messages
    ids = [message.msgid for message in arrived]
    assert len(ids) == len(set(ids)), "a message arrived twice"
    persistent_count = sum(1 for message in arrived if message.persistent)
    assert acknowledged <= persistent_count <= acknowledged + maybe
    assert depth(linked, "QM1", "QM2") == 0 and depth(linked, "QM1", "SYSTEM.CHANNEL.SYNCQ") == 0
