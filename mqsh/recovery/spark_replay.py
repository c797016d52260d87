"""Replay on Spark: what mqsh.recovery.replay means, as relational operations.

The reference replayer applies records one by one; here the same outcome is
reached with whole-log operations, so the work spreads over Spark's cores:

* every record becomes a "touch" of the objects it changes (a commit or
  backout touches each queue it names); a touch counts for an object only if
  it is newer than the object's base LSN (the object file's), which is the
  reference's freshness rule;
* one aggregation per object gives its fate: the newest OBJ/IMG/DEL decides
  whether it exists and what its attributes are; the newest touch is its LSN;
  its current "epoch" starts at the latest IMG, CLR or (re)creation, and only
  messages of that epoch can still be on the queue;
* messages of the epoch are the base messages (no epoch start in the log), the
  latest IMG's images, and the PUTs after the epoch start; the units of work's
  outcomes (CMT, BCK, none = in flight) are joined to puts and gets in one
  join, and each message then meets the get that takes or holds it in another.

Queue order is the order messages joined the queue: base and image messages
in their stored order, then puts by LSN - the reference's append order.

Everything carries a ``log`` column so tests can replay many logs in one job.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from mqsh.model.objects import MQObject, StoredMessage
from mqsh.recovery.replay import Record, State
from mqsh.store import columnar
from mqsh.store import log as logstore

MESSAGE_FIELDS = "struct<m:string,p:int,s:bigint,t:string,st:string,u:string>"
BODY_SCHEMA = f"struct<o:string,n:string,a:string,ms:array<{MESSAGE_FIELDS}>>"
SPARK_TYPES = {"long": "bigint", "int": "int", "string": "string", "strings": "array<string>"}
RECORD_SCHEMA = "struct<" + ",".join(f"{name}:{SPARK_TYPES[kind]}" for name, kind in columnar.FIELDS.items()) + ">"
OBJECT_KINDS = ("OBJ", "IMG", "DEL")
NOTED_FIELDS = ("lsn", "t", "c")  # what media tracking reads of an object record
Run = Callable[[Callable[[], Any]], Any]  # runs one Spark action (progress, cancellation)


@dataclass
class Replayed:
    state: State
    count: int  # records read
    object_records: list[Record]  # OBJ/IMG/DEL records (lsn, t, k, c), in LSN order


# ------------------------------------------------------------------ reading the log
def _jsonl_frame(spark, paths: list[Path]):
    """Lines of extents, checksums verified in Spark; rows (file, ok, record columns, body)."""
    from pyspark.sql import functions as F

    value = F.col("value")
    body = value.substr(F.lit(10), F.length(value))
    stated = F.conv(value.substr(1, 8), 16, 10).cast("bigint")
    parsed = F.from_json(body, RECORD_SCHEMA)
    ok = ((F.length(value) >= 10) & (value.substr(9, 1) == " ")
          & (stated == F.crc32(body.cast("binary"))) & parsed["lsn"].isNotNull())
    lines = spark.read.text([str(path) for path in paths])
    return lines.select(F.col("_metadata.file_name").alias("file"), ok.alias("ok"), parsed.alias("r"),
                        F.when(parsed["t"].isin(*columnar.OBJECT_RECORDS), body).alias("body"))


def _last_line_torn(path: Path) -> bool:
    """True when the newest extent ends in a record cut short (the torn-tail rule)."""
    data = path.read_bytes()[-(1 << 20):]
    if not data:
        return False
    if not data.endswith(b"\n"):
        return True
    last = data[:-1].rsplit(b"\n", 1)[-1]
    return logstore.decode(last) is None


def _check_lines(frame, paths: list[Path], newest: Path, run: Run) -> None:
    """LogCorrupt for a damaged line anywhere but the torn tail of the newest extent."""
    from pyspark.sql import functions as F

    counts = run(lambda: frame.where(~F.col("ok")).groupBy("file").count().collect())
    bad = {row["file"]: row["count"] for row in counts}
    for path in paths:
        allowed = 1 if path == newest and _last_line_torn(path) else 0
        if bad.get(path.name, 0) > allowed:
            good, _last = logstore.valid_end(path)
            raise logstore.LogCorrupt(path.name, good)


def log_frame(spark, log_dir: Path, first_extent: int, from_lsn: int, run: Run):
    """The records replay reads (lsn >= from_lsn from first_extent on), as one DataFrame.

    Sealed extents come from their columnar copies where a good one exists;
    the others (the active extent always) are read as text and checked.
    """
    from pyspark.sql import functions as F

    extents = [log_dir / logstore.extent_name(number) for number in logstore.extents_from(log_dir, first_extent)]
    if not extents:
        return None
    copies = {path: columnar.usable_copy(path) for path in extents[:-1]}
    columns = [*columnar.FIELDS, "body"]
    frames = []
    parquet = [str(copy) for copy in copies.values() if copy is not None]
    if parquet:
        frames.append(spark.read.parquet(*parquet).select(*columns))
    text = [path for path in extents if copies.get(path) is None]
    if text:
        lines = _jsonl_frame(spark, text)
        _check_lines(lines, text, extents[-1], run)
        frames.append(lines.where("ok").select(*(F.col("r")[name].alias(name) for name in columnar.FIELDS), "body"))
    records = frames[0]
    for frame in frames[1:]:
        records = records.unionByName(frame)
    return records.where(F.col("lsn") >= from_lsn).withColumn("log", F.lit(0))


def records_frame(spark, logs: list[list[Record]]):
    """Records held in memory (one list per log) as the DataFrame replay_frames takes."""
    tables = []
    for log, records in enumerate(logs):
        table = columnar.extent_table(b"".join(logstore.encode(record) for record in records))
        tables.append(table.append_column("log", pa.array([log] * len(table), pa.int32())))
    # One chunk: an empty chunk would end what createDataFrame reads of the table.
    return spark.createDataFrame(pa.concat_tables(tables).combine_chunks())


# ------------------------------------------------------------------ base state
def _base_tables(bases: list[State]) -> tuple[pa.Table, pa.Table]:
    """Objects (log, key, base_lsn) and their messages (log, key, pos, fields) as Arrow tables."""
    objects: dict[str, list] = {"log": [], "key": [], "base_lsn": []}
    messages: dict[str, list] = {name: [] for name in ("log", "key", "pos", "m", "p", "s", "t", "st", "u")}
    for log, state in enumerate(bases):
        for key, obj in state.items():
            objects["log"].append(log)
            objects["key"].append(key)
            objects["base_lsn"].append(obj.lsn)
            for pos, message in enumerate(obj.messages):
                if message.persistent:
                    for name, value in (("log", log), ("key", key), ("pos", pos), *message.to_document().items()):
                        messages[name].append(value)
    object_schema = pa.schema([("log", pa.int32()), ("key", pa.string()), ("base_lsn", pa.int64())])
    message_schema = pa.schema([("log", pa.int32()), ("key", pa.string()), ("pos", pa.int64()), ("m", pa.string()),
                                ("p", pa.int32()), ("s", pa.int64()), ("t", pa.string()), ("st", pa.string()),
                                ("u", pa.string())])
    return pa.table(objects, schema=object_schema), pa.table(messages, schema=message_schema)


# ------------------------------------------------------------------ the replay
def _touches(records, base_objects):
    """One row per (record, object it touches), with 'fresh' = newer than the object's base LSN.

    A commit or backout touches each queue it names, every other record one
    object at most; one generator does both, so the log is scanned once.
    """
    from pyspark.sql import functions as F

    kind = F.col("t")
    queues = F.when(kind.isin("CMT", "BCK"), F.col("qs")).otherwise(F.array(F.col("q")))
    spread = records.select("log", "lsn", "t", "k", "m", "p", "s", "tm", "u", "c", "body",
                            F.posexplode_outer(queues).alias("pos", "queue"))
    touches = spread.select(
        "log", "lsn", "t", "m", "p", "s", "tm", "u", "c", "body",
        F.when(F.col("pos").isNull() | (F.col("pos") == 0), 1).otherwise(0).alias("w"),  # read once
        F.when(kind.isin(*OBJECT_KINDS), F.col("k"))
         .when(F.col("queue").isNotNull(), F.concat(F.lit("QUEUE/"), F.col("queue"))).alias("key"))
    joined = touches.join(F.broadcast(base_objects), ["log", "key"], "left")
    return joined.withColumn("fresh", F.col("base_lsn").isNull() | (F.col("lsn") > F.col("base_lsn")))


def _object_fates(touches):
    """Per object: records read, media records, and the facts its fate is decided from."""
    from pyspark.sql import functions as F

    kind, fresh, lsn = F.col("t"), F.col("fresh"), F.col("lsn")

    def newest(condition):
        return F.max(F.when(fresh & condition, lsn))

    # Counting and LSNs over every touch stay a hash aggregation; the aggregates that keep
    # strings and lists run over the few object records only.
    counts = touches.groupBy("log", "key").agg(
        F.sum("w").alias("read"),
        newest(F.lit(True)).alias("max_lsn"),
        newest(kind == "CLR").alias("last_clr"))
    objects = touches.where(kind.isin(*OBJECT_KINDS)).groupBy("log", "key").agg(
        F.collect_list(F.struct(*NOTED_FIELDS)).alias("media"),
        F.max_by(F.when(fresh, F.struct("t", "body")), F.when(fresh, lsn)).alias("last_obj"),
        newest(kind == "DEL").alias("last_del"),
        newest(kind == "IMG").alias("last_img"),
        F.max_by(F.when(fresh & (kind == "IMG"), F.col("body")), F.when(fresh & (kind == "IMG"), lsn)).alias("img"),
        F.collect_list(F.when(fresh & (kind != "DEL"), lsn)).alias("creations"))
    return counts.join(objects, ["log", "key"], "left")


@dataclass
class Fate:
    exists: bool
    lsn: int
    record: dict[str, Any] | None  # the newest OBJ/IMG body, when one is fresh
    epoch: int | None  # LSN the queue's current messages start after; None = the base messages carry on
    image: str | None  # body of the IMG that starts the epoch


def _fate(row: dict[str, Any], base: MQObject | None) -> Fate:
    last = row["last_obj"]
    exists = last["t"] != "DEL" if last is not None else base is not None
    record = json.loads(last["body"]) if exists and last is not None else None
    created = None
    if base is None or row["last_del"] is not None:
        after = row["last_del"] if row["last_del"] is not None else -1
        created = min((lsn for lsn in row["creations"] or [] if lsn > after), default=None)
    starts = [lsn for lsn in (row["last_img"], row["last_clr"], created) if lsn is not None]
    epoch = max(starts) if starts else None
    image = row["img"] if epoch is not None and epoch == row["last_img"] else None
    lsn = max(row["max_lsn"], base.lsn if base is not None else -1)
    return Fate(exists, lsn, record, epoch, image)


def _message_moves(touches):
    """The touches the surviving messages are decided from: fresh puts, gets and unit endings."""
    from pyspark.sql import functions as F

    return touches.where(F.col("fresh") & F.col("t").isin("PUT", "GET", "CMT", "BCK")).select(
        "log", "key", "lsn", "t", "m", "p", "s", "tm", "u")


def _survivors(spark, moves, epochs: pa.Table, base_messages):
    """Messages still on each queue after the log, with their final state and unit of work.

    Two shuffles do it: rows in a unit of work meet the unit's ending (by
    unit), then each message meets the get that takes it, if any (by message
    id). Rows outside units of work skip the first.
    """
    from pyspark.sql import functions as F

    epoch_frame = F.broadcast(spark.createDataFrame(epochs))
    in_epoch = F.col("epoch").isNull() | (F.col("lsn") > F.col("epoch"))
    current = moves.where(F.col("t").isin("PUT", "GET")).join(epoch_frame, ["log", "key"]).where(in_epoch)
    puts = current.where(F.col("t") == "PUT").select(
        "log", "key", F.col("lsn").alias("olsn"), F.lit(0).cast("bigint").alias("pos"), "m", "p", "s",
        F.col("tm").alias("t"), F.when(F.col("u").isNull(), "C").otherwise("P").alias("st"), "u",
        F.lit(False).alias("get"))
    gets = current.where(F.col("t") == "GET").select("log", "key", "m", "u", F.lit(True).alias("get"))
    images = epoch_frame.where(F.col("image").isNotNull()).select(
        "log", "key", F.col("epoch").alias("olsn"),
        F.posexplode(F.from_json("image", BODY_SCHEMA)["ms"]).alias("pos", "msg")).select(
        "log", "key", "olsn", F.col("pos").cast("bigint").alias("pos"), "msg.*", F.lit(False).alias("get"))
    based = base_messages.join(epoch_frame.where(F.col("base")), ["log", "key"]).select(
        "log", "key", F.lit(-1).cast("bigint").alias("olsn"), "pos", "m", "p", "s", "t", "st", "u",
        F.lit(False).alias("get"))
    rows = puts.unionByName(images).unionByName(based).unionByName(gets, allowMissingColumns=True)

    # Each unit of work ends once per queue; the lowest (LSN, kind) code keeps the first ending
    # all the same, as a number, so the aggregation stays a hash aggregation. Even = committed.
    endings = moves.where(F.col("t").isin("CMT", "BCK")).groupBy("log", "key", "u").agg(
        F.min(F.col("lsn") * 2 + (F.col("t") == "BCK").cast("int")).alias("ending"))
    unit = F.col("u")
    resolved = rows.where(unit.isNotNull()).join(endings, ["log", "key", "u"], "left").unionByName(
        rows.where(unit.isNull()).withColumn("ending", F.lit(None).cast("bigint")))
    ended, state = F.col("ending").isNotNull(), F.col("st")
    committed = F.coalesce(F.col("ending") % 2 == 0, F.lit(False))  # false, never null, for a unit in flight

    # A pending put becomes committed or goes; a pending get goes or is given back.
    messages = resolved.where(~F.col("get")).select(
        "log", "key", "olsn", "pos", "m", "p", "s", "t", "u",
        F.when(state == "C", "C").when(~ended, state).when((state == "P") == committed, "C").alias("st")
    ).where(F.col("st").isNotNull())
    # A get takes the message (no unit, or a committed one) or holds it (a unit in flight); a got
    # message is unavailable until its unit of work ends, so one get at most does either.
    takes = unit.isNull() | committed
    takers = resolved.where(F.col("get") & (takes | ~ended)).select(
        "log", "key", "m", takes.alias("taken"), F.when(~takes, unit).alias("got_in"))
    alive = messages.join(takers, ["log", "key", "m"], "left").where(F.col("taken").isNull() | ~F.col("taken"))
    got = (F.col("st") == "C") & F.col("got_in").isNotNull()
    return alive.select(
        "log", "key", "olsn", "pos", "m", "p", "s", "t",
        F.when(got, "G").otherwise(F.col("st")).alias("st"),
        F.when(got, F.col("got_in")).when(F.col("st") == "C", None).otherwise(F.col("u")).alias("u"))


def replay_frames(spark, records, bases: list[State], run: Run = lambda action: action()) -> list[Replayed]:
    """Replay records (a DataFrame with a log column) over each log's base state.

    run wraps each Spark action (progress, cancellation). The base states are
    not changed: each log gets a new State, sharing only untouched objects.
    """
    object_table, message_table = _base_tables(bases)
    # The two jobs read the log once each, every one only the columns it needs: with columnar
    # copies that costs less than keeping the records between them (persist).
    touches = _touches(records, spark.createDataFrame(object_table))
    rows = run(lambda: _object_fates(touches).toArrow()).to_pylist()

    results = [Replayed(dict(base), 0, []) for base in bases]
    fates: dict[tuple[int, str], Fate] = {}
    for row in rows:
        result = results[row["log"]]
        result.count += row["read"]
        key = row["key"]
        if key is None:
            continue
        result.object_records += [{**media, "k": key} for media in row["media"] or []]
        if row["max_lsn"] is None:
            continue  # every record was already reflected in the object file
        fate = _fate(row, bases[row["log"]].get(key))
        if fate.exists:
            fates[(row["log"], key)] = fate
        else:
            result.state.pop(key, None)
    for result in results:
        result.object_records.sort(key=lambda record: record["lsn"])
    if not fates:
        return results

    epochs = pa.table({
        "log": pa.array([log for log, _ in fates], pa.int32()),
        "key": [key for _, key in fates],
        "epoch": pa.array([fate.epoch for fate in fates.values()], pa.int64()),
        "base": [fate.epoch is None for fate in fates.values()],
        "image": pa.array([fate.image for fate in fates.values()], pa.string()),
    })
    # The job reads the moves in four places (puts, gets, endings, with and without a unit):
    # kept once, they cost one scan of the log instead of four.
    moves = _message_moves(touches).persist()
    try:
        survivors = _survivors(spark, moves, epochs, spark.createDataFrame(message_table))
        messages = run(lambda: survivors.toArrow())
    finally:
        moves.unpersist()
    messages = messages.sort_by([("log", "ascending"), ("key", "ascending"), ("olsn", "ascending"),
                                 ("pos", "ascending")])
    held: dict[tuple[int, str], list[StoredMessage]] = {place: [] for place in fates}
    for row in messages.to_pylist():
        held[(row["log"], row["key"])].append(
            StoredMessage(row["m"], True, row["p"], row["s"], row["t"], row["st"], row["u"]))
    for (log, key), fate in fates.items():
        base = bases[log].get(key)
        namespace = key.partition("/")[0]
        if fate.record is not None:
            object_type, name, attributes = fate.record["o"], fate.record["n"], fate.record["a"]
        else:
            object_type, name, attributes = base.object_type, base.name, base.attributes
        results[log].state[key] = MQObject(object_type, name, dict(attributes), namespace, fate.lsn,
                                           held[(log, key)])
    return results


def replay_log(runner, state: State, log_dir: Path, first_extent: int, from_lsn: int) -> Replayed:
    """Replay a queue manager's log from its restart point over state (left unchanged)."""
    spark = runner.session()
    with runner.cancellable():
        records = log_frame(spark, log_dir, first_extent, from_lsn, runner.run)
        if records is None:
            return Replayed(dict(state), 0, [])
        return replay_frames(spark, records, [state], runner.run)[0]
