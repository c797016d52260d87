"""Every reason code the model gives an application is named as MQ names it."""

from __future__ import annotations

import re
from pathlib import Path

from mqsh.core.reasons import REASONS, MQError

PACKAGE = Path(__file__).resolve().parent.parent.parent / "mqsh"


def test_a_put_to_a_put_inhibited_cluster_queue_names_its_reason():
    assert MQError(2268).report("MQPUT") == "MQPUT ended with reason code 2268 (MQRC_CLUSTER_PUT_INHIBITED)."


def test_every_reason_code_raised_has_a_name():
    raised = {int(code) for path in PACKAGE.rglob("*.py")
              for code in re.findall(r"MQError\(\s*(\d{4})", path.read_text())}
    assert raised and raised <= REASONS.keys(), sorted(raised - REASONS.keys())
