"""Colours of the interactive shell, in the 16 ANSI colours so they suit light and dark terminals."""

from __future__ import annotations

from prompt_toolkit.styles import Style

SHELL_STYLE = Style.from_dict(
    {
        "mqsc.verb": "bold ansiblue",
        "mqsc.object-type": "ansicyan",
        "mqsc.object-name": "ansigreen",
        "mqsc.attribute": "ansimagenta",
        "mqsc.value": "ansigreen",
        "mqsc.string": "ansiyellow",
        "mqsc.where": "bold ansimagenta",
        "mqsc.operator": "bold",
        "mqsc.continuation": "bold ansiyellow",
        "mqsc.terminator": "bold",
        "mqsc.comment": "italic ansibrightblack",
        "mqsc.command": "bold ansiblue",
        "mqsc.option": "ansicyan",
        "mqsc.unknown": "underline",
        "mqsc.error": "ansired",
    }
)
