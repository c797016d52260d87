"""The oracle itself: it splits a report by command, catches a wrong answer and a broken shell, and
shrinks a disagreeing story to the actions that make it disagree."""

from __future__ import annotations

from tests.stories.oracle import (
    Expect,
    browsed,
    depth_between,
    depth_is,
    holds,
    holds_with,
    says,
    split_answers,
    tell,
)

REPORT = """mqsh 0.1.0 - MQSC for modelled IBM MQ queue managers (runmqsc-compatible report)
Starting MQSC for queue manager QM1.


     1 : DEFINE QLOCAL(A)
AMQ8006I: IBM MQ queue created.
       : * a comment
     2 : LAB BROWSE QUEUE(A)
No messages on queue A.
2 MQSC commands read.
No commands have a syntax error.
All valid MQSC commands were processed.
"""


def test_the_report_splits_into_each_commands_answer():
    assert split_answers(REPORT, 3) == [
        "AMQ8006I: IBM MQ queue created.\n       : * a comment",
        "No messages on queue A.",
        "",
    ]


def test_checks_accept_the_right_answer_and_name_what_is_wrong():
    assert depth_is(2)("   CURDEPTH(2)") is None
    assert "got CURDEPTH(3)" in depth_is(2)("   CURDEPTH(3)")
    listing = (
        "2 message(s) on queue Q1, in the order a get takes them:\n"
        "     1  MSGID(AB)  PERSISTENT(YES)  SIZE(101)  PRIORITY(0)  PUTTIME(x)\n"
        "     2  MSGID(AC)  PERSISTENT(NO)  SIZE(102)  PRIORITY(0)  PUTTIME(x)"
    )
    assert browsed(listing) == [(101, True), (102, False)]
    assert holds([(101, True), (102, False)])(listing) is None
    assert "missing" in holds([(101, True)])(listing)
    assert "wrong order" in holds([(102, False), (101, True)])(listing)
    assert "browse failed" in holds([])("MQGET ended with reason code 2085 (MQRC_UNKNOWN_OBJECT_NAME).")


class Counting:
    """A family whose model is wrong once a story holds a third put: the oracle must say so, and
    shrink the story to three puts."""

    name = "counting"

    def story(self, rng):
        return [("put", rng.randint(0, 9)) for _ in range(rng.randint(5, 9))]

    def script(self, actions):
        expects = [
            Expect("crtmqm C"),
            Expect("strmqm C"),
            Expect("LAB USE QMGR(C)"),
            Expect("DEFINE QLOCAL(Q)"),
        ]
        for number, _action in enumerate(actions, 1):
            expects.append(Expect("LAB PUT QUEUE(Q)"))
            expects.append(Expect("DISPLAY QLOCAL(Q) CURDEPTH", depth_is(min(number, 2))))
        return expects


def test_a_wrong_model_is_caught_and_shrunk_to_a_script_that_replays_it(tmp_path):
    found = tell(Counting(), 5, workdir=tmp_path, keep_to=tmp_path)
    assert found is not None and "expected CURDEPTH(2), got CURDEPTH(3)" in found.why
    assert len(found.actions) == 3 and found.command == "DISPLAY QLOCAL(Q) CURDEPTH"
    script = found.script_path.read_text().splitlines()
    assert script[0].startswith("* counting story, seed 5") and script.count("LAB PUT QUEUE(Q)") == 3


class CountingWithALaterSlip(Counting):
    """Counting's wrong model, and a second one at the story's end that every story shorter than
    three puts trips over: shrinking must keep the first finding, not trade it for the second."""

    def script(self, actions):
        return super().script(actions) + [Expect("DISPLAY QUEUE(Q) CURDEPTH", depth_is(len(actions) + 1))]


def test_shrinking_keeps_the_disagreement_the_story_found(tmp_path):
    found = tell(CountingWithALaterSlip(), 5, workdir=tmp_path, keep_to=tmp_path)
    assert found is not None and "expected CURDEPTH(2), got CURDEPTH(3)" in found.why
    assert len(found.actions) == 3 and found.command == "DISPLAY QLOCAL(Q) CURDEPTH"


def test_a_story_the_shell_breaks_on_is_a_disagreement(tmp_path, monkeypatch):
    from mqsh.lab import controls

    def broken(ctx, command):
        raise RuntimeError("boom")

    monkeypatch.setitem(controls.NEEDS_QMGR, "BROWSE", broken)

    class Browsing(Counting):
        def script(self, actions):
            return [
                Expect("crtmqm C"),
                Expect("strmqm C"),
                Expect("LAB USE QMGR(C)"),
                Expect("DEFINE QLOCAL(Q)", says("AMQ8006I")),
                Expect("LAB BROWSE QUEUE(Q)"),
            ]

    found = tell(Browsing(), 1, workdir=tmp_path, keep_to=tmp_path)
    assert found is not None and "broke" in found.why


BROWSE_TWO = (
    "2 message(s) on queue Q, in the order a get takes them:\n"
    "     1  MSGID(AA)  PERSISTENT(YES)  SIZE(101)  PRIORITY(0)  PUTTIME(2026-05-01T09:00:00)\n"
    "     2  MSGID(BB)  PERSISTENT(YES)  SIZE(102)  PRIORITY(0)  PUTTIME(2026-05-01T09:00:00)"
)


def test_messages_on_their_way_may_be_there_and_arrived_ones_must():
    assert holds_with([(101, True)], lambda: [], lambda: [(102, True)])(BROWSE_TWO) is None
    assert holds_with([(101, True)], lambda: [(102, True)], lambda: [])(BROWSE_TWO) is None
    assert "unexpected [(102, True)]" in holds_with([(101, True)], lambda: [], lambda: [])(BROWSE_TWO)
    assert "persistent) [(103, True)]" in holds_with(
        [], lambda: [(103, True)], lambda: [(101, True), (102, True)]
    )(BROWSE_TWO)
    assert "wrong order" in holds_with([(102, True), (101, True)], lambda: [], lambda: [])(BROWSE_TWO)
    assert depth_between(lambda: 1, lambda: 2)("   CURDEPTH(2)") is None
    assert "from 1 to 2" in depth_between(lambda: 1, lambda: 2)("   CURDEPTH(3)")
