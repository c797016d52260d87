"""The shell completion scripts in completions/: syntax, behaviour, and that they know every option."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pexpect
import pytest

from mqsh.cli import build_parser
from mqsh.commands.control.programs import CONTROL_COMMANDS
from tests.support import REPO

COMPLETIONS = REPO / "completions"
SCRIPTS = {"bash": COMPLETIONS / "mqsh.bash", "zsh": COMPLETIONS / "_mqsh", "fish": COMPLETIONS / "mqsh.fish"}

# Stand-ins for mqsh, which the scripts call as `mqsh [--data-dir DIR] dspmq` to
# list queue managers; a data directory shows up as one more name, IN<dir>.
DSPMQ_LINES = [
    "QMNAME(QM1)                                               STATUS(Running)",
    "QMNAME(QM.TWO)                                            STATUS(Ended normally)",
]
BASH_MQSH = (
    """mqsh() {
  if [[ $1 == --data-dir ]]; then echo "QMNAME(IN$2)  STATUS(Running)"; shift 2; fi
  [[ $1 == dspmq ]] || return
"""
    + "".join(f"  echo '{line}'\n" for line in DSPMQ_LINES)
    + "}"
)
FISH_MQSH = (
    """function mqsh
  if test "$argv[1]" = --data-dir
    echo "QMNAME(IN$argv[2])  STATUS(Running)"
    set argv $argv[3..-1]
  end
  test "$argv[1]" = dspmq; or return
"""
    + "".join(f"  echo '{line}'\n" for line in DSPMQ_LINES)
    + "end"
)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_syntax(shell):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    checked = subprocess.run([shell, "-n", str(SCRIPTS[shell])], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr


def bash_complete(*words: str) -> list[str]:
    """COMPREPLY for the line `mqsh WORDS...`, the cursor on the last word."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    line = " ".join(f"'{word}'" for word in ("mqsh", *words))
    script = (
        f"source {SCRIPTS['bash']}\n{BASH_MQSH}\n"
        f"COMP_WORDS=({line}); COMP_CWORD={len(words)}; _mqsh; printf '%s\\n' \"${{COMPREPLY[@]}}\""
    )
    completed = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True, check=True)
    return [word for word in completed.stdout.split("\n") if word]


@pytest.mark.parametrize(
    "words, expected",
    [
        (["s"], {"strmqm"}),
        (["Q"], {"QM1", "QM.TWO"}),
        (["--for"], {"--format"}),
        (["--format", ""], {"mqsc", "table", "json", "csv"}),
        (["--engine", "s"], {"spark"}),
        (
            ["strmqm", ""],
            {
                "QM1",
                "QM.TWO",
                "-c",
                "-r",
                "-a",
                "-x",
                "-e",
                "-f",
                "-si",
                "-ss",
                "-d",
                "-z",
                "-ns",
                "--verify-log",
                "--ignore-missing-log",
            },
        ),
        (
            ["rcrmqobj", "-t", "q"],
            {"queue", "q", "qalias", "qa", "qlocal", "ql", "qmodel", "qm", "qmgr", "qremote", "qr"},
        ),
        (["rcdmqimg", "-"], {"-m", "-z", "-l", "-t"}),
        (["endmqm", "-"], {"-c", "-w", "-i", "-p", "-r"}),
        (["crtmqm", "-l"], {"-lc", "-ll", "-lr", "-lf", "-lp", "-ls"}),
        (
            ["crtmqm", ""],
            {
                "-lc",
                "-ll",
                "-lr",
                "-lf",
                "-lp",
                "-ls",
                "-q",
                "--log-management",
                "--log-fs-size",
                "--checkpoint-records",
                "--host",
            },
        ),
        (["crtmqm", "--host", ""], set()),
        (["dspmq", "-m", ""], {"QM1", "QM.TWO"}),
        (["crtmqm", "-lf", ""], set()),
        (
            ["--data-dir", "/lab", ""],
            {
                "crtmqm",
                "strmqm",
                "endmqm",
                "dltmqm",
                "dspmq",
                "rcdmqimg",
                "rcrmqobj",
                "rcdmqmimg",
                "csq5pqsg",
                "dmpmqcfg",
                "audit",
                "lab",
                "IN/lab",
                "QM1",
                "QM.TWO",
            },
        ),
        (["csq5pqsg", ""], {"ADD", "REMOVE", "VERIFY", "QSG,", "QMGR,"}),
        (["audit", ""], {"-c", "--from", "--collect"}),
        (["dmpmqcfg", "-o", ""], {"mqsc", "1line"}),
        (["dmpmqcfg", "-t", "s"], {"service", "srvc", "sub"}),
        (
            ["--data-dir", "/lab", "strmqm", ""],
            {
                "IN/lab",
                "QM1",
                "QM.TWO",
                "-c",
                "-r",
                "-a",
                "-x",
                "-e",
                "-f",
                "-si",
                "-ss",
                "-d",
                "-z",
                "-ns",
                "--verify-log",
                "--ignore-missing-log",
            },
        ),
        (["--data-dir", "/lab", "crtmqm", "-q"], {"-q"}),
        (["-e", ""], {"QM1", "QM.TWO"}),
        (["-e", "--data-dir", "/lab", "Q"], {"QM1", "QM.TWO"}),
    ],
)
def test_bash_completion(words, expected):
    assert set(bash_complete(*words)) == expected


def fish_complete(line: str) -> set[str]:
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    script = f"source {SCRIPTS['fish']}\n{FISH_MQSH}\ncomplete -C '{line}'"
    completed = subprocess.run(
        ["fish", "--no-config", "-c", script], capture_output=True, text=True, check=True
    )
    return {entry.split("\t")[0] for entry in completed.stdout.split("\n") if entry}


@pytest.mark.parametrize(
    "line, expected",
    [
        ("mqsh s", {"strmqm"}),
        ("mqsh Q", {"QM1", "QM.TWO"}),
        ("mqsh --format ", {"mqsc", "table", "json", "csv"}),
        ("mqsh strmqm ", {"QM1", "QM.TWO"}),
        ("mqsh endmqm -", {"-c", "-w", "-i", "-p", "-r"}),
        ("mqsh crtmqm -l", {"-lc", "-ll", "-lr", "-lf", "-lp", "-ls"}),
        ("mqsh dspmq -m ", {"QM1", "QM.TWO"}),
        ("mqsh --data-dir /lab s", {"strmqm"}),
        ("mqsh --data-dir /lab strmqm ", {"IN/lab", "QM1", "QM.TWO"}),
    ],
)
def test_fish_completion(line, expected):
    assert fish_complete(line) == expected


ZSHRC = f"""fpath=({COMPLETIONS} $fpath)
autoload -U compinit && compinit -u
zstyle ':completion:*' menu no
PROMPT='ZSH> '
{BASH_MQSH}
"""


@pytest.mark.parametrize(
    "line, shown",
    [
        ("mqsh --data-dir /lab strmqm ", "IN/lab"),
        ("mqsh endmqm -", "preemptive"),
        ("mqsh --format ", "table"),
        ("mqsh ", "create a queue manager"),
    ],
)
def test_zsh_completion(tmp_path, line, shown):
    """zsh completes only inside its line editor, so this drives an interactive zsh."""
    if shutil.which("zsh") is None:
        pytest.skip("zsh is not installed")
    (tmp_path / ".zshrc").write_text(ZSHRC)
    env = {"ZDOTDIR": str(tmp_path), "HOME": str(tmp_path), "TERM": "dumb", "PATH": os.environ["PATH"]}
    zsh = pexpect.spawn("zsh", ["-i"], env=env, encoding="utf-8", dimensions=(40, 200), timeout=10)
    try:
        zsh.expect_exact("ZSH> ")
        zsh.send(line + "\t")
        zsh.expect_exact(shown)
    finally:
        zsh.terminate(force=True)


def _options() -> set[str]:
    options = {option for action in build_parser()._actions for option in action.option_strings}
    for parser in CONTROL_COMMANDS.values():
        options |= {option for action in parser._actions for option in action.option_strings}
    return options


def _fish_spelling(option: str) -> str:
    if option.startswith("--"):
        return f"-l {option[2:]}"
    # One-letter options are -s, or -o where a short -s would clash with longer
    # single-dash options (rcdmqimg's -l beside crtmqm's -lc, -ll ...).
    return f"-[so] {option[1:]}" if len(option) == 2 else f"-o {option[1:]}"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_option_and_control_command_is_known(shell):
    text = SCRIPTS[shell].read_text()
    spelled = _fish_spelling if shell == "fish" else re.escape
    missing = [
        option
        for option in sorted(_options())
        if not re.search(rf"(?<![\w-]){spelled(option)}(?![\w-])", text)
    ]
    missing += [command for command in CONTROL_COMMANDS if command not in text]
    assert missing == []
