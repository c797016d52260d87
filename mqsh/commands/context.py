"""What a command handler gets to work with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mqsh.language.catalogue import Catalogue

if TYPE_CHECKING:
    from mqsh.core.clock import Clock
    from mqsh.model.installation import Installation
    from mqsh.model.qmgr import QueueManager


@dataclass
class Context:
    catalogue: Catalogue
    installation: Installation
    qmgr: QueueManager | None = None  # the connected queue manager, for MQSC and lab commands

    @property
    def clock(self) -> Clock:
        return self.installation.clock
