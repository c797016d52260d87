"""MQSC commands of a queue-sharing group: structures, shared queues, data sets, GROUP and COPY objects, CMDSCOPE."""
