"""The queue managers a data directory holds, as their files say: their names, the status strmqm,
endmqm or a crash recorded, the host each runs on, and the default queue manager mqs.ini names.

A queue manager's status (RUNNING, ENDED, ENDED_IMMEDIATELY ...) lives on disk, in its status file.
A status recorded as running is checked against its lock and its log control file, since a killed
process records nothing. The installation (mqsh.model.installation) builds on this to start, hold
and end them.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from mqsh.store.datadir import QmgrPaths, holds_qmgr
from mqsh.store.files import CorruptFile, atomic_write, read_document
from mqsh.store.lock import QmgrLock
from mqsh.store.names import from_file_name
from mqsh.store.qmini import read_stanzas, write_stanzas

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

RUNNING, ENDED, CRASHED = "RUNNING", "ENDED", "ENDED_UNEXPECTEDLY"
ENDED_IMMEDIATELY, ENDED_PREEMPTIVELY = "ENDED_IMMEDIATELY", "ENDED_PREEMPTIVELY"
UNKNOWN = "UNKNOWN"  # a status file that cannot be read
STATUS_WORDS = {
    RUNNING: "Running",
    ENDED: "Ended normally",
    ENDED_IMMEDIATELY: "Ended immediately",
    ENDED_PREEMPTIVELY: "Ended preemptively",
    CRASHED: "Ended unexpectedly",
    UNKNOWN: "Status not available",
}
DEFAULT_QMGR = "QM1"

QMGR_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")


def valid_qmgr_name(name: str) -> bool:
    """MQ's rule: 1 to 48 of A-Z, a-z, 0-9, '.', '/', '_' and '%'."""
    return QMGR_NAME.fullmatch(name) is not None


class QmgrDirectory:
    """The queue managers of one data directory, and which of them this process holds."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.held: dict[str, QueueManager] = {}
        self._names_now: list[str] | None = (
            None  # the queue managers, while no command may make or delete one
        )

    def paths(self, name: str) -> QmgrPaths:
        return QmgrPaths(self.data_dir, name)

    def names(self) -> list[str]:
        if self._names_now is not None:
            return list(self._names_now)
        return self._listed_names()

    def _listed_names(self) -> list[str]:
        root = self.data_dir / "qmgrs"
        if not root.is_dir():
            return []
        names = (from_file_name(path.name) for path in root.iterdir() if holds_qmgr(path))
        return sorted(name for name in names if name is not None)

    def exists(self, name: str) -> bool:
        return valid_qmgr_name(name) and self.paths(name).exists()

    def default_name(self) -> str | None:
        name = self._named_default()
        if name and self.exists(name):
            return name
        names = self.names()
        return names[0] if len(names) == 1 else None

    def _named_default(self) -> str | None:
        """The default queue manager mqs.ini names; None when it names none or cannot be read."""
        try:
            return read_stanzas(self.data_dir / "mqs.ini").get("DefaultQueueManager", {}).get("Name")
        except (OSError, UnicodeDecodeError):
            return None

    def set_default(self, name: str) -> None:
        write_stanzas(self.data_dir / "mqs.ini", {"DefaultQueueManager": {"Name": name}})

    def status(self, name: str) -> str:
        """What dspmq shows. The status file says what strmqm, endmqm or a crash last recorded;
        a queue manager recorded as running whose holder died without ending it cleanly (a
        killed process), or whose status file is gone or unreadable, is told by its lock and
        its log control file: running while a live process holds it, ended unexpectedly when
        its log was not closed cleanly, and 'status not available' otherwise."""
        recorded = self.recorded_status(name)
        if name in self.held or recorded not in (RUNNING, UNKNOWN):
            return recorded
        if QmgrLock(self.paths(name).lock_file, name).held_elsewhere():
            return RUNNING
        if not self._closed_cleanly(name):
            return CRASHED
        return recorded

    def running_members(self) -> list[str]:
        """Queue managers recorded as running that have a cluster cache: time passing concerns them."""
        return [
            name
            for name in self.names()
            if self.recorded_status(name) == RUNNING and self.paths(name).cluster_cache.exists()
        ]

    def reachable(self, name: str) -> bool:
        """Whether this process can run commands on the queue manager: it holds it, or it is
        recorded as running and no other process holds it (connect takes it over)."""
        if name in self.held:
            return True
        return (
            self.exists(name)
            and self.recorded_status(name) == RUNNING
            and not QmgrLock(self.paths(name).lock_file, name).held_elsewhere()
        )

    def recorded_status(self, name: str) -> str:
        """The status file's word; UNKNOWN when it is missing or cannot be read (crtmqm writes one,
        so a missing file was lost, and is not taken for 'ended normally')."""
        try:
            text = self.paths(name).status_file.read_bytes().decode("ascii").strip()
        except (OSError, UnicodeDecodeError):
            return UNKNOWN
        return text if text in STATUS_WORDS else UNKNOWN

    def host(self, name: str) -> str:
        """The host the queue manager runs on in the lab's network: crtmqm --host (or LAB RESTORE
        HOST), else its own name in lower case."""
        try:
            stanzas = read_stanzas(self.paths(name).qm_ini)
        except (OSError, UnicodeDecodeError):
            stanzas = {}
        return stanzas.get("QueueManager", {}).get("Host") or name.lower()

    def move_to_host(self, name: str, host: str) -> None:
        path = self.paths(name).qm_ini
        stanzas = read_stanzas(path)
        stanzas.setdefault("QueueManager", {"Name": name})["Host"] = host
        write_stanzas(path, stanzas)

    def _closed_cleanly(self, name: str) -> bool:
        """The log control file says the last holder ended cleanly (or the queue manager never ran)."""
        try:
            return read_document(self.paths(name).control_file).get("state") == "clean"
        except FileNotFoundError:
            return True
        except (OSError, CorruptFile, AttributeError):
            return False

    def _set_status(self, name: str, status: str) -> None:
        path = self.paths(name).status_file
        try:
            atomic_write(path, status.encode("ascii"), sync=True)
        except OSError as error:
            if error.errno != errno.ENOSPC or not path.exists():
                raise
            # A full disk has no room for a new file, but the old one's block takes the new status.
            with open(path, "r+b") as handle:
                handle.write(status.encode("ascii"))
                handle.truncate()
                handle.flush()
                os.fsync(handle.fileno())
