"""A shared queue as a put or get reaches it: its name and its definition in the group's repository.

Apart from the shared messages themselves (mqsh.model.qsg.shared_messages), so that a queue
manager, its channels and the lab tell a shared queue from a local one without loading them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SharedQueue:
    name: str
    attributes: dict[str, Any]

    @property
    def cf(self) -> str:
        return str(self.attributes["CFSTRUCT"])
