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


def putter(user: str | None, appl: str | None, between: str = " ") -> str | None:
    """Who put a message, as its put record or document says: USERID(...) PUTAPPL(...) (its MQMD's
    UserIdentifier and PutApplName); None for one written before they were recorded. A record keeps
    PutApplName only where it is not mqsh's own (appl None beside a user id), sparing every put's
    record the bytes of a name that is nearly always the same."""
    if user is None:
        return None
    return f"USERID({user}){between}PUTAPPL({appl or APPLICATION})"


def put_by(user: str | None, appl: str | None) -> str:
    """'by USERID(...) PUTAPPL(...)', or that who put the message is not recorded."""
    told = putter(user, appl)
    return f"by {told}" if told else "by whom not recorded"
