"""LAB BACKUP and LAB RESTORE: an ended queue manager's files copied away, and back.

A file-level backup as an administrator takes one for a disaster-recovery
test: the queue manager ended, its data directory and its log directory copied
together (one without the other restores nothing usable). Restored, it is the
queue manager it was at the backup: the same QMID, objects and messages, the
same log. The copies live in the data directory, under backups/NAME/, each with
a note of whose it is and when it was taken.

Both are refused while the queue manager runs, in this process or another: its
files change under a copy, and a restore under it would pull its files away.
LAB RESTORE ... AS(name) makes the backup a second queue manager instead - the
same one inside (its name, QMID, objects and sequence numbers), known here by
another name, as a disaster-recovery site's copy is - and leaves the original
alone, running or not.
A copy is made under a temporary name and renamed when complete, so a failure
part way leaves the backup (or the queue manager) as it was.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from mqsh.commands.context import Context
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.model.cluster import explain as cluster_explain
from mqsh.model.cluster.timers import stamp
from mqsh.model.qmgr_directory import RUNNING, valid_qmgr_name
from mqsh.responses import Result
from mqsh.store import log as logstore
from mqsh.store.qmini import read_stanzas, write_stanzas

BACKUPS = "backups"
NOTE = "backup.json"
BACKUP_NAME = re.compile(r"^[A-Za-z0-9._%-]{1,48}$")


def _qmgr(ctx: Context, command: Command, shell: Shell) -> str | Result:
    name = command.params.get("QMGR") or shell.current_qmgr
    installation = ctx.installation
    if not name:
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    if name in installation.held or installation.status(name) == RUNNING:
        verb = command.target
        return Result.failure(
            f"mqsh: LAB {verb} needs queue manager {name} ended: its files change while it runs. "
            f"End it first (endmqm {name})."
        )
    return name


def _backup_dir(ctx: Context, name: str) -> Path | Result:
    if not BACKUP_NAME.match(name):
        return Result.failure(
            f"mqsh: '{name}' is not a backup name: 1 to 48 letters, digits, '.', '_', '%' or '-'."
        )
    return ctx.installation.data_dir / BACKUPS / name


def _why(error: OSError) -> str:
    """What went wrong, in the system's words (copytree gathers the failures of the files it copies)."""
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list) and error.args[0]:
        return re.sub(r"^\[Errno \d+\] ", "", str(error.args[0][0][2]))
    return error.strerror or str(error)


def _copy(sources: dict[str, Path], target: Path, note: str | None = None) -> None:
    """sources (relative name -> directory) into target, made under a temporary name first;
    note, when given, is written into it (a backup is whole only with its note)."""
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        for relative, source in sources.items():
            if source.exists():
                shutil.copytree(source, partial / relative, symlinks=True)
        if note is not None:
            (partial / NOTE).write_text(note)
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    partial.rename(target)


def backup(ctx: Context, command: Command, shell: Shell) -> Result:
    name = _qmgr(ctx, command, shell)
    if isinstance(name, Result):
        return name
    installation = ctx.installation
    if not installation.exists(name):
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    target = _backup_dir(ctx, command.params["TO"])
    if isinstance(target, Result):
        return target
    if target.exists():
        return Result.failure(f"mqsh: backup {target.name} exists already; choose another name.")
    paths = installation.paths(name)
    taken = ctx.clock.now()
    note = json.dumps({"qmgr": name, "taken": taken.isoformat(sep=" ")})
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _copy({"qmgr": paths.qmgr_dir, "log": paths.log_root}, target, note)
    except OSError as error:
        return Result.failure(
            f"mqsh: LAB BACKUP could not copy queue manager {name}: {_why(error)}; no backup was kept."
        )
    files = sum(1 for path in target.rglob("*") if path.is_file())
    return Result.message(
        f"Queue manager {name} backed up to {target.name}: {files} files, its data and its "
        f"log, as at {taken:%Y-%m-%d %H:%M:%S}."
    )


def restore(ctx: Context, command: Command, shell: Shell) -> Result:
    copy_name = command.params.get("AS")
    if copy_name is not None:
        return _restore_as(ctx, command, shell, copy_name)
    name = _qmgr(ctx, command, shell)
    if isinstance(name, Result):
        return name
    source = _backup_of(ctx, command, name)
    if isinstance(source, Result):
        return source
    paths = ctx.installation.paths(name)
    failed = _put_in_place(source, name, paths, f"queue manager {name} is as it was")
    if failed is not None:
        return failed
    _note_cluster_restore(ctx, paths.qmgr_dir, name, source)
    host = str(command.params.get("HOST") or "").lower()  # host names are not case-sensitive
    if host:  # restored on another machine: a disaster-recovery site
        ctx.installation.move_to_host(name, host)
    where = f" on host {ctx.installation.host(name)}" if host else ""
    return Result.message(
        f"Queue manager {name} restored from {source.name}{where}, as it was at {_taken(source)}."
    )


def _restore_as(ctx: Context, command: Command, shell: Shell, copy_name: str) -> Result:
    """A second queue manager made from the backup: the same queue manager (its name inside, its
    QMID, objects, messages and sequence numbers) known to this data directory by another name,
    as a disaster-recovery site's copy is - the production one may go on running meanwhile."""
    name = command.params.get("QMGR") or shell.current_qmgr
    installation = ctx.installation
    if not name:
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    if not valid_qmgr_name(copy_name):
        return Result.failure(
            f"mqsh: '{copy_name}' is not a queue manager name: 1 to 48 of A-Z, a-z, 0-9, '.', "
            "'/', '_' and '%'."
        )
    if installation.exists(copy_name):
        return Result.failure(
            f"mqsh: queue manager {copy_name} exists already; restore AS a new name, or delete "
            f"it first (dltmqm {copy_name})."
        )
    source = _backup_of(ctx, command, name)
    if isinstance(source, Result):
        return source
    paths = installation.paths(copy_name)
    failed = _put_in_place(source, copy_name, paths, f"no queue manager {copy_name} was made")
    if failed is not None:
        return failed
    _note_cluster_restore(ctx, paths.qmgr_dir, copy_name, source)
    stanzas = read_stanzas(paths.qm_ini)
    stanzas.setdefault("Log", {})["LogPath"] = str(paths.log_root) + "/"  # its own log, not the original's
    write_stanzas(paths.qm_ini, stanzas)
    installation.move_to_host(copy_name, str(command.params.get("HOST") or installation.host(name)).lower())
    return Result.message(
        f"Queue manager {name} restored from {source.name} as {copy_name} on host "
        f"{installation.host(copy_name)}, as it was at {_taken(source)}: the same queue manager "
        "(name, QMID and objects) under another name in this data directory."
    )


def _backup_of(ctx: Context, command: Command, name: str) -> Path | Result:
    source = _backup_dir(ctx, command.params["FROM"])
    if isinstance(source, Result):
        return source
    try:
        note = json.loads((source / NOTE).read_text())
    except (OSError, ValueError):
        return Result.failure(f"mqsh: there is no backup {source.name} (or it is incomplete).")
    if note.get("qmgr") != name:
        return Result.failure(
            f"mqsh: backup {source.name} is of queue manager {note.get('qmgr')}, not {name}."
        )
    return source


def _note_cluster_restore(ctx: Context, qmgr_dir: Path, name: str, source: Path) -> None:
    """What LAB EXPLAIN CLUSTER tells of the restore: the repository came back as the backup held it."""
    cluster_explain.note_restore(
        qmgr_dir, name, f"{source.name} (taken at {_taken(source)})", stamp(ctx.installation.clock.now())
    )


@dataclass(frozen=True)
class Copy:
    """A backup of a queue manager, as LAB TIMELINE draws it: when it was taken, where its log ended."""

    name: str
    taken: str
    last_lsn: int | None  # the last record of the log it holds; None: no record


def copies_of(data_dir: Path, name: str, log_dir: Path, log_root: Path) -> list[Copy]:
    """The backups of queue manager name kept in the data directory, oldest first."""
    copies = []
    for note_file in sorted((data_dir / BACKUPS).glob(f"*/{NOTE}")):
        try:
            note = json.loads(note_file.read_text())
        except (OSError, ValueError):
            continue
        if note.get("qmgr") != name:
            continue
        copied = note_file.parent / "log" / log_dir.relative_to(log_root)
        present = logstore.list_extents(copied)
        last = (
            logstore.valid_end(logstore.extent_path(copied, present[-1], logstore.read_ring(copied)))[1]
            if present
            else -1
        )
        copies.append(Copy(note_file.parent.name, str(note.get("taken", "")), last if last >= 0 else None))
    return sorted(copies, key=lambda copy: copy.taken)


def _taken(source: Path) -> str:
    return json.loads((source / NOTE).read_text()).get("taken", "")


def _put_in_place(source: Path, name: str, paths, unchanged: str) -> Result | None:
    """The backup's files as the queue manager's, whole or not at all."""
    staging = paths.qmgr_dir.parent.parent / f".restore-{name}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        _copy({"qmgr": source / "qmgr", "log": source / "log"}, staging)
    except OSError as error:
        return Result.failure(
            f"mqsh: LAB RESTORE could not copy backup {source.name}: {_why(error)}; {unchanged}."
        )
    # The old files go only once the copy is whole; then the copy takes their place.
    for current, restored in ((paths.qmgr_dir, staging / "qmgr"), (paths.log_root, staging / "log")):
        shutil.rmtree(current, ignore_errors=True)
        if restored.exists():
            current.parent.mkdir(parents=True, exist_ok=True)
            restored.rename(current)
    shutil.rmtree(staging, ignore_errors=True)
    return None
