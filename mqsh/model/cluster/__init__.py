"""Clusters: the full and partial repositories, cluster queue managers and the queues they advertise.

A queue manager takes part through this package (CLUSQMGR, cluster queues in
name resolution); its own objects stay in its catalog (mqsh.model.catalog).
"""
