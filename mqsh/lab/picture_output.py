"""Where a LAB picture goes: drawn to the terminal's width, or written as SVG to the file its
SVG('file') names (LAB TIMELINE, LAB MAP CLUSTER)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from mqsh.language.validate import Command
from mqsh.responses import Message, Result


def deliver(
    command: Command, lines: Callable[[int], list[str]], svg: Callable[[], str], title: str
) -> Result:
    """lines draws the picture to a width in columns; svg draws it as an SVG document."""
    target = command.params.get("SVG")
    if target is None:
        return Result([Message(line) for line in lines(shutil.get_terminal_size((100, 24)).columns)])
    try:
        Path(target).write_text(svg(), encoding="utf-8")
    except OSError as error:
        return Result.failure(f"mqsh: the picture cannot be written to {target} ({error.strerror}).")
    return Result.message(f"{title}: drawn as SVG in {target}.")
