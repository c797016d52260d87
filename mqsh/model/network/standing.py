"""What a running queue manager's channels and listeners stand at, beyond one mqsh process.

A queue manager keeps running when the mqsh process that held it ends (dspmq still says
Running), and the next process takes it over. What was running there goes on running, and
what was stopped stays stopped, as when a new runmqsc attaches to a running queue manager:

* a channel STOPPED (by STOP CHANNEL, or out of retries) stays STOPPED until START CHANNEL -
  across a takeover, and across a restart too, as MQ keeps a stopped channel's status (with its
  sync data) through a queue manager restart;
* the listeners and services running stay running, and only those: a CONTROL(QMGR) one defined
  or stopped since the queue manager started is not started by a process taking it over. A
  restart (strmqm, or the takeover of a queue manager whose holder was killed) starts the
  CONTROL(QMGR) ones again instead, as MQ's start does.

The file (qmgrs/QM1/qmstanding.json) is written after each command that changed what it holds,
so that a killed holder's successor still finds the stopped channels.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import TYPE_CHECKING, Any

from mqsh.model.network.state import STOPPED, ChannelState
from mqsh.store import jsontext
from mqsh.store.files import atomic_write

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

_TIMES = {"started", "last_message", "connected_at", "next_try"}


def snapshot(qmgr: QueueManager) -> dict[str, Any]:
    """The stopped channels' statuses and the running listeners and services, as written."""
    return {
        "stopped": {
            name: _encoded(state)
            for name, state in sorted(qmgr.channel_states.items())
            if state.status == STOPPED
        },
        "running": {key: when.isoformat() for key, when in sorted(qmgr.running_objects.items())},
    }


def keep(qmgr: QueueManager) -> None:
    """Write the queue manager's standing if it changed since it was last written or read."""
    now = snapshot(qmgr)
    if now == qmgr.standing:
        return
    try:
        atomic_write(qmgr.paths.standing_file, jsontext.dumps(now, sort_keys=True), sync=True)
    except OSError:
        return  # a full disk keeps the old file: the next command tries again
    qmgr.standing = now


def restore(qmgr: QueueManager, taking_over: bool) -> None:
    """Put back what the file holds as the queue manager starts: its stopped channels always; when
    it is taken over still running (taking_over), its running listeners and services in place of
    the ones its start set running (a restart leaves those as its start set them)."""
    path = qmgr.paths.standing_file
    try:
        kept = jsontext.loads(path.read_bytes())
        stopped = {name: _decoded(encoded) for name, encoded in kept["stopped"].items()}
        running = {key: datetime.fromisoformat(when) for key, when in kept["running"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return  # never written, or unreadable: nothing stands over
    qmgr.channel_states.update(stopped)
    qmgr.standing = kept
    if not taking_over:
        return
    qmgr.running_objects.clear()  # what ran stays running, and nothing else starts
    for key, when in running.items():
        obj = qmgr.state.get(key)
        if obj is not None and not obj.damaged:
            qmgr.running_objects[key] = when


def _encoded(state: ChannelState) -> dict[str, Any]:
    values = dataclasses.asdict(state)
    for name in _TIMES:
        values[name] = values[name].isoformat() if values[name] is not None else None
    values["admitted"] = sorted(values["admitted"])
    return values


def _decoded(values: dict[str, Any]) -> ChannelState:
    known = {field.name for field in dataclasses.fields(ChannelState)}
    values = {name: value for name, value in values.items() if name in known}
    for name in _TIMES & values.keys():
        values[name] = datetime.fromisoformat(values[name]) if values[name] is not None else None
    values["admitted"] = set(values.get("admitted", ()))
    return ChannelState(**values)
