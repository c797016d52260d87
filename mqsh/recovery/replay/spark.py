"""Replay on Spark: what mqsh.recovery.replay.reference means, as relational operations.

The reference replayer applies records one by one; here the same outcome is
reached with whole-log operations, so the work spreads over Spark's cores:

* every record becomes a "touch" of the objects it changes (a commit or
  backout touches each queue it names); a touch counts for an object only if
  it is newer than the object's base LSN (the object file's), which is the
  reference's freshness rule;
* one aggregation per object gives its fate: the newest OBJ/IMG/DEL decides
  whether it exists and what its attributes are; the newest touch is its LSN;
  its current "epoch" starts at the latest IMG, CLR or (re)creation, and only
  messages of that epoch can still be on the queue. When every sealed extent
  has a columnar copy, their summaries hold these facts and no job is needed
  for them (mqsh.recovery.replay.summaries);
* messages of the epoch are the base messages (no epoch start in the log), the
  latest IMG's images, and the PUTs after the epoch start; each put and get
  learns its unit of work's outcome (CMT, BCK, none = in flight) in a window
  over its unit's rows, and each message then the get that takes or holds it
  in a window over its message id's;
* with the summaries come the extents' settled moves (mqsh.store.settled):
  what is left of each extent's puts, gets and endings once those that meet
  within it are matched. They are what those windows then work on, except for a
  queue whose base LSN or epoch start falls inside what an extent settled:
  that extent's records for the queue are read instead. The epochs keep them
  to those newer than the queue's base LSN; few of them are kept so in Arrow,
  before Spark sees them, which spares the job a join.

Queue order is the order messages joined the queue: base and image messages
in their stored order, then puts by LSN - the reference's append order.

Everything carries a ``log`` column so tests can replay many logs in one job.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.recovery.replay import fates as fating
from mqsh.recovery.replay import summaries
from mqsh.recovery.replay.fates import Replayed
from mqsh.recovery.replay.reference import State
from mqsh.recovery.replay.survivors_sql import (
    BASE_ARRIVALS,
    IMAGE_ARRIVALS,
    NO_UNITS,
    PLANS,
    SURVIVORS,
    UNIT_ENDING,
)
from mqsh.recovery.spark.log_frame import (
    COPY_SCHEMA,
    MOVES_SCHEMA,
    Run,
    Settled,
    log_frame,
    parquet_reader,
    table_frame,
)
from mqsh.recovery.spark.session import SparkUnavailable, planning_failures
from mqsh.store import columnar, putnotes
from mqsh.store import log as logstore
from mqsh.store.putnotes import Putters
from mqsh.store.records import (
    BODY,
    CREATED,
    KIND,
    LSN,
    MSGID,
    OBJECT_KEY,
    OBJECT_KEY_COLUMN,
    OBJECT_KINDS,
    PRIORITY,
    PUT_TIME,
    QUEUE,
    QUEUES,
    SIZE,
    UNIT,
    UNIT_ENDINGS,
)

NOTED_FIELDS = (LSN, KIND, CREATED)  # what media tracking reads of an object record


# ------------------------------------------------------------------ the replay
def _touches(records, base_objects):
    """One row per (record, object it touches), with 'fresh' = newer than the object's base LSN.

    A commit or backout touches each queue it names, every other record one
    object at most; one generator does both, so the log is scanned once.
    """
    from pyspark.sql import functions as F

    kind = F.col(KIND)
    queues = F.when(kind.isin(*UNIT_ENDINGS), F.col(QUEUES)).otherwise(F.array(F.col(QUEUE)))
    spread = records.select(
        "log",
        LSN,
        KIND,
        OBJECT_KEY,
        MSGID,
        PRIORITY,
        SIZE,
        PUT_TIME,
        UNIT,
        CREATED,
        BODY,
        F.posexplode_outer(queues).alias("pos", "queue"),
    )
    touches = spread.select(
        "log",
        LSN,
        KIND,
        MSGID,
        PRIORITY,
        SIZE,
        PUT_TIME,
        UNIT,
        CREATED,
        BODY,
        F.when(F.col("pos").isNull() | (F.col("pos") == 0), 1).otherwise(0).alias("w"),  # read once
        F.when(kind.isin(*OBJECT_KINDS), F.col(OBJECT_KEY))
        .when(F.col("queue").isNotNull(), F.concat(F.lit("QUEUE/"), F.col("queue")))
        .alias(OBJECT_KEY_COLUMN),
    )
    return _with_freshness(touches, base_objects)


def _with_freshness(touches, base_objects):
    """touches (with log and key columns) and whether each is newer than its object's base LSN."""
    from pyspark.sql import functions as F

    joined = touches.join(F.broadcast(base_objects), ["log", OBJECT_KEY_COLUMN], "left")
    return joined.withColumn("fresh", F.col("base_lsn").isNull() | (F.col(LSN) > F.col("base_lsn")))


def _object_fates(touches):
    """Per object: records read, media records, and the facts its fate is decided from."""
    from pyspark.sql import functions as F

    kind, fresh, lsn = F.col(KIND), F.col("fresh"), F.col(LSN)

    def newest(condition):
        return F.max(F.when(fresh & condition, lsn))

    # Counting and LSNs over every touch stay a hash aggregation; the aggregates that keep
    # strings and lists run over the few object records only.
    counts = touches.groupBy("log", OBJECT_KEY_COLUMN).agg(
        F.sum("w").alias("read"),
        newest(F.lit(True)).alias("max_lsn"),
        newest(kind == "CLR").alias("last_clr"),
    )
    objects = (
        touches.where(kind.isin(*OBJECT_KINDS))
        .groupBy("log", OBJECT_KEY_COLUMN)
        .agg(
            F.collect_list(F.struct(*NOTED_FIELDS)).alias("object_records"),
            F.max_by(F.when(fresh, F.struct(KIND, BODY)), F.when(fresh, lsn)).alias("last_obj"),
            newest(kind == "DEL").alias("last_del"),
            newest(kind == "IMG").alias("last_img"),
            F.max_by(
                F.when(fresh & (kind == "IMG"), F.col(BODY)), F.when(fresh & (kind == "IMG"), lsn)
            ).alias("img"),
            F.collect_list(F.when(fresh & (kind != "DEL"), lsn)).alias("creations"),
        )
    )
    return counts.join(objects, ["log", OBJECT_KEY_COLUMN], "left")


def _message_moves(touches):
    """The touches the surviving messages are decided from: fresh puts, gets and unit endings."""
    from pyspark.sql import functions as F

    return touches.where(F.col("fresh") & F.col(KIND).isin("PUT", "GET", *UNIT_ENDINGS)).select(
        "log", OBJECT_KEY_COLUMN, LSN, KIND, MSGID, PRIORITY, SIZE, PUT_TIME, UNIT
    )


def _settled_moves(
    spark, settled: Settled, base_objects: Callable[[], Any], cuts: dict[str, list[int]]
) -> tuple[Any, bool]:
    """The message moves of a log whose extents' moves are settled, and whether they are one partition.

    Each extent gives its moves as they settled, except for queues a point
    replay counts afresh from falls inside (cuts: queue key -> base LSN and
    epoch start); for those its records are read instead. Few moves, all
    settled, are one Arrow table, to be one partition. Settled moves are puts,
    gets and endings only, and which of them are newer than their queue's
    file is decided with the epochs (base_lsn), so they go in as they are.
    """
    from pyspark.sql import functions as F

    def frame(source, schema: str):
        if isinstance(source, Path):
            return parquet_reader(spark, schema).parquet(str(source))
        return table_frame(spark, source)

    def with_log(moves):
        return moves.withColumn("log", F.lit(0))

    dirty = [extent.unsettled_queues(cuts) for extent in settled.extents]
    if settled.few and not any(dirty):
        moves = pa.concat_tables(extent.moves for extent in settled.extents)
        return moves.append_column("log", pa.array([0] * len(moves), pa.int32())), True
    parts = [] if settled.unsettled is None else [_message_moves(_touches(settled.unsettled, base_objects()))]
    whole_files = []
    for extent, queues in zip(settled.extents, dirty):
        if not queues and isinstance(extent.moves, Path):
            whole_files.append(str(extent.moves))  # read together, in one scan
        elif not queues:
            parts.append(with_log(frame(extent.moves, MOVES_SCHEMA)))
        else:
            records = frame(extent.records, COPY_SCHEMA).withColumn("log", F.lit(0))
            parts.append(
                _message_moves(_touches(records, base_objects())).where(
                    F.col(OBJECT_KEY_COLUMN).isin(*queues)
                )
            )
            parts.append(
                with_log(frame(extent.moves, MOVES_SCHEMA)).where(~F.col(OBJECT_KEY_COLUMN).isin(*queues))
            )
    if whole_files:
        parts.append(with_log(parquet_reader(spark, MOVES_SCHEMA).parquet(*whole_files)))
    return functools.reduce(lambda left, right: left.unionByName(right), parts), False


def _survivors(spark, moves, epochs: pa.Table, base_messages: pa.Table, one_partition: bool):
    """Messages still on each queue after the log, with their final state and unit of work.

    moves is a DataFrame, or (one_partition) an Arrow table of few moves,
    already kept to their epochs (fates.in_epoch).
    Two shuffles do it: rows meet their unit's ending (by unit; rows outside
    units of work by message id, so they spread), then each message meets
    the get that takes it, if any (by message id). Moves in one partition
    need neither (PLANS). Parts with no rows (no image starts an epoch, no
    base messages carry on) stay out of the plan, and so do the epochs when
    nothing in it reads them; so does the window over units of work when few
    moves and what joins them hold none (an image may).
    """
    images = IMAGE_ARRIVALS if epochs["image"].null_count < len(epochs) else ""
    base = BASE_ARRIVALS if len(base_messages) and pc.any(epochs["base"]).as_py() else ""
    in_units = (
        not one_partition
        or bool(images)
        or moves[UNIT].null_count < len(moves)
        or bool(base)
        and base_messages[UNIT].null_count < len(base_messages)
    )

    def frame(table: pa.Table):
        made = table_frame(spark, table)
        return made.coalesce(1) if one_partition else made

    frames = {"moves": frame(moves) if one_partition else moves}
    # The parts and hints are put in first, so that spark.sql fills in the frames they name too.
    query = (
        SURVIVORS.replace("{images}", images)
        .replace("{base}", base)
        .replace("{ending}", UNIT_ENDING if in_units else NO_UNITS)
    )
    for name, part in PLANS[one_partition].items():
        query = query.replace("{" + name + "}", part)
    if "{epochs}" in query:
        frames["epochs"] = frame(epochs)
    if base:
        frames["base_messages"] = frame(base_messages)
    return spark.sql(query, **frames)


def _unit_endings(records, lost_queues: set[str], open_at_checkpoint: set[str]):
    """Rows (log, u, queues, ended) for the units of work the replayed state cannot tell of.

    A unit with work on a queue the state holds shows there as pending
    messages. Two kinds do not: units that touched queues whose files were
    lost at start (so the replay has no queue to put them on), and units open
    at the checkpoint, which may have ended since. Only their records are
    kept, before any shuffle, so this costs one filtered scan.
    """
    from pyspark.sql import functions as F

    kind, unit = F.col(KIND), F.col(UNIT)
    ends = kind.isin(*UNIT_ENDINGS)
    wanted = F.lit(False)
    if lost_queues:
        names = sorted(lost_queues)
        wanted = (kind.isin("PUT", "GET") & F.col(QUEUE).isin(*names)) | (
            ends & F.arrays_overlap(F.col(QUEUES), F.array(*(F.lit(name) for name in names)))
        )
    if open_at_checkpoint:
        wanted = wanted | (ends & unit.isin(*sorted(open_at_checkpoint)))
    return (
        records.where(unit.isNotNull() & wanted)
        .groupBy("log", UNIT)
        .agg(
            F.collect_set(F.when(kind.isin("PUT", "GET"), F.col(QUEUE))).alias("queues"),
            F.max(ends).alias("ended"),
        )
    )


def replay_frames(
    spark,
    records_of: Callable[[], Any],
    bases: list[State],
    run: Run = lambda action: action(),
    open_at_checkpoint: list[dict[str, list[str]]] | None = None,
    lost_queues: set[str] = frozenset(),
    summary: summaries.LogSummary | None = None,
    settled: Settled | None = None,
    notes: Sequence[Putters | None] = (),
) -> list[Replayed]:
    """Replay records (records_of() gives a DataFrame with a log column) over each log's base state.

    run wraps each Spark action (progress, cancellation). open_at_checkpoint
    holds, per log, the units of work in flight at its checkpoint (uow ->
    queues); lost_queues names queues whose files were lost, whose units of
    work are looked for in the log. summary, for a single log, holds its
    objects' facts, which then need no Spark job. The base states are not
    changed: each log gets a new State, sharing only untouched objects.
    notes, per log, its putter notes: who put the messages replayed.
    """
    at_checkpoint = open_at_checkpoint or [{} for _ in bases]
    object_table, message_table = fating.base_tables(bases)
    # Built only when needed: the survivors of settled moves are judged fresh without them.
    base_objects = functools.cache(lambda: table_frame(spark, object_table))
    # Built only when needed: a log whose extents were summarized and settled does without them.
    touches = functools.cache(lambda: _touches(records_of(), base_objects()))
    checkpoint_units = {uow for units in at_checkpoint for uow in units}
    endings = (
        _unit_endings(records_of(), lost_queues, checkpoint_units)
        if lost_queues or checkpoint_units
        else None
    )
    rows = None
    if summary is not None:
        try:
            rows = summaries.fate_rows(summary, bases[0])
        except (OSError, pa.ArrowException):
            pass  # a copy whose object records cannot be read: the facts come from Spark
    rows_from_summary = rows is not None
    if rows is not None:
        if endings is not None:
            rows += run(lambda: endings.toArrow()).to_pylist()
    else:
        first = _object_fates(touches())
        if endings is not None:
            # Units' endings come back with the objects' fates: each job has a fixed cost.
            first = first.unionByName(endings, allowMissingColumns=True)
        rows = run(lambda: first.toArrow()).to_pylist()
    results, fates = fating.read_rows(rows, bases, at_checkpoint)
    if fates:
        if settled is not None and rows_from_summary:
            moves, one_partition = _settled_moves(spark, settled, base_objects, fating.cuts(fates, bases[0]))
        else:
            moves, one_partition = _message_moves(touches()), False

        def survivors(epochs: pa.Table) -> pa.Table:
            if one_partition:
                kept = fating.in_epoch(moves, epochs)
            else:
                # The job reads the moves in four places (puts and gets, and endings, each once for
                # the messages and once for the gets that take them). Checkpointed first, they cost
                # one scan of the log instead of four, and the survivors' plan starts from them as one
                # leaf, so building and optimizing it is quick. Spark's cleaner drops the checkpointed
                # blocks once nothing refers to them. Few moves are in memory already: a job to
                # checkpoint them would cost more than reading them again.
                kept = run(lambda: moves.localCheckpoint(eager=True))
            return run(lambda: _survivors(spark, kept, epochs, message_table, one_partition).toArrow())

        fating.fill_queues(results, fates, bases, survivors, notes)
    fating.add_in_flight(results)
    return results


def replay_log(
    runner,
    state: State,
    log_dir: Path,
    first_extent: int,
    from_lsn: int,
    open_at_checkpoint: dict[str, list[str]],
    lost_queues: set[str],
) -> Replayed:
    """Replay a queue manager's log from its restart point over state (left unchanged).

    A columnar copy is checked against its extent's size and CRC, not read
    through; one damaged inside fails the job, and the replay is then made
    again with every copy made again from its extent, which the copies only
    stand in for (or the extent's text read, where one cannot be made).
    """

    def attempt(remake_copies: bool) -> Replayed:
        spark = runner.session()
        with planning_failures():
            read = log_frame(spark, log_dir, first_extent, from_lsn, runner.run, remake_copies)
            if read is None:
                return Replayed(dict(state), 0, [], fating.open_units(open_at_checkpoint))
            try:
                return replay_frames(
                    spark,
                    read.records_of,
                    [state],
                    runner.run,
                    [open_at_checkpoint],
                    lost_queues,
                    read.summary,
                    read.settled,
                    [putnotes.read(log_dir.parent)],
                )[0]
            finally:
                read.release()

    def replay() -> Replayed:
        try:
            return attempt(remake_copies=False)
        except SparkUnavailable:
            ring = logstore.read_ring(log_dir)
            if not any(
                columnar.copy_path(logstore.extent_path(log_dir, number, ring)).exists()
                for number in logstore.extents_from(log_dir, first_extent)
            ):
                raise
            return attempt(remake_copies=True)

    return runner.call(replay)
