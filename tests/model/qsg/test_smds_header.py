"""A data set at its open: whether its owner formats it, and the checks on its header."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import DataSet, DataSetError, Sizing, format_data_set
from mqsh.model.qsg.smds_header import discarded, new_header, to_format, validate

SIZING = Sizing(blocks=8, secondary=4, max_extents=3)


def _formatted(tmp_path, owner="QM1", defined="D1", partial=False):
    path = tmp_path / "QM1.SMDS"
    header = new_header(owner, "QSGA", "APP1", {"DSBLOCK": "4K"}, SIZING, defined, "2026-01-01 00:00:00")
    header.partial = partial
    format_data_set(path, header)
    return path


def test_only_the_owner_formats_and_only_a_new_or_discarded_or_preformatted_one(tmp_path):
    missing = tmp_path / "none"
    state = states.SmdsState("APP1", "QM1", status=states.NEW)
    assert to_format("QM1", "QM1", state, missing, "QSGA", "APP1")
    assert not to_format("QM2", "QM1", state, missing, "QSGA", "APP1")
    empty = states.SmdsState("APP1", "QM1", status=states.EMPTY)
    assert to_format("QM1", "QM1", empty, missing, "QSGA", "APP1")  # its contents discarded: missing
    path = _formatted(tmp_path)
    assert not to_format(
        "QM1", "QM1", empty, path, "QSGA", "APP1"
    )  # still a good header: reset, not formatted
    recovered = states.SmdsState("APP1", "QM1", status=states.RECOVERED)
    assert not to_format("QM1", "QM1", recovered, path, "QSGA", "APP1")
    path.write_bytes(bytes(8192))  # preformatted: no header
    assert to_format("QM1", "QM1", recovered, path, "QSGA", "APP1")
    active = states.SmdsState("APP1", "QM1", status=states.ACTIVE)
    assert not to_format("QM1", "QM1", active, path, "QSGA", "APP1")


def test_an_empty_data_set_left_partly_recovered_is_discarded(tmp_path):
    assert discarded(_formatted(tmp_path, partial=True), "QSGA", "APP1", "QM1")
    assert not discarded(_formatted(tmp_path), "QSGA", "APP1", "QM1")


def test_the_header_must_name_the_data_set_and_the_structures_definition(tmp_path):
    data_set = DataSet(_formatted(tmp_path), owner_side=False)
    try:
        validate(data_set, "QSGA", "APP1", "QM1", "D1")
        with pytest.raises(DataSetError) as other:
            validate(data_set, "QSGA", "APP1", "QM2", "D1")
        assert other.value.kind == "HEADER" and "belongs to SMDS(QM1)" in str(other.value)
        with pytest.raises(DataSetError) as earlier:
            validate(data_set, "QSGA", "APP1", "QM1", "D2")
        assert earlier.value.kind == "HEADER" and "earlier definition" in str(earlier.value)
    finally:
        data_set.close()
    partial = DataSet(_formatted(tmp_path, partial=True), owner_side=False)
    try:
        with pytest.raises(DataSetError) as left:
            validate(partial, "QSGA", "APP1", "QM1", "D1")
        assert left.value.kind == "PARTIAL"
    finally:
        partial.close()
