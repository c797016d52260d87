"""The language's parsed forms kept between processes: read back when their sources are the same,
made afresh when not, and never a failure when the cache folder cannot be used."""

from __future__ import annotations

import os

import pytest

from mqsh.language import cache
from mqsh.language.catalogue import build, load
from tests.support import run_mqsh


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "mqsh"


def test_a_kept_form_is_read_back_and_not_made_again(folder):
    made = []
    assert cache.kept("form", [b"source"], lambda: made.append(1) or {"a": 1}) == {"a": 1}
    assert cache.kept("form", [b"source"], lambda: made.append(1) or {"a": 2}) == {"a": 1}
    assert made == [1]
    assert [path.name.split("-")[0] for path in folder.iterdir()] == ["form"]


def test_other_sources_make_it_afresh(folder):
    cache.kept("form", [b"one"], lambda: "first")
    assert cache.kept("form", [b"two"], lambda: "second") == "second"
    assert cache.kept("form", [b"one"], lambda: "again") == "first"  # a day old only when forgotten


def test_a_form_kept_from_other_sources_a_day_ago_is_forgotten(folder):
    cache.kept("form", [b"one"], lambda: "first")
    (old,) = folder.iterdir()
    os.utime(old, (0, 0))
    cache.kept("form", [b"two"], lambda: "second")
    assert old not in list(folder.iterdir())
    assert len(list(folder.iterdir())) == 1


def test_a_damaged_form_is_made_again(folder):
    cache.kept("form", [b"source"], lambda: "made")
    (path,) = folder.iterdir()
    path.write_bytes(b"\x80\x05 cut short")
    assert cache.kept("form", [b"source"], lambda: "made again") == "made again"
    assert cache.kept("form", [b"source"], lambda: "not used") == "made again"


def test_a_folder_that_cannot_be_written_costs_only_the_time(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert cache.kept("form", [b"source"], lambda: "made") == "made"
    assert cache.kept("form", [b"source"], lambda: "made again") == "made again"
    assert cache.grammar_cache("start: WORD").startswith(str(blocked))


def test_the_kept_catalogue_is_the_one_the_file_makes(folder):
    import tomllib
    from importlib import resources

    text = resources.files("mqsh.language").joinpath("catalogue.toml").read_text()
    load.cache_clear()
    try:
        first, second = load(), None
        load.cache_clear()
        second = load()  # read back from the cache folder
    finally:
        load.cache_clear()
    assert second is not first
    assert second == first == build(tomllib.loads(text))
    assert second.verb("DIS").name == "DISPLAY" and second.positive_of("NOSHARE") == "SHARE"


def test_the_shell_keeps_its_forms_reads_them_and_runs_with_damaged_ones(tmp_path):
    """Through the shell: the first run keeps the catalogue, the grammar's analysis and its terminal
    patterns, the next reads them (commands of the plain shape and the parser's alike), and a run
    whose kept forms were damaged still answers, and keeps them whole again."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    data_dir = tmp_path / "data"
    commands = "DISPLAY QMGR QMNAME\nDISPLAY QLOCAL(*) WHERE(MAXDEPTH EQ 5000) MAXDEPTH\nDEFINE QLOCAL(A) DESCR('a, b')\n"
    first = run_mqsh("-e", stdin=commands, data_dir=data_dir, env=env)
    assert "QMNAME(QM1)" in first.stdout and "AMQ8006I" in first.stdout, first.stdout + first.stderr
    kept = sorted((tmp_path / "cache" / "mqsh").iterdir())
    assert [path.name.split("-")[0] for path in kept] == ["catalogue", "mqsc", "terminals"]
    written = [path.stat().st_mtime_ns for path in kept]
    second = run_mqsh("-e", stdin=commands.replace("(A)", "(B)"), data_dir=data_dir, env=env)
    assert "QMNAME(QM1)" in second.stdout and "QUEUE(A)" in second.stdout and "AMQ8006I" in second.stdout, (
        second.stdout + second.stderr
    )
    assert [path.stat().st_mtime_ns for path in kept] == written  # read, not made again
    for path in kept:
        path.write_bytes(b"damaged")
    third = run_mqsh(
        "-e",
        stdin="DISPLAY QLOCAL(A) DESCR\nDISPLAY QLOCAL(*) WHERE(DESCR EQ 'a, b')\n",
        data_dir=data_dir,
        env=env,
    )
    assert "DESCR(a, b)" in third.stdout and third.stdout.count("QUEUE(A)") == 2, third.stdout + third.stderr
    assert third.stderr == ""
    assert all(path.read_bytes() != b"damaged" for path in kept)
