"""Recovery: what the disk holds, read back into what a queue manager or a group had.

Beneath the model and above the core and the store: it reads logs, images and structures and
hands back values, and imports nothing of the model. engine chooses where a replay runs
(columnar in this process, on Spark, or record by record); replay/ defines what a log record
means and carries it out on each engine; media/ re-creates objects from their images;
cfstruct/ rebuilds a coupling-facility structure; spacemap/ rebuilds a data set's space map;
audit/ checks the cluster caches of many queue managers; spark/ is the session they share.
"""
