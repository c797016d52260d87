"""The queue managers of one data directory, and which of them this process holds.

A queue manager's status (RUNNING, ENDED, ENDED_UNEXPECTEDLY) lives on disk, as
strmqm/endmqm/a crash left it. "Running" means any mqsh may connect to it: the
first one to do so takes its lock and, if the last holder did not close it
cleanly (a killed process), replays its log before doing anything else.
"""

from __future__ import annotations

from pathlib import Path

from mqsh.model.clock import Clock
from mqsh.model.qmgr import QueueManager, StartReport, remove_qmgr_files
from mqsh.recovery.engine import ReplayEngine
from mqsh.store.datadir import QmgrPaths
from mqsh.store.files import atomic_write
from mqsh.store.names import from_file_name
from mqsh.store.qmini import read_stanzas, write_stanzas

RUNNING, ENDED, CRASHED = "RUNNING", "ENDED", "ENDED_UNEXPECTEDLY"
STATUS_WORDS = {RUNNING: "Running", ENDED: "Ended normally", CRASHED: "Ended unexpectedly"}
DEFAULT_QMGR = "QM1"


class QmgrNotFound(Exception):
    """AMQ8118E."""


class QmgrNotAvailable(Exception):
    """AMQ8146E."""


class Installation:
    def __init__(self, data_dir: Path, engine: ReplayEngine | None = None):
        self.data_dir = data_dir
        self.engine = engine or ReplayEngine()  # where restart replay runs
        self.clock = Clock(data_dir / "clock")
        self.held: dict[str, QueueManager] = {}
        self.last_start: StartReport | None = None

    def paths(self, name: str) -> QmgrPaths:
        return QmgrPaths(self.data_dir, name)

    # ------------------------------------------------------------ what exists
    def names(self) -> list[str]:
        root = self.data_dir / "qmgrs"
        if not root.is_dir():
            return []
        return sorted(from_file_name(path.name) for path in root.iterdir() if (path / "qm.ini").exists())

    def exists(self, name: str) -> bool:
        return self.paths(name).exists()

    def default_name(self) -> str | None:
        path = self.data_dir / "mqs.ini"
        if path.exists():
            name = read_stanzas(path).get("DefaultQueueManager", {}).get("Name")
            if name and self.exists(name):
                return name
        names = self.names()
        return names[0] if len(names) == 1 else None

    def set_default(self, name: str) -> None:
        write_stanzas(self.data_dir / "mqs.ini", {"DefaultQueueManager": {"Name": name}})

    def status(self, name: str) -> str:
        try:
            return self.paths(name).status_file.read_text().strip() or ENDED
        except FileNotFoundError:
            return ENDED

    def _set_status(self, name: str, status: str) -> None:
        atomic_write(self.paths(name).status_file, status.encode("ascii"), sync=True)

    # ------------------------------------------------------------ lifecycle
    def create(self, name: str, log_type: str = "CIRCULAR", file_pages: int = 4096,
               primary: int = 3, secondary: int = 2) -> QueueManager:
        paths = self.paths(name)
        paths.qmgr_dir.mkdir(parents=True, exist_ok=True)
        paths.log_dir.mkdir(parents=True, exist_ok=True)
        write_stanzas(paths.qm_ini, {
            "QueueManager": {"Name": name},
            "Log": {
                "LogPrimaryFiles": str(primary),
                "LogSecondaryFiles": str(secondary),
                "LogFilePages": str(file_pages),
                "LogType": log_type,
                "LogBufferPages": "0",
                "LogPath": str(paths.log_root) + "/",
                "LogWriteIntegrity": "TripleWrite",
            },
        })
        self._set_status(name, ENDED)
        return QueueManager(paths, self.clock, self.engine)

    def start(self, name: str) -> QueueManager:
        """strmqm: start (restart recovery included) and hold it in this process."""
        if not self.exists(name):
            raise QmgrNotFound(name)
        qmgr = QueueManager(self.paths(name), self.clock, self.engine)
        self.last_start = qmgr.start()
        self.held[name] = qmgr
        self._set_status(name, RUNNING)
        return qmgr

    def connect(self, name: str) -> QueueManager:
        """The queue manager MQSC runs against; starts it here if it is running but not held."""
        if name in self.held:
            return self.held[name]
        if not self.exists(name):
            raise QmgrNotFound(name)
        if self.status(name) != RUNNING:
            raise QmgrNotAvailable(name)
        return self.start(name)

    def end(self, name: str) -> None:
        """endmqm: a clean shutdown, and MQSC is refused until strmqm."""
        qmgr = self.held.pop(name, None)
        if qmgr is not None:
            qmgr.shutdown()
        self._set_status(name, ENDED)

    def crash(self, name: str) -> None:
        """Lab crash: in-memory state dropped with no shutdown processing at all."""
        qmgr = self.held.pop(name, None)
        if qmgr is not None:
            qmgr.crash()
        self._set_status(name, CRASHED)

    def delete(self, name: str) -> None:
        remove_qmgr_files(self.paths(name))
        default = self.data_dir / "mqs.ini"
        if default.exists() and read_stanzas(default).get("DefaultQueueManager", {}).get("Name") == name:
            default.unlink()

    def close_all(self) -> None:
        """A clean exit of mqsh: every held queue manager is shut down cleanly."""
        for name in list(self.held):
            self.held.pop(name).shutdown()
