"""mqsh processes forked from one that has already imported mqsh.

A test that runs mqsh as a user does (tests.support.run_mqsh) gets a process of its own: its own
pid, locks, exit code, stdin, stdout and stderr. Most of what starting `python -m mqsh` costs is
importing mqsh, and that is the same for every run: one server process per test session imports
it once, then forks a child for each run, which sets its arguments, environment and folder and
runs mqsh's main as `python -m mqsh` would (atexit, the threads it waits for, its exit code). Tests
of what a start imports start a fresh interpreter themselves.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

MAIN = str(Path(__file__).resolve().parents[1] / "mqsh" / "__main__.py")  # sys.argv[0] of python -m mqsh
LARGEST_REQUEST = 1 << 20

# The server: requests come on the socket passed to it (fd argv[1]), each a JSON document with
# the stdin, stdout and stderr a child is to have; it answers the child's pid, then its exit code.
# A child leaves the loop and runs main at the top level, so that it exits as python -m mqsh does.
SERVER = f"""
import json, os, socket, sys
import mqsh.cli

def serve():
    channel = socket.socket(fileno=int(sys.argv[1]))
    while True:
        data, fds, _flags, _address = socket.recv_fds(channel, {LARGEST_REQUEST}, 3)
        if not data:
            return False  # the tests ended
        request = json.loads(data)
        pid = os.fork()
        if pid == 0:
            channel.close()
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
                os.close(fd)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            sys.argv = request["argv"]
            return True
        for fd in fds:
            os.close(fd)
        channel.send(json.dumps({{"pid": pid}}).encode())
        channel.send(json.dumps({{"returncode": os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}}).encode())

if serve():
    raise SystemExit(mqsh.cli.main())
"""


class Server:
    """The forking server of this test process, started at its first use; it ends when the
    test process does (its socket closes)."""

    def __init__(self, cwd: Path):
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            # Pipes, as its children's are: Python sets its standard streams up at start-up by
            # what they are, and a child keeps those objects over the pipes it is given.
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        theirs.close()
        self.lock = threading.Lock()

    def run(
        self, args: list[str], stdin: str, env: dict[str, str], cwd: Path, timeout: float
    ) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "mqsh", *args]
        request = json.dumps({"argv": [MAIN, *args], "env": env, "cwd": str(cwd)}).encode()
        child_in, to_child = os.pipe()
        from_child, child_out = os.pipe()
        errors_from_child, child_err = os.pipe()
        with self.lock:
            try:
                socket.send_fds(self.channel, [request], [child_in, child_out, child_err])
            finally:
                for fd in (child_in, child_out, child_err):
                    os.close(fd)
            pid = json.loads(self.channel.recv(LARGEST_REQUEST))["pid"]
            outputs: list[str] = ["", ""]
            workers = [
                threading.Thread(target=_write, args=(to_child, stdin)),
                threading.Thread(target=_read, args=(from_child, outputs, 0)),
                threading.Thread(target=_read, args=(errors_from_child, outputs, 1)),
            ]
            for worker in workers:
                worker.start()
            self.channel.settimeout(timeout)
            try:
                answer = self.channel.recv(LARGEST_REQUEST)
                timed_out = False
            except TimeoutError:  # as subprocess.run: the child is killed, and the caller told
                os.kill(pid, signal.SIGKILL)
                self.channel.settimeout(None)
                answer = self.channel.recv(LARGEST_REQUEST)
                timed_out = True
            finally:
                self.channel.settimeout(None)
            for worker in workers:
                worker.join()
        if timed_out:
            raise subprocess.TimeoutExpired(command, timeout, outputs[0], outputs[1])
        return subprocess.CompletedProcess(command, json.loads(answer)["returncode"], outputs[0], outputs[1])


def _write(fd: int, text: str) -> None:
    with open(fd, "w") as pipe:
        try:
            pipe.write(text)
        except BrokenPipeError:
            pass  # the child ended without reading it all, as subprocess.run allows


def _read(fd: int, outputs: list[str], index: int) -> None:
    with open(fd) as pipe:
        outputs[index] = pipe.read()


_server: Server | None = None


def run_mqsh(
    args: list[str], stdin: str, env: dict[str, str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess:
    """mqsh args in a child process: what subprocess.run(..., text=True, capture_output=True)
    of python -m mqsh gives."""
    global _server
    if _server is None or _server.process.poll() is not None:
        _server = Server(cwd)
    return _server.run(args, stdin, env, cwd, timeout)
