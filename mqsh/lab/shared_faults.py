"""Lab controls for accidents to a queue-sharing group's structures and shared message data sets.

    LAB FAIL CFSTRUCT(APP1)                                         a structure failure (or loss)
    LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(DELETE|EMPTY|HEADER|BLOCK|IOERROR)
    LAB DENY SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)                 QM2 cannot open QM1's data set
    LAB ALLOW SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)
    LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(name)                      keep a copy of the data set ...
    LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(name)                 ... and put it back (down level)
    LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(n) [SECONDARY(n)] [MAXEXTENTS(n)]
    LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)                             preformat it (the administrator's repair)
    LAB MEMLIMIT [QMGR(QM1)] MB(n|NOLIMIT)                          storage for the member's buffers

They act on the group of the current queue manager (mqsh.model.qsg.faults
says what each does to the files).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mqsh.commands.context import Context
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.model.qsg import faults, states
from mqsh.model.qsg.buffers import set_storage_limit
from mqsh.model.qsg.datasets import deny_marker
from mqsh.model.qsg.faults import FaultRefused
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.sharing_groups import membership
from mqsh.responses import Result
from mqsh.store.datadir import QmgrPaths

Action = Callable[[SharedRepository, Path, str], str]  # (repository, data dir, group) -> what happened


def current_group(ctx: Context, shell: Shell) -> str | Result:
    """The current queue manager's group (it need not be running), or the failure that says why
    there is none."""
    name = shell.current_qmgr
    if not name or not ctx.installation.exists(name):
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    qsg = membership(ctx.installation, name)
    if qsg is None:
        return Result.failure(f"mqsh: queue manager {name} is not in a queue sharing group.")
    return qsg


def _in_group(ctx: Context, shell: Shell, action: Action) -> Result:
    """The action on the current queue manager's group (which need not be running)."""
    qsg = current_group(ctx, shell)
    if isinstance(qsg, Result):
        return qsg
    try:
        with SharedRepository(ctx.installation.data_dir, qsg) as repository:
            done = action(repository, ctx.installation.data_dir, qsg)
    except (FaultRefused, RepositoryUnavailable) as error:
        return Result.failure(f"mqsh: {str(error)[0].upper()}{str(error)[1:]}.")
    return Result.message(done)


def _forget(ctx: Context, cf: str, owner: str | None = None) -> None:
    """Members held by this process let go of the structure (or one data set), to open it afresh."""
    for held in ctx.installation.held.values():
        if owner is None:
            held.shared.drop(cf)
        else:
            held.shared.smds.close(cf, owner)


def fail(ctx: Context, command: Command, shell: Shell) -> Result:
    cf = command.params["CFSTRUCT"]

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        told = faults.fail_structure(repository, data_dir, qsg, cf, ctx.clock.now().isoformat(sep=" "))
        _forget(ctx, cf)
        if told:
            return f"Structure {cf} failed: its messages are lost and every member sees it FAILED."
        return f"Structure {cf} lost: its messages are lost; no member is connected, the first to connect finds it."

    return _in_group(ctx, shell, action)


def damage(ctx: Context, command: Command, shell: Shell) -> Result:
    owner, cf = command.params["SMDS"], command.params.get("CFSTRUCT")
    how = command.params.get("HOW", "HEADER")
    if not cf:
        return Result.failure("mqsh: LAB DAMAGE SMDS(..) needs CFSTRUCT(name).")
    if how not in faults.HOWS:
        return Result.failure(
            f"mqsh: a data set is damaged with HOW({'|'.join(faults.HOWS)}), not HOW({how})."
        )

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        path, block = faults.damage_data_set(repository, data_dir, qsg, cf, owner, how)
        _forget(ctx, cf, owner)
        words = {
            "DELETE": "deleted",
            "EMPTY": "formatted anew, empty",
            "HEADER": "given a spoiled header",
            "BLOCK": f"given a spoiled block (block {block}, its newest message's first)",
            "IOERROR": "given a permanent I/O error",
        }
        return f"Data set {path.name} of SMDS({owner}) CFSTRUCT({cf}) {words[how]}."

    return _in_group(ctx, shell, action)


def _deny(ctx: Context, command: Command, shell: Shell, denied: bool) -> Result:
    owner, cf, member = command.params["SMDSCONN"], command.params["CFSTRUCT"], command.params["QMGR"]

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        marker = deny_marker(faults.data_set_of(repository, data_dir, qsg, cf, owner), member)
        if denied:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
            held = ctx.installation.held.get(member)
            if held is not None:
                held.shared.smds.close(cf, owner)
            return f"{member} can no longer open the data set of SMDS({owner}) CFSTRUCT({cf})."
        marker.unlink(missing_ok=True)
        return f"{member} may open the data set of SMDS({owner}) CFSTRUCT({cf}) again."

    return _in_group(ctx, shell, action)


def deny(ctx: Context, command: Command, shell: Shell) -> Result:
    return _deny(ctx, command, shell, True)


def allow(ctx: Context, command: Command, shell: Shell) -> Result:
    return _deny(ctx, command, shell, False)


def copy(ctx: Context, command: Command, shell: Shell) -> Result:
    owner, cf, name = command.params["SMDS"], command.params["CFSTRUCT"], command.params["TO"]

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        path = faults.data_set_of(repository, data_dir, qsg, cf, owner)
        faults.copy_data_set(path, data_dir, qsg, name)
        return f"Data set {path.name} copied to {name}."

    return _in_group(ctx, shell, action)


def restore(ctx: Context, command: Command, shell: Shell) -> Result:
    owner, cf, name = command.params["SMDS"], command.params.get("CFSTRUCT"), command.params["FROM"]
    if not cf:
        return Result.failure("mqsh: LAB RESTORE SMDS(..) needs CFSTRUCT(name).")

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        path = faults.data_set_of(repository, data_dir, qsg, cf, owner)
        faults.restore_data_set(path, data_dir, qsg, name)
        _forget(ctx, cf, owner)
        return f"Data set {path.name} put back as copy {name} holds it."

    return _in_group(ctx, shell, action)


def size(ctx: Context, command: Command, shell: Shell) -> Result:
    params = command.params
    owner, cf, blocks = params["SMDS"], params["CFSTRUCT"], params["BLOCKS"]

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        path = faults.data_set_of(repository, data_dir, qsg, cf, owner)
        existed = faults.resize_data_set(path, blocks, params.get("SECONDARY"), params.get("MAXEXTENTS"))
        _forget(ctx, cf, owner)
        return (
            f"Data set {path.name} reallocated with {blocks} blocks."
            if existed
            else f"Data set {path.name} will be allocated with {blocks} blocks."
        )

    return _in_group(ctx, shell, action)


def preformat(ctx: Context, command: Command, shell: Shell) -> Result:
    owner, cf = command.params["SMDS"], command.params["CFSTRUCT"]

    def action(repository: SharedRepository, data_dir: Path, qsg: str) -> str:
        path = faults.data_set_of(repository, data_dir, qsg, cf, owner)
        state = states.smds_state(repository, cf, owner)
        if state.status == states.ACTIVE and state.access == states.ENABLED:
            # The format utility needs the data set to itself, as every member has it open.
            raise FaultRefused(
                f"data set {path.name} is in use (STATUS(ACTIVE) ACCESS(ENABLED)): disable it "
                "first with RESET SMDS ACCESS(DISABLED)"
            )
        faults.preformat_data_set(path)
        _forget(ctx, cf, owner)
        return f"Data set {path.name} of SMDS({owner}) CFSTRUCT({cf}) preformatted: empty, no header."

    return _in_group(ctx, shell, action)


def memlimit(ctx: Context, command: Command, shell: Shell) -> Result:
    """The member's storage above the bar: pools obtained from now on must fit in it (STGFAIL)."""
    name = command.params.get("QMGR") or shell.current_qmgr
    if not name or not ctx.installation.exists(name):
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    given = command.params["MB"]
    megabytes = None if given == "NOLIMIT" else int(given)
    set_storage_limit(QmgrPaths(ctx.installation.data_dir, name).qmgr_dir, megabytes)
    if megabytes is None:
        return Result.message(
            f"Queue manager {name} has no limit on its storage above the bar (MEMLIMIT=NOLIMIT)."
        )
    return Result.message(
        f"Queue manager {name} may use {megabytes} MB of storage above the bar for its buffers "
        f"(MEMLIMIT={megabytes}M); pools obtained from now on must fit."
    )
