"""Queue-sharing groups: a group's shared repository, shared queues and their CF structures.

A queue manager of a group reaches shared queues through this package; its own
objects stay in its catalog (mqsh.model.catalog). The structures' state on disk
belongs to mqsh.store, and CF structure recovery to mqsh.recovery. The package
sits beneath the queue manager: the groups themselves and their members, which
CSQ5PQSG keeps over the installation's queue managers, are mqsh.model.sharing_groups.
"""
