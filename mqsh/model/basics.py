"""What every part of a queue manager is built with, held once: its files, clock, error log,
configuration and replay engine."""

from __future__ import annotations

from dataclasses import dataclass

from mqsh.core.clock import Clock
from mqsh.model.config import QmgrConfig
from mqsh.recovery.engine import ReplayEngine
from mqsh.store.datadir import QmgrPaths
from mqsh.store.errorlog import ErrorLog


@dataclass(frozen=True)
class QmgrBasics:
    paths: QmgrPaths
    clock: Clock
    errors: ErrorLog
    config: QmgrConfig
    engine: ReplayEngine
