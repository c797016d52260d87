"""The survivors' query: the messages left on each queue, as the SQL Spark runs.

mqsh.recovery.replay.spark._survivors puts its parts together, leaving out
those with nothing to add.
"""

MESSAGE_FIELDS = "struct<m:string,p:int,s:bigint,t:string,st:string,u:string>"
BODY_SCHEMA = f"struct<o:string,n:string,a:string,ms:array<{MESSAGE_FIELDS}>>"


# The surviving messages, as one query: built from SQL text, it is analysed once, where
# a DataFrame built step by step is analysed again at every step. Rows meet their unit's
# ending, and messages the get that takes them, in windows over the rows themselves: a
# join would read (and, spread, shuffle) both of the parts it joins, each built from the
# moves. The moves it starts from, and its hints, are PLANS'.
SURVIVORS = """
WITH moved AS (  -- puts and gets of each queue's current epoch, and the units' endings on it
  {moved}
),
rows AS (  -- messages joining queues (olsn, pos: queue order), gets, and endings
  SELECT {union} * FROM (
    SELECT log, key, lsn AS olsn, CAST(0 AS BIGINT) AS pos, m, p, s, tm AS t,
           IF(u IS NULL, 'C', 'P') AS st, u, kind
    FROM moved
    {images}
    {base})
),
judged AS (  -- each row's unit's first ending on the queue, as lsn * 2 (+ 1 for a backout), null
             -- while in flight and for rows outside units of work
  SELECT *, {ending} AS ending
  FROM rows
),
taken AS (  -- a pending put becomes committed or goes, a pending get goes or gives the message back;
            -- a get takes the message (no unit, or a committed one) or holds it (a unit in flight):
            -- a got message is unavailable until its unit ends, so one get at most does either
  SELECT log, key, olsn, pos, m, p, s, t, u, kind,
         CASE WHEN st = 'C' THEN 'C' WHEN ending IS NULL THEN st WHEN (st = 'P') = (ending % 2 = 0) THEN 'C' END
           AS st,
         bool_or(kind = 'GET' AND (u IS NULL OR coalesce(ending % 2 = 0, false))) OVER by_message AS gone,
         max(IF(kind = 'GET' AND ending IS NULL, u, NULL)) OVER by_message AS got_in
  FROM judged WHERE kind IN ('PUT', 'GET')
  WINDOW by_message AS (PARTITION BY log, key, m)
)
SELECT log, key, olsn, pos, m, p, s, t, IF(st = 'C' AND got_in IS NOT NULL, 'G', st) AS st,
       IF(st = 'C', got_in, u) AS u
FROM taken WHERE kind = 'PUT' AND NOT gone AND st IS NOT NULL
"""
# Each row's unit's first ending, found in a window over the unit's rows; rows outside units
# of work are keyed by message there, so that they spread evenly. When no row is in a unit
# of work, there is no ending to find.
UNIT_ENDING = """IF(u IS NULL, NULL, min(IF(kind IN ('CMT', 'BCK'), olsn * 2 + CAST(kind = 'BCK' AS INT), NULL))
                 OVER (PARTITION BY log, key, coalesce(u, m)))"""
NO_UNITS = "CAST(NULL AS BIGINT)"
# Queues whose epoch starts at an image: its messages join the puts.
IMAGE_ARRIVALS = f"""UNION ALL
  SELECT log, key, epoch, CAST(pos AS BIGINT), msg.m, msg.p, msg.s, msg.t, msg.st, msg.u, 'PUT'
  FROM (SELECT log, key, epoch, posexplode(from_json(image, '{BODY_SCHEMA}').ms) AS (pos, msg)
        FROM {{epochs}} WHERE image IS NOT NULL)"""
# Queues that carry on from the object file with messages there: those join the puts.
BASE_ARRIVALS = """UNION ALL
  SELECT b.log, b.key, CAST(-1 AS BIGINT), b.pos, b.m, b.p, b.s, b.t, b.st, b.u, 'PUT'
  FROM {base_messages} b JOIN {epochs} e ON b.log = e.log AND b.key = e.key WHERE e.base"""
# The moves of each queue's current epoch, newer than its file: moves spread over
# partitions meet the few epochs broadcast.
MOVES_IN_EPOCH = """SELECT /*+ BROADCAST(e) */ mv.log, mv.key, mv.lsn, mv.t AS kind, mv.m, mv.p, mv.s, mv.tm, mv.u
  FROM {moves} mv JOIN {epochs} e ON mv.log = e.log AND mv.key = e.key
  WHERE (mv.t IN ('CMT', 'BCK') OR e.epoch IS NULL OR mv.lsn > e.epoch)
    AND (e.base_lsn IS NULL OR mv.lsn > e.base_lsn)"""
# Few moves come already kept to their epochs (_in_epoch).
MOVES_AS_GIVEN = "SELECT log, key, lsn, t AS kind, m, p, s, tm, u FROM {moves}"
# How the survivors' query is planned. Moves spread over partitions are shuffled once
# for each window. Few moves stay in one partition (so do the epochs and base
# messages), and the windows need no shuffle: the whole query is one task. A union of
# parts planned apart no longer says it is one partition, so it is coalesced to one,
# which moves nothing.
PLANS = {
    False: {"moved": MOVES_IN_EPOCH, "union": ""},
    True: {"moved": MOVES_AS_GIVEN, "union": "/*+ COALESCE(1) */"},
}
