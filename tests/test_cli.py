"""mqsh's command line: its options before or after a control command, and a data directory it cannot use."""

from __future__ import annotations

import subprocess
import sys

from tests.support import REPO, run_mqsh


def test_control_commands_after_data_dir_option(data_dir):
    done = subprocess.run(
        [sys.executable, "-m", "mqsh", "--data-dir", str(data_dir), "crtmqm", "QMX"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0 and "IBM MQ queue manager created." in done.stdout


def test_mqsh_options_may_also_follow_a_control_command(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    created = run_mqsh("crtmqm", "-ll", "QMX", "--data-dir", str(elsewhere), data_dir=tmp_path / "default")
    assert created.returncode == 0 and (elsewhere / "qmgrs" / "QMX").is_dir()
    started = run_mqsh(
        "strmqm", "QMX", f"--data-dir={elsewhere}", "--engine", "local", data_dir=tmp_path / "default"
    )
    assert started.returncode == 0 and "started" in started.stdout
    assert not (tmp_path / "default" / "qmgrs").exists()


def test_engine_options_may_come_before_a_control_command(data_dir):
    assert run_mqsh("crtmqm", "QMX", data_dir=data_dir).returncode == 0
    started = run_mqsh("--engine", "local", "--spark-master=local[1]", "strmqm", "QMX", data_dir=data_dir)
    assert started.returncode == 0 and "started" in started.stdout
    refused = run_mqsh("--engine", "fast", "endmqm", "QMX", data_dir=data_dir)
    assert refused.returncode == 20 and "--engine must be one of" in refused.stderr


def test_a_data_directory_that_cannot_be_used_is_one_line_and_exit_20(tmp_path):
    not_a_directory = tmp_path / "afile"
    not_a_directory.write_text("")
    done = run_mqsh("dspmq", data_dir=not_a_directory)
    assert done.returncode == 20 and "Traceback" not in done.stderr
    assert done.stderr.startswith("mqsh: cannot use ") and "Not a directory" in done.stderr


def test_an_empty_data_directory_option_is_refused_not_taken_as_the_current_one(data_dir):
    done = run_mqsh("--data-dir", "", "dspmq", data_dir=data_dir)
    assert done.returncode == 20 and done.stderr == "mqsh: --data-dir needs a directory.\n"
    done = run_mqsh("--data-dir", "", "QM1", data_dir=data_dir)
    assert done.returncode == 2 and "--data-dir needs a directory" in done.stderr
    assert not (REPO / "qmgrs").exists()
