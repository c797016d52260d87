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
