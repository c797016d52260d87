"""One local[2] Spark session for every Spark test; they skip where Java is missing."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid

import pytest

MASTER = "local[2]"


@pytest.fixture(scope="session")
def spark_runner(tmp_path_factory):
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java, which is not installed")
    from mqsh.recovery.spark.session import runner

    spark_runner = runner(MASTER)
    spark_runner.session()
    return spark_runner


# A Spark Connect server of its own: a process, as a cluster's would be, with a token.
CONNECT_SERVER = """
import signal
import sys
from pyspark.sql import SparkSession
SparkSession.builder.remote("local[1]").config("spark.connect.grpc.binding.port", sys.argv[1]).getOrCreate()
signal.pause()  # serves until the tests end and stop it
"""


@pytest.fixture(scope="session")
def connect_master(tmp_path_factory):
    """sc:// address of a local Spark Connect server, started for these tests."""
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java, which is not installed")
    pytest.importorskip("grpc", reason="Spark Connect's client needs pyspark[connect]")
    with socket.socket() as probe:
        probe.bind(("localhost", 0))
        port = probe.getsockname()[1]
    token = uuid.uuid4().hex
    log = (tmp_path_factory.mktemp("connect") / "server.log").open("w")
    # A session of its own, so that its JVM is stopped with it.
    server = subprocess.Popen(
        [sys.executable, "-c", CONNECT_SERVER, str(port)],
        stdout=log,
        stderr=log,
        env={**os.environ, "SPARK_CONNECT_AUTHENTICATE_TOKEN": token},
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while server.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("localhost", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    else:
        os.killpg(server.pid, signal.SIGKILL)
        pytest.fail(f"the Spark Connect server did not start (see {log.name})")
    saved = os.environ.get("SPARK_CONNECT_AUTHENTICATE_TOKEN")
    os.environ["SPARK_CONNECT_AUTHENTICATE_TOKEN"] = token  # how a client proves itself to a local server
    yield f"sc://localhost:{port}"
    if saved is None:
        del os.environ["SPARK_CONNECT_AUTHENTICATE_TOKEN"]
    else:
        os.environ["SPARK_CONNECT_AUTHENTICATE_TOKEN"] = saved
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    log.close()
