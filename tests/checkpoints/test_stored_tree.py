"""The tree as the store keeps it (complete subtrees of 1,024 leaves and more, plus leaves read a
block at a time) gives exactly the roots and proofs of the tree built from every leaf."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.integrity.merkle import Frontier, Tree, leaf_hash
from tablelog.domain.integrity.stored_tree import NODE_LEVEL, StoredTree


class Kept:
    """What the ledger tables would hold after signing `count` leaves."""

    def __init__(self, count: int) -> None:
        self.leaves = [leaf_hash(i.to_bytes(4, "big")) for i in range(count)]
        frontier, self.kept = Frontier(), {}
        for leaf in self.leaves:
            for level, index, hashed in frontier.append(leaf):
                if level >= NODE_LEVEL:
                    self.kept[(level, index)] = hashed
        self.reads = 0

    def nodes(self):
        return dict(self.kept)

    def leaf_block(self, lo, hi):
        self.reads += 1
        return self.leaves[lo:hi]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5000), st.data())
def test_the_stored_tree_proves_what_the_whole_tree_proves(count, data):
    kept, whole = Kept(count), None
    whole = Tree(kept.leaves)
    stored = StoredTree(kept, count)
    size = data.draw(st.integers(1, count))
    index = data.draw(st.integers(0, size - 1))
    old = data.draw(st.integers(1, size))
    assert stored.root(size) == whole.root(size)
    assert stored.inclusion_proof(index, size) == whole.inclusion_proof(index, size)
    assert stored.consistency_proof(old, size) == whole.consistency_proof(old, size)
    assert kept.reads <= 4  # a few blocks of leaves, never the whole tree
