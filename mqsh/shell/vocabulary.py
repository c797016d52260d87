"""Every word the interactive shell understands, gathered from the registries that define them.

MQSC words come from the attribute catalogue, control commands (crtmqm, strmqm,
...) from their argparse parsers, shell commands (help, \\format, \\q) from the
shell-command registry. Highlighting and completion read all three through one
Vocabulary, so neither keeps a word list of its own.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field

from mqsh.language.catalogue import Catalogue
from mqsh.shell.special import ShellCommandSpec


@dataclass(frozen=True)
class Vocabulary:
    catalogue: Catalogue
    control_commands: Mapping[str, argparse.ArgumentParser] = field(default_factory=dict)
    shell_commands: tuple[ShellCommandSpec, ...] = ()

    @classmethod
    def of(
        cls,
        catalogue: Catalogue,
        control_commands: Mapping[str, argparse.ArgumentParser],
        shell_commands: Mapping[str, ShellCommandSpec],
    ) -> Vocabulary:
        """From the registries as mqsh keeps them (name -> parser, name -> shell command). The
        control commands' mapping is kept as it is: it makes a command's parser when first asked."""
        return cls(catalogue, control_commands, tuple(shell_commands.values()))

    def control_command(self, word: str) -> str | None:
        """The control command a word names (crtmqm), or None."""
        name = word.lower()
        return name if name in self.control_commands else None

    def shell_command(self, word: str) -> ShellCommandSpec | None:
        """The shell command a word names by its name or an alias, or None."""
        wanted = word.lower()
        for entry in self.shell_commands:
            if wanted in (entry.name.lower(), *(alias.lower() for alias in entry.aliases)):
                return entry
        return None
