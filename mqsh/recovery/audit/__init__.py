"""The cluster audit: the cluster caches of many queue managers, read from their dumps and checked by rules."""
