"""Fixtures for the shell tests."""

from __future__ import annotations

import pytest

from mqsh.commands.control.programs import CONTROL_COMMANDS
from mqsh.language.catalogue import load
from mqsh.shell.special import SHELL_COMMANDS
from mqsh.shell.vocabulary import Vocabulary


@pytest.fixture(scope="session")
def vocabulary() -> Vocabulary:
    """What the shell knows: the shipped catalogue, control commands and shell commands."""
    return Vocabulary.of(load(), CONTROL_COMMANDS, SHELL_COMMANDS)
