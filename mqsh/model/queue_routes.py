"""Where a put or get by name goes beyond the queue manager's own local queues: through a remote
definition to a transmission queue, with the header that says where the message is for, or into the
queue manager's clusters (IBM MQ docs: "Queue name resolution", "The cluster workload management
algorithm").

The clusters (mqsh.model.cluster) answer through the hooks they set here: a put to a name no local or
shared queue has, a cluster queue's attributes, MQOPEN of a cluster queue, and a queue manager of the
cluster named by a remote definition.
"""

from __future__ import annotations

from collections.abc import Callable

from mqsh.core.objects import MQObject
from mqsh.model.catalog import ObjectCatalog


class QueueRoutes:
    def __init__(self, catalog: ObjectCatalog, is_shared: Callable[[str], bool]):
        self.catalog = catalog
        self.is_shared = is_shared  # whether a name is a shared queue of the group (never routed)
        # A name no local or shared queue has, resolved in the queue manager's clusters: the
        # cluster transmission queue and the message's header (mqsh.model.cluster.routing). The
        # clusters set these hooks at their first use.
        self.cluster_router: (
            Callable[[str, MQObject | None, dict | None], tuple[MQObject, dict] | None] | None
        ) = None
        self.cluster_definition: Callable[[str], dict] | None = None  # a cluster queue's attributes
        # MQOPEN of a cluster queue (LAB OPEN): the instance it chose (a dict), or None where the
        # queue's DEFBIND(NOTFIXED) leaves every put to choose.
        self.cluster_binder: Callable[[str], dict | None] | None = None
        # A remote queue definition naming a queue manager of the cluster, with no transmission
        # queue of its own: (queue manager, queue) -> the cluster transmission queue and header.
        self.cluster_qmgr_route: Callable[..., tuple[MQObject, dict]] | None = None
        self.cluster_bindings: dict[str, dict] = {}  # queue name -> instance the open handles are bound to

    def cluster_route(self, name: str, putting: bool = False) -> tuple[MQObject, dict] | None:
        """Where a put to a name this queue manager does not define goes in its clusters (None:
        it defines it, or is in no cluster; MQError: the clusters have no usable instance). A put
        to its own clustered queue with CLWLUSEQ(ANY) goes where the workload algorithm says, and
        one through an open handle to the instance the handle is bound to."""
        if self.cluster_router is None or self.is_shared(name):
            return None
        local = self.catalog.lookup("QUEUE", name)
        if local is None:
            bound = (
                self.cluster_bindings.get(name) if putting and self.catalog.open_handles.get(name) else None
            )
            return self.cluster_router(name, None, bound)
        if putting and self._shared_with_the_cluster(local):
            return self.cluster_router(name, local, None)
        if putting and local.object_type == "QREMOTE" and self.cluster_qmgr_route is not None:
            attributes = local.attributes
            qmname = str(attributes.get("RQMNAME") or "")
            # MQ's order: the definition's XMITQ, then a transmission queue named after the queue
            # manager, and only then the cluster, where the queue manager is a member.
            if qmname and not attributes.get("XMITQ") and self.catalog.lookup("QUEUE", qmname) is None:
                return self.cluster_qmgr_route(qmname, str(attributes.get("RNAME") or name))
        return None

    def open_cluster_queue(self, name: str) -> bool:
        """MQOPEN of a name this queue manager does not define: resolved in its clusters now, and
        bound to the instance chosen when the queue says DEFBIND(OPEN). False: it is in no cluster."""
        if self.cluster_binder is None:
            return False
        binding = self.cluster_binder(name)
        if binding is not None and not self.catalog.open_handles.get(name):
            self.cluster_bindings[name] = binding
        return True

    def closed(self, name: str) -> None:
        """A handle on name was closed: with the last one goes its binding."""
        if not self.catalog.open_handles.get(name):
            self.cluster_bindings.pop(name, None)

    def _shared_with_the_cluster(self, queue: MQObject) -> bool:
        """A local queue in a cluster whose puts may go to other instances: CLWLUSEQ(ANY), or
        CLWLUSEQ(QMGR) on a queue manager with CLWLUSEQ(ANY)."""
        attributes = queue.attributes
        if queue.object_type != "QLOCAL" or not (
            str(attributes.get("CLUSTER") or "").strip() or str(attributes.get("CLUSNL") or "").strip()
        ):
            return False
        use = attributes.get("CLWLUSEQ", "QMGR")
        if use == "QMGR":
            use = self.catalog.qmgr_object.attributes.get("CLWLUSEQ", "LOCAL")
        return use == "ANY"

    def transmission_header(self, name: str) -> dict | None:
        """Where a put through a remote queue definition is for: {"qm": queue manager, "q": queue},
        kept with the message on its transmission queue; None for a put to a local queue."""
        obj = self.catalog.lookup("QUEUE", name)
        if obj is None:
            return None
        if obj.object_type == "QALIAS":
            return self.transmission_header(obj.attributes.get("TARGET") or obj.attributes.get("TARGQ", ""))
        if obj.object_type == "QREMOTE":
            return {"qm": obj.attributes.get("RQMNAME", ""), "q": obj.attributes.get("RNAME", "")}
        return None
