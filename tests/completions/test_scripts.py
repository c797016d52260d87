"""The shell completion scripts in completions/: syntax, behaviour, and that they know every option."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from mqsh.cli import build_parser
from mqsh.commands.control import CONTROL_COMMANDS
from tests.support import REPO

COMPLETIONS = REPO / "completions"
SCRIPTS = {"bash": COMPLETIONS / "mqsh.bash", "zsh": COMPLETIONS / "_mqsh", "fish": COMPLETIONS / "mqsh.fish"}

# Stand-ins for `mqsh dspmq`, which the scripts call to list queue managers.
DSPMQ_LINES = ["QMNAME(QM1)                                               STATUS(Running)",
               "QMNAME(QM.TWO)                                            STATUS(Ended normally)"]
BASH_DSPMQ = "mqsh() {\n" + "".join(f"  echo '{line}'\n" for line in DSPMQ_LINES) + "}"
FISH_DSPMQ = "function mqsh\n" + "".join(f"  echo '{line}'\n" for line in DSPMQ_LINES) + "end"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_syntax(shell):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    checked = subprocess.run([shell, "-n", str(SCRIPTS[shell])], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def bash_complete(*words: str) -> list[str]:
    """COMPREPLY for the line `mqsh WORDS...`, the cursor on the last word."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    line = " ".join(f"'{word}'" for word in ("mqsh", *words))
    script = (f"source {SCRIPTS['bash']}\n{BASH_DSPMQ}\n"
              f"COMP_WORDS=({line}); COMP_CWORD={len(words)}; _mqsh; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    completed = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True, check=True)
    return [word for word in completed.stdout.split("\n") if word]


@pytest.mark.parametrize("words, expected", [
    (["s"], {"strmqm"}),
    (["Q"], {"QM1", "QM.TWO"}),
    (["--for"], {"--format"}),
    (["--format", ""], {"mqsc", "table", "json"}),
    (["--engine", "s"], {"spark"}),
    (["strmqm", ""], {"QM1", "QM.TWO", "-ns", "--data-dir"}),
    (["endmqm", "-"], {"-c", "-i", "-p", "--data-dir"}),
    (["crtmqm", "-l"], {"-lc", "-ll", "-lr", "-lf", "-lp", "-ls"}),
    (["crtmqm", ""], {"-lc", "-ll", "-lr", "-lf", "-lp", "-ls", "-q", "--data-dir"}),
    (["dspmq", "-m", ""], {"QM1", "QM.TWO"}),
    (["crtmqm", "-lf", ""], set()),
])
def test_bash_completion(words, expected):
    assert set(bash_complete(*words)) == expected


def fish_complete(line: str) -> set[str]:
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    script = f"source {SCRIPTS['fish']}\n{FISH_DSPMQ}\ncomplete -C '{line}'"
    completed = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True, check=True)
    return {entry.split("\t")[0] for entry in completed.stdout.split("\n") if entry}


@pytest.mark.parametrize("line, expected", [
    ("mqsh s", {"strmqm"}),
    ("mqsh Q", {"QM1", "QM.TWO"}),
    ("mqsh --format ", {"mqsc", "table", "json"}),
    ("mqsh strmqm ", {"QM1", "QM.TWO"}),
    ("mqsh endmqm -", {"-c", "-i", "-p", "--data-dir"}),
    ("mqsh crtmqm -l", {"-lc", "-ll", "-lr", "-lf", "-lp", "-ls"}),
    ("mqsh dspmq -m ", {"QM1", "QM.TWO"}),
])
def test_fish_completion(line, expected):
    assert fish_complete(line) == expected


def _options() -> set[str]:
    options = {option for action in build_parser()._actions for option in action.option_strings}
    for parser in CONTROL_COMMANDS.values():
        options |= {option for action in parser._actions for option in action.option_strings}
    return options


def _fish_spelling(option: str) -> str:
    if option.startswith("--"):
        return f"-l {option[2:]}"
    return f"-s {option[1:]}" if len(option) == 2 else f"-o {option[1:]}"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_option_and_control_command_is_known(shell):
    text = SCRIPTS[shell].read_text()
    spelled = _fish_spelling if shell == "fish" else (lambda option: option)
    missing = [option for option in sorted(_options())
               if not re.search(rf"(?<![\w-]){re.escape(spelled(option))}(?![\w-])", text)]
    missing += [command for command in CONTROL_COMMANDS if command not in text]
    assert missing == []
