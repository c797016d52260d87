"""The prompt: the current queue manager, or MQPROMPT with its +NAME+ inserts."""

from __future__ import annotations

import socket

from mqsh.shell.prompt import PROMPT_LIMIT, prompt_text


def test_default_prompt_names_the_queue_manager():
    assert prompt_text("QM1", {}) == "QM1> "
    assert prompt_text(None, {}) == "mqsh> "


def test_mqprompt_inserts():
    environ = {"MQPROMPT": "+USER+ @ +QMNAME+ @ +MQ_HOST_NAME+> ", "USER": "ann"}
    assert prompt_text("QM1", environ) == f"ann @ QM1 @ {socket.gethostname()}> "


def test_mqprompt_plain_and_unknown_inserts():
    assert prompt_text("QM1", {"MQPROMPT": "MQSC"}) == "MQSC"
    assert prompt_text("QM1", {"MQPROMPT": "+NOT_SET+> "}) == "> "


def test_mqprompt_too_long_once_expanded_is_used_as_written():
    environ = {"MQPROMPT": "+BIG+" + "x" * 10, "BIG": "y" * PROMPT_LIMIT}
    assert prompt_text("QM1", environ) == "+BIG+" + "x" * 10
