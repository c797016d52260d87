"""The docs' pictures (docs/pictures/make.py): each committed, shown on its page with the command that
drew it, and the same as a fresh drawing from its lab."""

from __future__ import annotations

import importlib.util
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.support import REPO

PICTURES = REPO / "docs" / "pictures"


def _make():
    spec = importlib.util.spec_from_file_location("docs_pictures_make", PICTURES / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


make = _make()


def test_every_picture_is_committed_and_shown_on_its_page_with_its_command():
    assert sorted(path.name for path in PICTURES.glob("*.svg")) == sorted(
        drawing.file for drawing in make.DRAWINGS
    )
    for drawing in make.DRAWINGS:
        assert ET.parse(PICTURES / drawing.file).getroot().tag == "{http://www.w3.org/2000/svg}svg"
        page = (REPO / "docs" / drawing.page).read_text()
        assert drawing.markdown() in page, f"{drawing.page} does not show {drawing.file} with its command"
        assert (REPO / "examples" / drawing.lab).exists()


@pytest.mark.slow
def test_a_fresh_drawing_of_every_picture_is_the_one_committed():
    assert make.drifted() == [], "run python3 docs/pictures/make.py and commit the pictures"
