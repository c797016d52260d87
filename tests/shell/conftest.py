"""Fixtures for the shell tests."""

from __future__ import annotations

import pytest

from mqsh.language.catalogue import build
from mqsh.shell.vocabulary import Vocabulary
from tests.shell.fakes import SHELL_COMMANDS, catalogue_data, control_parsers


@pytest.fixture(scope="session")
def vocabulary() -> Vocabulary:
    return Vocabulary(build(catalogue_data()), control_parsers(), SHELL_COMMANDS)
