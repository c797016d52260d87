"""The catalogue, loaded once for a test module, and its data file as written."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest

from mqsh.language.catalogue import Catalogue, load


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    """The data file as written (readonly lists are not kept by the loader)."""
    return tomllib.loads(resources.files("mqsh.language").joinpath("catalogue.toml").read_text())
