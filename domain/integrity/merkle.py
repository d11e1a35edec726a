"""A Merkle tree with RFC 9162's hashing, inclusion proofs and consistency proofs.

RFC 9162 (Certificate Transparency 2.0, section 2.1) fixes the tree over an ordered list of
leaves: the hash of a leaf is SHA-256(0x00 || leaf), of a node SHA-256(0x01 || left || right),
the empty tree hashes to SHA-256(""), and a tree of n > 1 leaves splits at the largest power of
two below n. Hand-written because no maintained library fits: pymerkle (7.0, the only Python
candidate checked) is GPL-3.0 in an MIT project, says it needs a security audit, and speaks its
own proof format rather than RFC 9162's audit paths. The tests run Certificate Transparency's
published vectors (transparency-dev/merkle) against this module.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

EMPTY_ROOT = hashlib.sha256(b"").digest()


class ProofError(ValueError):
    """A proof that does not prove what it claims."""


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


class Tree:
    """The tree over a list of leaf hashes. Every complete, aligned subtree is hashed once when
    the tree is built (`levels`), so any root, path or proof for any size up to the number of
    leaves costs O(log n) look-ups afterwards: a store's tree is built once per command and
    asked for many receipts."""

    def __init__(self, leaf_hashes: Sequence[bytes]) -> None:
        self.levels: list[list[bytes]] = [list(leaf_hashes)]
        while len(self.levels[-1]) > 1:
            below = self.levels[-1]
            self.levels.append(
                [node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)]
            )

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def hash(self, lo: int, hi: int) -> bytes:
        """MTH(D[lo:hi]) for a range RFC 9162's recursion reaches (lo a multiple of the largest
        power of two not above hi - lo)."""
        n = hi - lo
        if n == 0:
            return EMPTY_ROOT
        if n & (n - 1) == 0:  # a complete subtree: hashed when the tree was built
            level = n.bit_length() - 1
            return self.perfect(level, lo >> level)
        k = _split(n)
        return node_hash(self.hash(lo, lo + k), self.hash(lo + k, hi))

    def perfect(self, level: int, index: int) -> bytes:
        """The hash of the complete subtree of 2**level leaves starting at index * 2**level."""
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        return self.hash(0, self.size if size is None else self._checked(size))

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """PATH(index, D[0:size]) of RFC 9162 section 2.1.3.1."""
        size = self.size if size is None else self._checked(size)
        if not 0 <= index < size:
            raise ProofError(f"leaf {index} is not in a tree of {size}")
        proof: list[bytes] = []
        lo, hi = 0, size
        while hi - lo > 1:  # walk down, collecting the sibling of each subtree holding index
            k = _split(hi - lo)
            if index < lo + k:
                proof.append(self.hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self.hash(lo, lo + k))
                lo += k
        return proof[::-1]

    def consistency_proof(self, old: int, size: int | None = None) -> list[bytes]:
        """PROOF(old, D[0:size]) of RFC 9162 section 2.1.4.1 (SUBPROOF with b = true)."""
        size = self.size if size is None else self._checked(size)
        if not 0 < old <= size:
            raise ProofError(f"no consistency proof from {old} to {size}")
        proof: list[bytes] = []
        lo, hi, whole = 0, size, True
        while old != hi - lo:
            k = _split(hi - lo)
            if old <= k:
                proof.append(self.hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self.hash(lo, lo + k))
                lo, old, whole = lo + k, old - k, False
        if not whole:
            proof.append(self.hash(lo, hi))
        return proof[::-1]

    def _checked(self, size: int) -> int:
        if not 0 <= size <= self.size:
            raise ProofError(f"the tree has {self.size} leaves, not {size}")
        return size


def verify_inclusion(
    leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> None:
    """RFC 9162 section 2.1.3.2; raises ProofError unless `leaf` (a leaf hash) is leaf `index`
    of the tree of `size` leaves whose root is `root`."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ProofError("the inclusion proof is longer than the tree is deep")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the inclusion proof is shorter than the tree is deep")
    if r != root:
        raise ProofError("the inclusion proof leads to another root")


def verify_consistency(
    old: int, size: int, old_root: bytes, root: bytes, proof: Sequence[bytes]
) -> None:
    """RFC 9162 section 2.1.4.2; raises ProofError unless the tree of `size` leaves with `root`
    extends the tree of `old` leaves with `old_root` (same first `old` leaves)."""
    if not 0 <= old <= size:
        raise ProofError(f"a tree of {size} cannot extend one of {old}")
    if old == size or old == 0:
        if proof:
            raise ProofError("a proof was given where none is needed")
        if old == size and old_root != root:
            raise ProofError("two heads of the same size with different roots")
        return
    if not proof:
        raise ProofError("an empty consistency proof")
    path = list(proof)
    if old & (old - 1) == 0:  # the old tree is a complete subtree: its root starts the path
        path.insert(0, old_root)
    fn, sn = old - 1, size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is longer than the tree is deep")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or fr != old_root or sr != root:
        raise ProofError("the consistency proof does not join the two heads")


class Frontier:
    """The roots of the complete subtrees a tree of `size` leaves is made of, largest first (a
    "compact range"): enough to append leaves and get each new root without the old leaves."""

    def __init__(self, size: int = 0, hashes: Sequence[bytes] = ()) -> None:
        if len(hashes) != bin(size).count("1"):
            raise ProofError(f"a tree of {size} leaves has {bin(size).count('1')} subtree roots")
        self.size = size
        self.hashes = list(hashes)

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        """Add a leaf; returns the complete subtrees it completed, as (level, index, hash)."""
        self.hashes.append(leaf)
        self.size += 1
        done, level, completed = self.size, 0, []
        while not done & 1:  # each trailing zero bit of the new size is a merge
            right = self.hashes.pop()
            self.hashes[-1] = node_hash(self.hashes[-1], right)
            done, level = done >> 1, level + 1
            completed.append((level, done - 1, self.hashes[-1]))
        return completed

    def root(self) -> bytes:
        if not self.hashes:
            return EMPTY_ROOT
        root = self.hashes[-1]
        for left in reversed(self.hashes[:-1]):
            root = node_hash(left, root)
        return root
