"""Who mqsh runs as: the user id its error-log entries, connections and channels with a blank
MCAUSER name (MQ's are the queue manager's owner, mqm on UNIX)."""

from __future__ import annotations

import getpass
import os


def process_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a user id with no name (a container's)
        return str(os.getuid())
