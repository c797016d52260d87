"""Every word the interactive shell understands, gathered from the registries that define them.

MQSC words come from the attribute catalogue, control commands (crtmqm, strmqm,
...) from their argparse parsers, shell commands (help, \\format, \\q) from the
shell-command registry. Highlighting and completion read all three through one
Vocabulary, so neither keeps a word list of its own.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from mqsh.language.catalogue import Catalogue


class ShellCommandInfo(Protocol):
    """What the shell-command registry records about each command."""

    name: str
    aliases: tuple[str, ...] | list[str]
    usage: str
    description: str


@dataclass(frozen=True)
class Vocabulary:
    catalogue: Catalogue
    control_commands: Mapping[str, argparse.ArgumentParser] = field(default_factory=dict)
    shell_commands: tuple[ShellCommandInfo, ...] = ()

    @classmethod
    def of(cls, catalogue: Catalogue, control_commands: Mapping[str, argparse.ArgumentParser],
           shell_commands: Iterable[ShellCommandInfo] | Mapping[str, ShellCommandInfo]) -> "Vocabulary":
        entries = shell_commands.values() if isinstance(shell_commands, Mapping) else shell_commands
        return cls(catalogue, dict(control_commands), tuple(entries))

    def control_command(self, word: str) -> str | None:
        """The control command a word names (crtmqm), or None."""
        name = word.lower()
        return name if name in self.control_commands else None

    def shell_command(self, word: str) -> ShellCommandInfo | None:
        """The shell command a word names by its name or an alias, or None."""
        wanted = word.lower()
        for entry in self.shell_commands:
            if wanted in (entry.name.lower(), *(alias.lower() for alias in entry.aliases)):
                return entry
        return None
