"""The stories' check of LAB EXPLAIN finds a ledger that does not add up, or adds up to another depth."""

from __future__ import annotations

from tests.stories.explain_check import explained, total

GOOD = """Last recovery of queue manager 'STORY': restart at 2026-01-01 00:00:00, after a crash (LAB CRASH) at x.
Queue Q1: 3 from the queue file + 2 put by the log replayed - 1 got by the log replayed = CURDEPTH(4).
Queue Q1 against the failure: 6 at the failure - 2 non-persistent (never logged) = CURDEPTH(4).
Queue Q3 is damaged: the queue is damaged: rcrmqobj re-creates it from its media image and the log."""


def test_terms_are_summed_with_their_signs():
    assert total("10 from the media image + 5 put by the log replayed - 4 got by the log replayed") == 11
    assert total("6 at the failure - 3 lost (records in S0000002.LOG were passed over)") == 3


def test_a_ledger_that_agrees_passes():
    assert explained({"Q1": 4, "Q2": 0}, {"Q3"}, every_queue=True)(GOOD) is None


def test_a_ledger_that_does_not_add_up_is_found():
    wrong = GOOD.replace("- 1 got", "- 2 got")
    assert "does not add up" in explained({"Q1": 4}, set(), every_queue=False)(wrong)


def test_a_depth_other_than_the_models_is_found():
    assert "the model holds 5" in explained({"Q1": 5}, set(), every_queue=False)(GOOD)


def test_a_queue_left_out_or_a_damaged_one_not_told_is_found():
    assert "no ledger for Q2" in explained({"Q1": 4, "Q2": 1}, set(), every_queue=True)(GOOD)
    assert "Q4 is damaged" in explained({"Q1": 4}, {"Q3", "Q4"}, every_queue=True)(GOOD)


CF = """Shared queue SQ1: 2 from the backup + 3 put since, replayed = CURDEPTH(5).
Structure APP1: 4 from the backup - 2 got or backed out since + 3 put since = 5 messages; 0 non-persistent dropped."""


def test_a_structures_ledgers_that_agree_pass_and_others_are_found():
    from tests.stories.explain_check import cf_explained

    assert cf_explained({"SQ1": 5, "SQ2": 0}, 5)(CF) is None
    assert "the model holds {'SQ1': 4}" in cf_explained({"SQ1": 4}, 5)(CF)
    assert "the model holds 6 messages" in cf_explained({"SQ1": 5}, 6)(CF)
    assert "does not add up" in cf_explained({"SQ1": 5}, 5)(
        CF.replace("+ 3 put since, replayed", "+ 2 put since, replayed")
    )
