"""A sender's retries: SHORTRTY tries SHORTTMR apart, then LONGRTY tries LONGTMR apart, then STOPPED."""

from __future__ import annotations

from datetime import datetime, timedelta

from mqsh.model.network import retry
from mqsh.model.network.state import RETRYING, RUNNING, SENDER, ChannelState
from tests.model.network.conftest import depth, run

T0 = datetime(2026, 5, 1, 9, 0, 0)
POLICY = retry.RetryPolicy.of({"SHORTRTY": 3, "SHORTTMR": 60, "LONGRTY": 2, "LONGTMR": 1200})


def sender() -> ChannelState:
    return ChannelState(SENDER, RETRYING, T0)


def test_the_first_failure_takes_a_short_try_and_the_next_comes_shorttmr_later():
    state = sender()
    assert retry.remaining(state, POLICY) == (3, 2)  # never failed: in full
    assert retry.failed(state, POLICY, T0)
    assert (state.short_left, state.long_left, state.next_try) == (2, 2, T0 + timedelta(seconds=60))
    assert not retry.due(state, T0 + timedelta(seconds=59)) and retry.due(state, T0 + timedelta(seconds=60))


def test_the_short_tries_then_the_long_ones_then_the_end():
    state = sender()
    retry.failed(state, POLICY, T0)
    moments = []
    while retry.failed(state, POLICY, state.next_try):
        moments.append(((state.next_try - T0).total_seconds(), state.short_left, state.long_left))
    # short tries at 60 and 120 s; long ones 1200 s after the last short one, and again
    assert moments == [(120, 1, 2), (1320, 0, 2), (2520, 0, 1)]
    assert state.next_try is None and (state.short_left, state.long_left) == (0, 0)


def test_tries_that_fell_due_between_two_turns_are_counted_as_made():
    state = sender()
    retry.failed(state, POLICY, T0)  # next at 60 s, two short tries left
    # 2,000 s later: the short tries at 60 and 120 s and the long one at 1,320 s all failed
    assert retry.failed(state, POLICY, T0 + timedelta(seconds=2000))
    assert (state.short_left, state.long_left) == (0, 1)
    assert state.next_try == T0 + timedelta(seconds=2520)
    assert not retry.failed(state, POLICY, T0 + timedelta(days=1))  # the last one too: the channel ends


def test_a_connection_gives_the_counts_back_in_full():
    state = sender()
    retry.failed(state, POLICY, T0)
    retry.connected(state, POLICY)
    assert state.next_try is None and retry.remaining(state, POLICY) == (3, 2)


def test_bad_or_missing_attributes_take_mqs_defaults():
    policy = retry.RetryPolicy.of({"SHORTRTY": "x", "LONGTMR": -5})
    assert policy == retry.RetryPolicy(10, timedelta(seconds=60), 999_999_999, timedelta(seconds=0))


def test_zero_intervals_make_every_try_at_once():
    policy = retry.RetryPolicy.of({"SHORTRTY": 3, "SHORTTMR": 0, "LONGRTY": 0, "LONGTMR": 0})
    state = sender()
    assert retry.failed(state, policy, T0) and state.next_try == T0
    assert not retry.failed(state, policy, T0)  # both short tries left fall due now and fail


def shown(session, *fields: str) -> dict:
    response = session.execute(f"DISPLAY CHSTATUS(QM1.TO.QM2) {' '.join(fields)}").responses[0]
    return dict(response.attributes)


def test_a_channel_out_of_retries_stops_until_started_again(linked):
    run(
        linked,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) SHORTRTY(2) SHORTTMR(10) LONGRTY(1) LONGTMR(30)",
        "LAB USE QMGR(QM2)",
        "STOP LISTENER(L1)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert (shown(linked, "SHORTRTS", "LONGRTS")["SHORTRTS"], shown(linked, "LONGRTS")["LONGRTS"]) == (
        "1",
        "1",
    )
    run(linked, "LAB CLOCK ADVANCE(10S)")  # the last short try
    assert shown(linked, "SHORTRTS")["SHORTRTS"] == "0" and shown(linked)["STATUS"] == RETRYING
    run(linked, "LAB CLOCK ADVANCE(29S)")
    assert shown(linked)["STATUS"] == RETRYING
    run(linked, "LAB CLOCK ADVANCE(1S)")  # the long try, 30 s after the last short one, fails too
    assert shown(linked)["STATUS"] == "STOPPED"
    log = linked.installation.connect("QM1").errors.read()
    assert "AMQ9999E: Channel 'QM1.TO.QM2' to host 'qm2(1414)' ended abnormally." in log
    assert "made all its short and long retries" in log
    assert log.count("AMQ9202E") == 1  # the cause is written once, not at every try
    # stopped, it tries no more, whatever the clock does; START makes it try at once
    run(linked, "LAB USE QMGR(QM2)", "START LISTENER(L1)", "LAB USE QMGR(QM1)", "LAB CLOCK ADVANCE(1H)")
    assert shown(linked)["STATUS"] == "STOPPED" and depth(linked, "QM2", "APP.IN") == 0
    run(linked, "START CHANNEL(QM1.TO.QM2)")
    assert shown(linked, "SHORTRTS", "LONGRTS")["STATUS"] == RUNNING and depth(linked, "QM2", "APP.IN") == 1
    assert (shown(linked, "SHORTRTS")["SHORTRTS"], shown(linked, "LONGRTS")["LONGRTS"]) == ("2", "1")


def test_stop_and_start_make_a_retrying_channel_try_at_once(linked):
    run(
        linked,
        "LAB USE QMGR(QM2)",
        "STOP LISTENER(L1)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB USE QMGR(QM2)",
        "START LISTENER(L1)",
        "LAB USE QMGR(QM1)",
    )
    assert shown(linked)["STATUS"] == RETRYING
    refused = linked.execute("START CHANNEL(QM1.TO.QM2)")  # its agent still waits to retry: in use
    assert linked.render(refused) == "AMQ9514E: Channel 'QM1.TO.QM2' is in use."
    run(linked, "STOP CHANNEL(QM1.TO.QM2)", "START CHANNEL(QM1.TO.QM2)")
    assert shown(linked)["STATUS"] == RUNNING and depth(linked, "QM2", "APP.IN") == 1
