"""Lab controls for accidents to object files, open handles, and reading the error log.

    LAB DAMAGE QUEUE(Q1) [HOW(DELETE|TRUNCATE|CORRUPT)]   also CHANNEL(..) PROCESS(..) ... QMGR(QM1) CATALOG
    LAB DAMAGE EXTENT(S0000002.LOG) [HOW(...)]             a log extent
    LAB DAMAGE METADATA                                    every object file, the catalog and the log
                                                           control file (KahaDB's "delete db.data")
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

from mqsh.commands.context import Context
from mqsh.core.reasons import MQRC_OBJECT_DAMAGED, MQRC_UNKNOWN_OBJECT_NAME, MQError
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.responses import Message, Result
from mqsh.store.datadir import NAMESPACE_FOLDERS, QmgrPaths
from mqsh.store.files import atomic_write
from mqsh.store.log import extent_number

# The parameters of LAB DAMAGE that name an object, by the name space (and folder) they point into.
# LAB DAMAGE names an object by its name space (QUEUE, CHANNEL ...): every one
# with object files, but the security records and policies.
OBJECT_PARAMS = tuple(name for name in NAMESPACE_FOLDERS if name not in ("CHLAUTH", "AUTHREC", "POLICY"))
DAMAGED_WORDS = {"DELETE": "deleted", "TRUNCATE": "truncated", "CORRUPT": "corrupted"}
# The message lines of the error log: AMQ messages, and the z/OS ones (CSQE..., CSQJ...) that a
# queue-sharing group member writes there for its structures and data sets.
MESSAGE_LINE = re.compile(r"^(AMQ\d{4}|CSQ[0-9A-Z]\d{3})[A-Z]: ")
ERRLOG_MARK = "AMQERR01.shown"  # beside the error log: how many of its bytes LAB ERRLOG has shown
SPOIL = b"#DAMAGED#"


def _no_qmgr() -> Result:
    return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")


def _metadata(paths: QmgrPaths) -> list[Path]:
    files = [
        path
        for folder in NAMESPACE_FOLDERS.values()
        if (paths.qmgr_dir / folder).is_dir()
        for path in sorted((paths.qmgr_dir / folder).iterdir())
    ]
    return files + [path for path in (paths.catalog, paths.control_file) if path.exists()]


def _targets(command: Command, paths: QmgrPaths) -> tuple[str, list[Path]] | Result:
    """(what, files) LAB DAMAGE is to spoil, or the failure to report."""
    given = [param for param in (*OBJECT_PARAMS, "CATALOG", "EXTENT", "METADATA") if param in command.params]
    if len(given) != 1:
        return Result.failure(
            "mqsh: LAB DAMAGE needs exactly one of "
            + ", ".join(f"{param}(name)" for param in (*OBJECT_PARAMS, "EXTENT"))
            + ", CATALOG or METADATA."
        )
    param = given[0]
    value = command.params[param]
    if param == "METADATA":
        if command.params.get("HOW", "DELETE") != "DELETE":
            return Result.failure("mqsh: LAB DAMAGE METADATA only deletes (HOW(DELETE)).")
        return "every object file, the object catalog and the log control file", _metadata(paths)
    if param == "CATALOG":
        return "the object catalog", [paths.catalog]
    if param == "QMGR" and value != paths.name:
        return Result.failure(f"mqsh: LAB DAMAGE QMGR names the current queue manager ({paths.name}).")
    if param == "EXTENT":
        if extent_number(value.upper()) is None:
            return Result.failure(f"mqsh: {value} is not a log extent name such as S0000002.LOG.")
        return f"log extent {value.upper()}", [paths.log_dir / value.upper()]
    return f"{param}({value})", [paths.object_file(param, value)]


def _spoil(path: Path, how: str) -> None:
    if how == "DELETE":
        path.unlink()
    elif how == "TRUNCATE":
        os.truncate(path, path.stat().st_size // 2)
    else:
        data = bytearray(path.read_bytes())
        middle = max(len(data) // 2 - len(SPOIL) // 2, 0)
        data[middle : middle + len(SPOIL)] = SPOIL
        atomic_write(path, bytes(data))


def damage(ctx: Context, command: Command, shell: Shell) -> Result:
    name = shell.current_qmgr
    installation = ctx.installation
    if not name or not installation.exists(name):
        return _no_qmgr()
    found = _targets(command, installation.paths(name))
    if isinstance(found, Result):
        return found
    what, files = found
    if not files or not all(path.exists() for path in files):
        return Result.failure(f"mqsh: there is no file for {what}.")
    how = command.params.get("HOW", "DELETE" if "METADATA" in command.params else "CORRUPT")
    if how not in DAMAGED_WORDS:  # EMPTY, HEADER, BLOCK, IOERROR: what befalls a data set (LAB DAMAGE SMDS)
        return Result.failure(
            f"mqsh: HOW({how}) damages a shared message data set; the file of {what} takes "
            f"HOW({' | '.join(DAMAGED_WORDS)})."
        )
    for path in files:
        _spoil(path, how)
    where = files[0].relative_to(installation.data_dir) if len(files) == 1 else f"{len(files)} files"
    return Result.message(
        f"File of {what} {DAMAGED_WORDS[how]}: {where}."
        if len(files) == 1
        else f"Files of {what} {DAMAGED_WORDS[how]}: {where}."
    )


def open_queue(ctx: Context, command: Command) -> Result:
    queue = command.params["QUEUE"]
    qmgr = ctx.qmgr
    try:
        qmgr.connected_application()
    except MQError as error:
        return Result.failure(error.report("MQOPEN"))
    found = qmgr.lookup("QUEUE", queue)
    reason = MQRC_UNKNOWN_OBJECT_NAME if found is None else MQRC_OBJECT_DAMAGED if found.damaged else None
    if found is None:  # a group member opens a shared queue the same way; a cluster member a cluster queue
        try:
            reason = (
                None
                if qmgr.shared.queue(queue) is not None or qmgr.units.routes.open_cluster_queue(queue)
                else 2085
            )
        except MQError as error:  # the group's repository cannot be used, or the cluster resolves no instance
            reason = error.reason
    if reason is not None:
        return Result.failure(MQError(reason).report("MQOPEN"))
    qmgr.open_handles[queue] = qmgr.open_handles.get(queue, 0) + 1
    return Result.message(f"Queue {queue} opened: {qmgr.open_handles[queue]} handle(s) open on it.")


def close_queue(ctx: Context, command: Command) -> Result:
    queue = command.params["QUEUE"]
    handles = ctx.qmgr.open_handles
    if not handles.get(queue):
        return Result.failure(f"mqsh: no handle is open on queue {queue}.")
    handles[queue] -= 1
    ctx.qmgr.units.routes.closed(queue)
    return Result.message(f"Queue {queue} closed: {handles[queue]} handle(s) open on it.")


def errlog(ctx: Context, command: Command, shell: Shell) -> Result:
    """The message lines (AMQ, and z/OS's CSQ) written to the error log since the last LAB ERRLOG
    (no times or hosts); ALL: every one; LAST(n): the newest n. How far LAB ERRLOG has shown is kept
    beside the error log, so that a session started later goes on from there."""
    name = shell.current_qmgr
    installation = ctx.installation
    if not name or not installation.exists(name):
        return _no_qmgr()
    path = installation.paths(name).error_log
    data = path.read_bytes() if path.exists() else b""
    mark = path.with_name(ERRLOG_MARK)
    seen = _shown_so_far(mark, len(data))
    if command.flag("ALL") or "LAST" in command.params:
        seen = 0
    try:
        atomic_write(mark, str(len(data)).encode("ascii"))
    except OSError:
        pass  # a full disk: the next LAB ERRLOG shows these again, which loses nothing
    found = [line for line in data[seen:].decode("utf-8", "replace").splitlines() if MESSAGE_LINE.match(line)]
    if "LAST" in command.params:
        found = found[-command.params["LAST"] :]
    if not found:
        return Result.message(f"No new messages in the error log of {name}.")
    return Result([Message(line) for line in found])


def _shown_so_far(mark: Path, size: int) -> int:
    """Bytes of the error log already shown; 0 when nothing was, or the log is now shorter (replaced)."""
    try:
        shown = int(mark.read_text(encoding="ascii").strip())
    except (OSError, ValueError, UnicodeDecodeError):
        return 0
    return shown if 0 <= shown <= size else 0
