"""Queue-sharing groups: the group's queue managers, shared queues and their CF structures.

A queue manager of a group reaches shared queues through this package; its own
objects stay in its catalog (mqsh.model.catalog). The structures' state on disk
belongs to mqsh.store, and CF structure recovery to mqsh.recovery.
"""
