"""Lab controls for accidents to object files, open handles, and reading the error log.

    LAB DAMAGE QUEUE(Q1) [HOW(DELETE|TRUNCATE|CORRUPT)]   also CHANNEL(..) PROCESS(..) ... QMGR(QM1) CATALOG
    LAB OPEN QUEUE(Q1) / LAB CLOSE QUEUE(Q1)
    LAB ERRLOG

LAB DAMAGE does to the file on disk exactly what an accident would and tells
the queue manager nothing: it finds out the way MQ does, on the next use of
the object or at its next start. CORRUPT writes the spoiled bytes to a new
file put in place of the old one, as an editor saving the file would.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Protocol

from mqsh.commands.context import Context
from mqsh.language.validate import Command
from mqsh.model.reasons import MQError
from mqsh.responses import Message, Result
from mqsh.store.files import atomic_write

# The parameters of LAB DAMAGE that name an object, by the name space (and folder) they point into.
OBJECT_PARAMS = ("QUEUE", "CHANNEL", "PROCESS", "NAMELIST", "LISTENER", "SERVICE", "AUTHINFO", "TOPIC",
                 "COMMINFO", "QMGR")
DAMAGED_WORDS = {"DELETE": "deleted", "TRUNCATE": "truncated", "CORRUPT": "corrupted"}
MESSAGE_LINE = re.compile(r"^AMQ\d{4}[A-Z]: ")
SPOIL = b"#DAMAGED#"


class Shell(Protocol):
    current_qmgr: str | None


def _no_qmgr() -> Result:
    return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")


def _target(command: Command, qmgr: str) -> tuple[str, str] | Result:
    """(parameter, value) of the one object LAB DAMAGE names, or the failure to report."""
    given = [param for param in (*OBJECT_PARAMS, "CATALOG") if param in command.params]
    if len(given) != 1:
        return Result.failure("mqsh: LAB DAMAGE needs exactly one of " + ", ".join(
            f"{param}(name)" for param in OBJECT_PARAMS) + " or CATALOG.")
    param = given[0]
    value = command.params[param]
    if param == "QMGR" and value != qmgr:
        return Result.failure(f"mqsh: LAB DAMAGE QMGR names the current queue manager ({qmgr}).")
    return param, value


def _spoil(path: Path, how: str) -> None:
    if how == "DELETE":
        path.unlink()
    elif how == "TRUNCATE":
        os.truncate(path, path.stat().st_size // 2)
    else:
        data = bytearray(path.read_bytes())
        middle = max(len(data) // 2 - len(SPOIL) // 2, 0)
        data[middle:middle + len(SPOIL)] = SPOIL
        atomic_write(path, bytes(data))


def damage(ctx: Context, command: Command, shell: Shell) -> Result:
    name = shell.current_qmgr
    installation = ctx.installation
    if not name or not installation.exists(name):
        return _no_qmgr()
    target = _target(command, name)
    if isinstance(target, Result):
        return target
    param, value = target
    paths = installation.paths(name)
    path = paths.catalog if param == "CATALOG" else paths.object_file(param, value)
    what = "the object catalog" if param == "CATALOG" else f"{param}({value})"
    if not path.exists():
        return Result.failure(f"mqsh: there is no object file for {what}.")
    how = command.params.get("HOW", "CORRUPT")
    _spoil(path, how)
    return Result.message(f"Object file of {what} {DAMAGED_WORDS[how]}: "
                          f"{path.relative_to(installation.data_dir)}.")


def open_queue(ctx: Context, command: Command) -> Result:
    queue = command.params["QUEUE"]
    qmgr = ctx.qmgr
    found = qmgr.lookup("QUEUE", queue)
    reason = 2085 if found is None else 2101 if found.damaged else None
    if reason is not None:
        return Result.failure(f"MQOPEN ended with reason code {reason} ({MQError(reason).name}).")
    qmgr.open_handles[queue] = qmgr.open_handles.get(queue, 0) + 1
    return Result.message(f"Queue {queue} opened: {qmgr.open_handles[queue]} handle(s) open on it.")


def close_queue(ctx: Context, command: Command) -> Result:
    queue = command.params["QUEUE"]
    handles = ctx.qmgr.open_handles
    if not handles.get(queue):
        return Result.failure(f"mqsh: no handle is open on queue {queue}.")
    handles[queue] -= 1
    return Result.message(f"Queue {queue} closed: {handles[queue]} handle(s) open on it.")


def errlog(ctx: Context, command: Command, shell: Shell) -> Result:
    """The AMQ message lines written to the error log since the last LAB ERRLOG (no times or hosts)."""
    name = shell.current_qmgr
    installation = ctx.installation
    if not name or not installation.exists(name):
        return _no_qmgr()
    path = installation.paths(name).error_log
    data = path.read_bytes() if path.exists() else b""
    seen = installation.error_marks.get(name, 0)
    installation.error_marks[name] = len(data)
    found = [line for line in data[seen:].decode("utf-8", "replace").splitlines() if MESSAGE_LINE.match(line)]
    if not found:
        return Result.message(f"No new messages in the error log of {name}.")
    return Result([Message(line) for line in found])
