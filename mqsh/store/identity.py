"""Who mqsh runs as: the user id its error-log entries, connections, the messages it puts and channels
with a blank MCAUSER name (MQ's are the queue manager's owner, mqm on UNIX); and the application name
it goes by."""

from __future__ import annotations

import getpass
import os

# The application's name: DISPLAY CONN's APPLTAG, and the PutApplName of the messages it puts. On
# Linux MQ sets PutApplName to the process's program name, without its path, its first 15 bytes
# (IBM MQ docs: MQMD PutApplName); mqsh's program is mqsh.
APPLICATION = "mqsh"


def process_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a user id with no name (a container's)
        return str(os.getuid())


def put_by(user: str | None, appl: str | None) -> str:
    """Who put a message, as its put record or document says (MQMD UserIdentifier and PutApplName);
    one written before they were recorded says nothing of it."""
    if user is None:
        return "by whom not recorded"
    return f"by USERID({user}) PUTAPPL({appl})"
