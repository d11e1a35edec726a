"""RFC 9162 proofs from the store's signed checkpoints (docs/audit.md, "Proofs"):

    tablelog proof consistency OLD [NEW]       the checkpoint of NEW events extends that of OLD
    tablelog proof inclusion MATCH EVENT       the event is in the newest checkpoint (--size N)

Text in C2SP's own forms (a witness's add-checkpoint body; a tlog-proof), `--json` labelled.
"""

from __future__ import annotations

import click

from tablelog.domain.integrity import proofs
from tablelog.store import open_recorder

from . import main
from .options import echo_json, json_option, store_option
from .stats import open_match

SIZE = click.IntRange(0, 1 << 62)


@main.group()
def proof() -> None:
    """RFC 9162 proofs from the store's signed checkpoints, for anyone to check with the
    public key alone. Hashes are base64 (the event's hash hex); leaves count from 0."""


@proof.command()
@click.argument("old", type=SIZE)
@click.argument("new", type=SIZE, required=False)
@json_option
@store_option
def consistency(old, new, as_json, store):
    """The RFC 9162 consistency proof that the checkpoint of NEW events (default: the newest)
    extends the checkpoint of OLD events (0: the empty tree).

    Printed as a C2SP witness's add-checkpoint body: `old OLD`, the proof's hashes in base64
    (one a line), a blank line, the checkpoint of NEW events. --json: both sizes, both signed
    roots (base64), both checkpoints, the proof."""
    found = proofs.consistency(open_recorder(store), old, new)
    if as_json:
        echo_json(found)
    else:
        click.echo(proofs.consistency_text(found), nl=False)


@proof.command()
@click.argument("match")
@click.argument("event", type=click.IntRange(1, 1 << 62))
@click.option(
    "--size",
    type=SIZE,
    metavar="N",
    help="Prove it in the checkpoint of N events (default: the newest).",
)
@json_option
@store_option
def inclusion(match, event, size, as_json, store):
    """The RFC 9162 inclusion proof that EVENT of MATCH (its event number, as receipts give
    it: event 1 is the start) is a leaf of the tree the newest checkpoint signs.

    Printed as a C2SP tlog-proof: `extra` (the leaf's data: the event's 32-byte chain hash, in
    base64), `index` (the leaf, from 0), the proof's hashes in base64, a blank line, the
    checkpoint. --json: the match, the event, its hash (hex), the leaf, the tree's size and
    signed root (base64), the checkpoint, the proof."""
    recorder, match_id = open_match(store, match)
    found = proofs.inclusion(recorder, match_id, event, size)
    if as_json:
        echo_json(found)
    else:
        click.echo(proofs.inclusion_text(found), nl=False)
