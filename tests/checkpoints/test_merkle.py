"""The tree against Certificate Transparency's published vectors, and properties of its proofs.

Vectors: transparency-dev/merkle (Google's Go implementation of RFC 6962/9162), files
testonly/constants.go (the leaf inputs, every root by size, the complete subtrees) and
proof/verify_test.go (inclusion and consistency proofs over those 8 leaves).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.integrity.merkle import (
    EMPTY_ROOT,
    Frontier,
    ProofError,
    Tree,
    leaf_hash,
    verify_consistency,
    verify_inclusion,
)

LEAVES = [
    bytes.fromhex(h)
    for h in [
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    ]
]
ROOTS = {
    0: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    1: "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    2: "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    3: "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    4: "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    5: "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    6: "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    7: "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    8: "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
}
LEAF_HASHES = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
    "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
    "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
    "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
]
# (leaf index counted from 1 as in the Go table, tree size, proof)
INCLUSION = [
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        2,
        5,
        [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]
CONSISTENCY = [
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        6,
        7,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
]
TREE = Tree([leaf_hash(data) for data in LEAVES])


def hexes(hashes):
    return [h.hex() for h in hashes]


def test_leaf_hashes_and_every_root_match_the_vectors():
    assert hexes(TREE.levels[0]) == LEAF_HASHES
    assert EMPTY_ROOT.hex() == ROOTS[0] == Tree([]).root().hex()
    for size, root in ROOTS.items():
        assert TREE.root(size).hex() == root


def test_the_frontier_gives_every_root_of_the_vectors():
    frontier = Frontier()
    for size, data in enumerate(LEAVES, start=1):
        frontier.append(leaf_hash(data))
        assert frontier.root().hex() == ROOTS[size]
        # and a frontier stored and read back goes on the same way
        frontier = Frontier(frontier.size, list(frontier.hashes))


@pytest.mark.parametrize("leaf, size, proof", INCLUSION)
def test_inclusion_proofs_match_the_vectors(leaf, size, proof):
    assert hexes(TREE.inclusion_proof(leaf - 1, size)) == proof
    verify_inclusion(
        TREE.levels[0][leaf - 1],
        leaf - 1,
        size,
        [bytes.fromhex(p) for p in proof],
        bytes.fromhex(ROOTS[size]),
    )


@pytest.mark.parametrize("old, size, proof", CONSISTENCY)
def test_consistency_proofs_match_the_vectors(old, size, proof):
    assert hexes(TREE.consistency_proof(old, size)) == proof
    verify_consistency(
        old,
        size,
        bytes.fromhex(ROOTS[old]),
        bytes.fromhex(ROOTS[size]),
        [bytes.fromhex(p) for p in proof],
    )


@pytest.mark.parametrize("old, size, proof", CONSISTENCY)
def test_a_consistency_proof_fails_for_swapped_roots_or_a_wrong_size(old, size, proof):
    path = [bytes.fromhex(p) for p in proof]
    for args in [
        (old, size, bytes.fromhex(ROOTS[size]), bytes.fromhex(ROOTS[old]), path),
        (old + 1, size, bytes.fromhex(ROOTS[old]), bytes.fromhex(ROOTS[size]), path),
        (old, size, bytes.fromhex(ROOTS[old]), bytes.fromhex(ROOTS[size]), path[:-1]),
        (old, size, bytes.fromhex(ROOTS[old]), bytes.fromhex(ROOTS[size]), []),
    ]:
        with pytest.raises(ProofError):
            verify_consistency(*args)


def _tree(count: int) -> Tree:
    return Tree([leaf_hash(i.to_bytes(4, "big")) for i in range(count)])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 300).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))),
    st.integers(0, 31),
)
def test_inclusion_proofs_verify_for_every_size_and_index_and_fail_for_an_altered_leaf(
    size_index, bit
):
    size, index = size_index
    tree = _tree(size)
    proof, root = tree.inclusion_proof(index), tree.root()
    verify_inclusion(tree.levels[0][index], index, size, proof, root)
    altered = bytearray(tree.levels[0][index])
    altered[bit] ^= 1
    with pytest.raises(ProofError):
        verify_inclusion(bytes(altered), index, size, proof, root)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(1, n), st.just(n))), st.data())
def test_consistency_proofs_verify_for_every_pair_of_sizes_and_fail_for_an_altered_leaf(
    sizes, data
):
    old, size = sizes
    tree = _tree(size)
    verify_consistency(old, size, tree.root(old), tree.root(), tree.consistency_proof(old))
    if old == size:
        return
    # A history rewritten in its first `old` leaves: the new tree no longer extends the old head.
    changed = data.draw(st.integers(0, old - 1))
    leaves = list(tree.levels[0])
    leaves[changed] = leaf_hash(b"rewritten")
    rewritten = Tree(leaves)
    with pytest.raises(ProofError):
        verify_consistency(
            old, size, tree.root(old), rewritten.root(), rewritten.consistency_proof(old)
        )
