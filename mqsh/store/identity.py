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
    """Who put a message: USERID(...) PUTAPPL(...), its MQMD's UserIdentifier and PutApplName (appl
    None: mqsh's own); None where that is not recorded."""
    if user is None:
        return None
    return f"USERID({user}){between}PUTAPPL({appl or APPLICATION})"


def put_by(found: tuple[str, str] | None) -> str:
    """'by USERID(...) PUTAPPL(...)' for a put record's putter, or that who put it is not recorded."""
    return "by whom not recorded" if found is None else f"by {putter(*found)}"
