"""The cluster audit, from the operating system (``mqsh audit``) and in the shell (LAB AUDIT).

``mqsh audit [-c CLUSTER] [--from FOLDER]`` audits the cluster caches of every queue manager of
the data directory - or a folder of cache dumps collected elsewhere - and prints the findings of
mqsh.recovery.audit.rules as a table; ``mqsh audit --collect FOLDER`` writes the data directory's
dumps to a folder (one Parquet file a queue manager) for auditing later or elsewhere.

The engine follows mqsh's --engine: ``spark`` runs the audit as one Spark job (on the embedded
local[*] or the configured master), ``local`` and ``reference`` in this process with Arrow; ``auto``
runs it in process below SPARK_FROM records and on Spark from there, or whenever a master other
than the embedded one is named.
"""

from __future__ import annotations

import argparse
import fnmatch
import shutil
from pathlib import Path

from mqsh.commands.context import Context
from mqsh.commands.control.parsing import ControlParser, lines
from mqsh.commands.control.parsing import control_parser as _parser
from mqsh.core.clock import epoch_seconds
from mqsh.recovery.engine import DEFAULT_MASTER
from mqsh.responses import Result

# Records from which auto audits on Spark (benchmarks/cluster_audit.py, 2 shared cores: 1 M records
# in process in about a second; Spark warm some seconds more for the same findings).
SPARK_FROM = 20_000_000
HEADERS = ["FINDING", "CLUSTER", "HELD BY", "OBJECT", "OWNER", "QMID", "WHAT IT MEANS"]
FAILED = 20  # mqsh's code for a control command that could not do its work


def parsers() -> dict[str, ControlParser]:
    audit = _parser(
        "audit",
        "Audit the cluster caches of the data directory's queue managers (or of a folder of "
        "cache dumps) for what a queue manager restored from a backup or copied for DR does to a cluster.",
    )
    audit.add_argument("-c", dest="cluster", default="*", help="cluster name, or generic name (default *)")
    source = audit.add_mutually_exclusive_group()
    source.add_argument(
        "--from", dest="folder", metavar="FOLDER", help="audit the cache dumps in this folder"
    )
    source.add_argument(
        "--collect",
        dest="collect",
        metavar="FOLDER",
        help="write the data directory's cache dumps to this folder, and audit nothing",
    )
    return {"audit": audit}


def audit(ctx: Context, args: argparse.Namespace, run) -> Result:
    from mqsh.recovery.audit import dumps  # pyarrow loads only for an audit

    installation = ctx.installation
    try:
        if args.collect:
            qmgrs, records = dumps.collect(installation.data_dir / "qmgrs", Path(args.collect))
            return lines(
                f"The cluster caches of {_count(qmgrs, 'queue manager')} ({_count(records, 'record')}) "
                f"written to {Path(args.collect) / dumps.COLLECTED}."
            )
        return audit_report(ctx, args.cluster, Path(args.folder) if args.folder else None)
    except (dumps.DumpUnreadable, OSError) as error:
        return lines(f"mqsh: the cluster audit cannot read its input: {error}.", ok=False, code=FAILED)


def lab_audit(ctx: Context, command) -> Result:
    """LAB AUDIT CLUSTER(name|*) [FROM('folder')]."""
    from mqsh.recovery.audit import dumps

    folder = command.params.get("FROM")
    try:
        return audit_report(ctx, str(command.params.get("CLUSTER") or "*"), Path(folder) if folder else None)
    except (dumps.DumpUnreadable, OSError) as error:
        return Result.failure(f"mqsh: the cluster audit cannot read its input: {error}.")


def audit_report(ctx: Context, cluster: str, folder: Path | None) -> Result:
    """The findings of the caches of this data directory (collected afresh) or of a folder of dumps."""
    from tabulate import tabulate  # loads only for an audit

    from mqsh.recovery.audit import dumps
    from mqsh.recovery.audit import rules as cluster_audit

    installation = ctx.installation
    work = installation.data_dir / "audit"  # the combined dump an engine reads, made afresh
    if folder is None:
        shutil.rmtree(work, ignore_errors=True)
        dumps.collect(installation.data_dir / "qmgrs", work)
    elif not any(folder.glob("*.parquet")):
        raise dumps.DumpUnreadable(f"{folder} holds no cluster cache dumps (*.parquet)")
    elif dumps.combined(folder):
        work = folder
    else:  # dumps of one queue manager each, from elsewhere: combined first
        shutil.rmtree(work, ignore_errors=True)
        dumps.combine(dumps.read_folder(folder), work)
    folder = work
    records = dumps.read_folder(folder)
    now = epoch_seconds(ctx.clock.now())
    engine = _engine(ctx, len(records))
    if engine == "spark":
        from mqsh.recovery.audit import spark as cluster_audit_spark
        from mqsh.recovery.spark.session import ReplayCancelled, SparkUnavailable, runner

        try:
            findings = cluster_audit_spark.audit(runner(installation.engine.master), folder, now)
        except (SparkUnavailable, ReplayCancelled) as error:
            return lines(
                f"mqsh: the cluster audit's Spark job did not complete: {error}", ok=False, code=FAILED
            )
    else:
        findings = cluster_audit.audit(records, now)
    rows = [row for row in cluster_audit.report_rows(findings, now) if fnmatch.fnmatchcase(row[1], cluster)]
    holders = len(set(records["holder"].to_pylist())) if len(records) else 0
    summary = (
        f"{_count(len(rows), 'finding')} in {_count(len(records), 'record')} of the cluster caches of "
        f"{_count(holders, 'queue manager')} (audited "
        f"{'as one Spark job' if engine == 'spark' else 'in process'})."
    )
    if not rows:
        return lines(summary)
    return lines(*tabulate(rows, headers=HEADERS, tablefmt="simple").splitlines(), "", summary)


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _engine(ctx: Context, records: int) -> str:
    engine = ctx.installation.engine
    if engine.choice == "spark" or (
        engine.choice == "auto" and (engine.master != DEFAULT_MASTER or records >= SPARK_FROM)
    ):
        return "spark"
    return "local"


HANDLERS = {"audit": audit}
