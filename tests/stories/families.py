"""The story families by name, for the tests and benchmarks/stories.py; each is made anew for a
run with its options (the engine is the runner's, not the family's)."""

from __future__ import annotations

from collections.abc import Callable

from tests.stories.cluster_family import ClusterFamily
from tests.stories.media_family import MediaFamily
from tests.stories.oracle import Family
from tests.stories.qsg_family import QsgFamily

FAMILIES: dict[str, Callable[[], Family]] = {
    "media-linear": lambda: MediaFamily("-ll"),
    "media-circular": lambda: MediaFamily("-lc"),
    "cluster": lambda: ClusterFamily(),
    "qsg": lambda: QsgFamily(),
}
