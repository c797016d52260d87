"""The process's SparkSession: created on first need, then kept warm.

Starting Spark costs seconds (a JVM, then class loading on the first job), so
mqsh starts it only when a replay is heavy enough to need it and keeps it for
the rest of the process. The settings are those of small data on few cores:
a few shuffle partitions per core rather than 200, no UI, no console progress
bar. Spark's own output goes to a log file, never to the shell's report: the
JVM is started with its stdout and stderr on that file and a log4j2
configuration that keeps only errors.

Each job runs under a tag, so it can be interrupted from another thread or by
Ctrl-C: the SparkContext's job tags on a classic session, the session's tags
over Spark Connect, which has no SparkContext.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

QUIET_LOG = Path(__file__).with_name("log4j2-quiet.properties")
PARTITIONS_PER_CORE = 3
PROGRESS_EVERY = 0.5  # seconds
LOCAL_TABLE_BYTES = str(4 << 20)  # Arrow tables smaller than this go to Spark as local relations
Result = TypeVar("Result")


class SparkUnavailable(Exception):
    """Spark could not be started or reached, or a job failed; the message is one line."""


class ReplayCancelled(Exception):
    """The job was cancelled (Ctrl-C or cancel()); nothing was applied."""


def spark_log_file() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "mqsh" / "spark.log"


def cores(master: str) -> int:
    """The cores a master runs tasks on: local[n], local, or (a cluster) this machine's as a guess."""
    match = re.fullmatch(r"local\[(\d+)\]", master)
    if match:
        return int(match.group(1))
    return 1 if master == "local" else os.cpu_count() or 2


@contextlib.contextmanager
def _output_to(path: Path) -> Iterator[None]:
    """Point this process's stdout and stderr at path while a child (the JVM) is started."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(path, "ab") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for descriptor in saved:
            os.close(descriptor)


@contextlib.contextmanager
def planning_failures() -> Iterator[None]:
    """What Spark raises while a replay is being planned, outside any job, as SparkUnavailable.

    Building a plan can fail too: a table Spark refuses, a query it cannot
    analyse, a Spark Connect server gone (which analyses on the server).
    """
    try:
        yield
    except Exception as error:
        from py4j.protocol import Py4JError
        from pyspark.errors import PySparkException

        if isinstance(error, (PySparkException, Py4JError)):
            raise SparkUnavailable(f"Spark replay failed: {_one_line(error)}") from None
        raise


GATEWAY_CALL_FAILED = "An error occurred while calling "  # how py4j's Py4JJavaError begins
_LOST_TASK = re.compile(r"most recent failure: Lost task [^:]*?\): (.+)")


def _one_line(error: BaseException) -> str:
    """What went wrong in one short line, without a closing full stop: the report puts its own.

    Most errors say it in their first line. A failure in the JVM that pyspark
    passes on as it came (Py4JJavaError: a job's result lost, memory run out)
    says first which call failed, then the Java exception and what caused it:
    its last cause is what went wrong, and of a failed job, what the task
    failed with last.
    """
    lines = [line.strip() for line in str(error).strip().splitlines()]
    line = lines[0] if lines else type(error).__name__
    if line.startswith(GATEWAY_CALL_FAILED):
        causes = [cause.removeprefix("Caused by: ") for cause in lines if cause.startswith("Caused by: ")]
        thrown = [thrown.removeprefix(": ") for thrown in lines[1:2] if thrown.startswith(": ")]
        line = (causes or thrown or [line])[-1]
        lost = _LOST_TASK.search(line)
        line = lost[1] if lost else line
    return line[:240].rstrip(".")


CONNECT_PORT = 15002  # a Spark Connect server's port when the URL names none
MASTER_PORT = 7077  # a standalone master's port when the URL names none
REACH_TIMEOUT = 10  # seconds to reach a Spark Connect server or a standalone master


def _reach(master: str) -> None:
    """SparkUnavailable unless a Spark Connect server (sc://) or a standalone master (spark://, one
    of several for a master with standbys: spark://host1:7077,host2:7077) answers at master.

    Both clients retry an unreachable address for a minute or more - the Connect client at every
    call and again as the process exits, the standalone one until it gives up with a stopped
    SparkContext that says nothing of why - so an address where nothing answers is said at once.
    """
    import socket  # only where a Spark master is named: not in every process that may replay

    scheme, _, rest = master.partition("://")
    connect = scheme == "sc"
    hosts = [rest.split("/", 1)[0]] if connect else rest.split("/", 1)[0].split(",")
    problem: BaseException | None = None
    for host in hosts:
        location = urlsplit(f"//{host}")
        try:
            with socket.create_connection(
                (
                    location.hostname or "localhost",
                    location.port or (CONNECT_PORT if connect else MASTER_PORT),
                ),
                timeout=REACH_TIMEOUT,
            ):
                return
        except (OSError, ValueError) as error:
            problem = error
    what = "no Spark Connect server answers there" if connect else "no Spark master answers there"
    raise SparkUnavailable(
        f"cannot start Spark at {master}: {what} ({_one_line(problem or ValueError(master))})"
    ) from None


def create_session(master: str):
    """A new SparkSession for master (local[*], spark://..., sc://... for Spark Connect)."""
    # Python workers must run this interpreter, which has mqsh's packages (pyarrow).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SparkUnavailable("pyspark is not installed") from None
    log_file = spark_log_file()
    if master.startswith(("sc://", "spark://")):
        _reach(master)
    try:
        if master.startswith("sc://"):
            builder = SparkSession.builder.remote(master)
        else:
            builder = _local_builder(SparkSession.builder, master)
        # The JVM's output, and a Spark Connect client's warnings as it loads, go to the log.
        with _output_to(log_file):
            return builder.getOrCreate()
    except Exception as error:
        raise SparkUnavailable(
            f"cannot start Spark at {master}: {_one_line(error)} (details in {log_file})"
        ) from None


def _local_builder(builder, master: str):
    """A builder for a session of mqsh's own (local[*] or a cluster's master), quiet and sized."""
    return (
        builder.master(master)
        .appName("mqsh")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(PARTITIONS_PER_CORE * cores(master)))
        # Adaptive execution re-plans a query at each stage it runs: milliseconds that a
        # replay of few moves (one stage) feels, where the shuffles of spread moves are
        # already in few partitions and it has nothing to coalesce.
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.driver.memory", os.environ.get("MQSH_SPARK_DRIVER_MEMORY", "2g"))
        # Tables handed over from Python become scans (the active extent), not plan
        # literals the optimizer would work through row by row for every query -
        # unless they are small (settled moves, epochs): a local relation plans as
        # one partition, which the few moves' survivors then stay in.
        .config("spark.sql.execution.arrow.localRelationThreshold", LOCAL_TABLE_BYTES)
        # The extents' copies are local files, listed in a moment: listing a log of
        # many extents as a Spark job of its own would cost more than the replay.
        .config("spark.sql.sources.parallelPartitionDiscovery.threshold", "100000")
        .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{QUIET_LOG}")
    )


class SparkRunner:
    """Runs Spark actions for mqsh: lazily started session, progress, cancellation."""

    def __init__(self, master: str):
        self.master = master
        self._session = None
        self._tag: str | None = None
        self._within = False  # inside cancellable(): a cancel stops the rest of it
        self._cancelled = False

    def session(self):
        if self._session is None:
            self._session = create_session(self.master)
        return self._session

    @contextlib.contextmanager
    def cancellable(self) -> Iterator[None]:
        """One piece of work made of several jobs: cancel() anywhere in it cancels what is left."""
        self._within, self._cancelled = True, False
        try:
            yield
        finally:
            self._within, self._cancelled = False, False

    def call(self, work: Callable[[], Result]) -> Result:
        """work - Spark jobs and the planning between them - as one cancellable piece, on a
        thread of its own.

        The calling thread only waits, so a Ctrl-C reaches it there, never in the middle
        of a call into the JVM (which would leave that connection out of step, or run
        pyspark's own handler inside the call); it then cancels the work and waits for
        it to stop.
        """
        outcome: list[tuple[bool, Any]] = []

        def body() -> None:
            try:
                outcome.append((True, work()))
            except BaseException as error:
                outcome.append((False, error))

        with self.cancellable():
            worker = threading.Thread(target=body, name="mqsh-spark-work", daemon=True)
            worker.start()
            try:
                worker.join()
            except KeyboardInterrupt:
                self.cancel()
                worker.join()
                raise ReplayCancelled("replay interrupted; nothing was changed") from None
        done, value = outcome[0]
        if done:
            return value
        raise value

    def run(self, action: Callable[[], Result]) -> Result:
        """Run action (which starts Spark jobs) under a fresh tag; ReplayCancelled if cancelled."""
        spark = self.session()
        if self._cancelled:
            raise ReplayCancelled("replay cancelled; nothing was changed")
        tag = self._tag = f"mqsh-{uuid.uuid4().hex}"
        classic = self._context(spark)
        if classic is not None:
            # The context's tags are inherited local properties, so they reach the jobs that
            # toArrow starts from a serving thread of its own; a session's tags do not.
            classic.addJobTag(tag)
            classic.setInterruptOnCancel(True)  # stop running tasks, not only future ones
        else:
            spark.addTag(tag)
        stop = threading.Event()
        progress = None
        if classic is not None and sys.stderr.isatty():
            progress = threading.Thread(target=_show_progress, args=(classic, stop), daemon=True)
            progress.start()
        try:
            result = action()
        except KeyboardInterrupt:
            self.cancel()
            raise ReplayCancelled("replay interrupted; nothing was changed") from None
        except Exception as error:
            if self._cancelled:
                raise ReplayCancelled("replay cancelled; nothing was changed") from None
            raise SparkUnavailable(f"Spark replay failed: {_one_line(error)}") from None
        finally:
            stop.set()
            if progress is not None:
                progress.join()
            if classic is not None:
                classic.removeJobTag(tag)
            else:
                spark.removeTag(tag)
            self._tag = None
        if self._cancelled:  # the cancel came as the job was finishing: its result is not used
            raise ReplayCancelled("replay cancelled; nothing was changed")
        return result

    def cancel(self) -> None:
        """Interrupt the running job and what is left of the work (safe from any thread)."""
        if not self._within:
            return
        self._cancelled = True
        tag = self._tag
        if tag is None or self._session is None:
            return
        classic = self._context(self._session)
        if classic is not None:
            classic.cancelJobsWithTag(tag)
        else:
            self._session.interruptTag(tag)

    @staticmethod
    def _context(spark):
        """The SparkContext of a classic session; None over Spark Connect, which has none."""
        try:
            return spark.sparkContext
        except Exception:
            return None


def _show_progress(context, stop: threading.Event) -> None:
    """Stage and task counts on stderr (a terminal) until stop is set."""
    tracker = context.statusTracker()
    shown = False
    while not stop.wait(PROGRESS_EVERY):
        stages = [info for info in map(tracker.getStageInfo, tracker.getActiveStageIds()) if info is not None]
        if not stages:
            continue
        done = sum(info.numCompletedTasks for info in stages)
        total = sum(info.numTasks for info in stages)
        sys.stderr.write(f"\rmqsh: replaying the log on Spark: {len(stages)} stage(s), {done}/{total} tasks")
        sys.stderr.flush()
        shown = True
    if shown:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


_runners: dict[str, SparkRunner] = {}


def runner(master: str) -> SparkRunner:
    """The process's runner for master: one session per master, kept warm."""
    if master not in _runners:
        _runners[master] = SparkRunner(master)
    return _runners[master]
