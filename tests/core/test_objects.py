"""Objects in the model: a name no object file can hold never gets into the log or the state."""

from __future__ import annotations

import pytest

from tests.recovery.helpers import qmgr, run


@pytest.mark.parametrize("name", ["", None])
def test_an_object_without_a_name_is_refused_before_it_is_logged(session, name):
    model = qmgr(session)
    before = dict(model.state)
    with pytest.raises(ValueError):
        model.save_object("SUB", "SUB", name, {"TOPICSTR": "a"})
    assert model.state == before
    assert run(session, "DEFINE QLOCAL(AFTER)")[-1].startswith("AMQ8006I")
    assert run(session, "endmqm QM1", "strmqm QM1")[-1].startswith("IBM MQ queue manager 'QM1' started")


def test_a_subscription_with_the_longest_name_mq_allows_is_kept_across_a_restart(session):
    name = "S" * 10240
    assert run(session, f"DEFINE SUB('{name}') TOPICSTR('a/b') DEST(X)")[-1].startswith("AMQ8094I")
    assert session.execute("DEFINE QLOCAL(AFTER)").ok
    assert run(session, "endmqm QM1", "strmqm QM1")[-1].startswith("IBM MQ queue manager 'QM1' started")
    assert any(line.startswith("AMQ8096I") for line in run(session, f"DISPLAY SUB('{name}')"))


def test_a_long_named_subscription_whose_file_is_lost_is_damaged_under_its_own_name(session, data_dir):
    name = "S" * 300
    run(session, f"DEFINE SUB('{name}') TOPICSTR('a/b') DEST(X)", "endmqm QM1")
    assert run(session, f"LAB DAMAGE SUB('{name}') HOW(TRUNCATE)")[0].startswith("File of SUB(")
    started = "\n".join(run(session, "strmqm QM1"))
    assert f"Object {name}, type durable subscription" in started and "damaged" in started
