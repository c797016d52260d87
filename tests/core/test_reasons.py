"""Every reason code the model gives an application is named as MQ names it."""

from __future__ import annotations

import re
from pathlib import Path

from mqsh.core import reasons
from mqsh.core.reasons import REASONS, MQError

PACKAGE = Path(__file__).resolve().parent.parent.parent / "mqsh"


def test_a_put_to_a_put_inhibited_cluster_queue_names_its_reason():
    assert MQError(2268).report("MQPUT") == "MQPUT ended with reason code 2268 (MQRC_CLUSTER_PUT_INHIBITED)."


def test_every_reason_code_is_raised_by_its_name():
    bare = sorted(
        f"{path.name}: {code}"
        for path in PACKAGE.rglob("*.py")
        for code in re.findall(r"MQError\(\s*(\d{4})", path.read_text())
    )
    assert not bare, bare


def test_no_two_names_share_a_code():
    names = [name for name in vars(reasons) if name.startswith("MQRC_")]
    assert len(names) == len(REASONS), sorted(names)


def test_names_are_ibms():
    assert (
        REASONS[reasons.MQRC_NO_MSG_AVAILABLE] == "MQRC_NO_MSG_AVAILABLE"
        and reasons.MQRC_NO_MSG_AVAILABLE == 2033
    )
