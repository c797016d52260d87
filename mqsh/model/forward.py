"""Attributes one object keeps for another: a part's own, reached through what holds it."""

from __future__ import annotations

from typing import Any


def forward(part: str, name: str, settable: bool = False) -> Any:
    """A property that is the attribute name of the holder's attribute part."""

    def get(self: Any) -> Any:
        return getattr(getattr(self, part), name)

    def set_(self: Any, value: Any) -> None:
        setattr(getattr(self, part), name, value)

    return property(get, set_ if settable else None, doc=f"{part}.{name}")
