"""Commands: MQSC commands handled for a queue manager, and the control commands around them.

dispatch chooses the handler of a validated MQSC command; the handlers of a queue manager's
own objects and status sit here, those of a queue-sharing group in qsg/, of channels and
clusters in network/, and the programs run from the operating system's prompt in control/.
"""
