"""The prompt text: the current queue manager, or runmqsc's MQPROMPT when it is set.

MQPROMPT may hold +NAME+ inserts: MQ's own (QMNAME, MQ_HOST_NAME, MQ_FILE_SEP,
MQ_PATH_SEP, MQ_DATE_TIME) or any environment variable. Like runmqsc, a prompt
longer than 256 characters once expanded is used unexpanded, cut to 256.
"""

from __future__ import annotations

import datetime
import os
import re
import socket
from collections.abc import Mapping

PROMPT_LIMIT = 256
_INSERT = re.compile(r"\+([A-Za-z_][A-Za-z0-9_]*)\+")


def _inserts(qmgr: str | None, environ: Mapping[str, str]) -> dict[str, str]:
    return {
        **environ,
        "QMNAME": qmgr or "",
        "MQ_HOST_NAME": socket.gethostname(),
        "MQ_FILE_SEP": os.sep,
        "MQ_PATH_SEP": os.pathsep,
        "MQ_DATE_TIME": datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
    }


def prompt_text(qmgr: str | None, environ: Mapping[str, str] | None = None) -> str:
    environ = os.environ if environ is None else environ
    template = environ.get("MQPROMPT")
    if template is None:
        return f"{qmgr}> " if qmgr else "mqsh> "
    values = _inserts(qmgr, environ)
    expanded = _INSERT.sub(lambda match: values.get(match.group(1), ""), template)
    return expanded if len(expanded) <= PROMPT_LIMIT else template[:PROMPT_LIMIT]
