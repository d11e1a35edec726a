"""The signed tree as the store keeps it, for proofs that read a few hundred rows rather than the
whole tree (`ledger.Ledger.tree`)."""

from __future__ import annotations

from typing import Protocol

from ..errors import Refused
from .merkle import Tree

# Complete subtrees of 2**NODE_LEVEL leaves or more are kept (tablelog_nodes), so a proof reads
# a few hundred rows, not the whole tree: about 2 rows per 1,024 events.
NODE_LEVEL = 10


class StoredLevels(Protocol):
    """What the tree reads of the store (`ledger.Ledger`): its kept nodes and its leaves."""

    def nodes(self) -> dict[tuple[int, int], bytes]: ...

    def leaf_block(self, lo: int, hi: int) -> list[bytes]: ...


class StoredTree(Tree):
    """The signed tree as the store keeps it: complete subtrees of 2**NODE_LEVEL leaves or more
    from tablelog_nodes, smaller ones hashed from the leaves of their block of 2**NODE_LEVEL. The
    audit never uses it: it rebuilds the tree from the leaves (and checks these nodes)."""

    def __init__(self, ledger: StoredLevels, size: int) -> None:  # no levels built
        self.ledger, self._size = ledger, size
        self.nodes = ledger.nodes()
        self.blocks: dict[int, Tree] = {}

    @property
    def size(self) -> int:
        return self._size

    def perfect(self, level: int, index: int) -> bytes:
        if level >= NODE_LEVEL:
            found = self.nodes.get((level, index))
            if found is None:
                raise Refused(
                    f"the store lacks its tree node {level}/{index}: the checkpoint "
                    "tables were altered; run `tablelog audit --all`"
                )
            return found
        block = (index << level) >> NODE_LEVEL
        if block not in self.blocks:
            lo = block << NODE_LEVEL
            self.blocks[block] = Tree(self.ledger.leaf_block(lo, lo + (1 << NODE_LEVEL)))
        return self.blocks[block].perfect(level, index - (block << (NODE_LEVEL - level)))
