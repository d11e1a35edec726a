"""The people of a store and their roles (docs/club-server.md).

    tablelog users add NAME --role ROLE [--limited] [--assign MATCH]
    tablelog users list | role NAME ROLE | disable NAME | enable NAME
    tablelog users token NAME [--expires 30d] [--label phone] | tokens NAME | revoke TOKEN-ID
    tablelog users password NAME

Whoever runs these has the store's credentials, and is trusted as the store's owner. The first
admin added turns accounts on: a server then takes writes from people's tokens only.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypedDict

import click

from tablelog.domain.recording.users import ROLES, Users

from . import main
from .options import echo_json, json_option, store_option
from .stats import open_queries

if TYPE_CHECKING:
    from tablelog.projections.queries import Queries

role_argument = click.Choice(ROLES)
limited_option = click.option(
    "--limited/--any-match",
    default=None,
    help="A recorder who writes only in the matches they started or were assigned to "
    "(--limited), or in any match (--any-match, the default).",
)
assign_option = click.option(
    "--assign",
    "matches",
    multiple=True,
    metavar="MATCH",
    help="A match (id or prefix) this person may write in although they did not start it "
    "(repeat for more); makes a recorder --limited.",
)


def _users(store: str | None) -> tuple[Users, Queries]:
    queries = open_queries(store)
    return Users(queries.recorder), queries


class TokenRow(TypedDict):
    """A token as `users tokens` lists it (`--json`: the same fields)."""

    id: str
    label: str
    created_at: str
    expires_at: str | None
    state: str


@main.group()
def users() -> None:
    """The people who may record, rule and manage this store, and their tokens."""


@users.command()
@click.argument("name")
@click.option("--role", type=role_argument, required=True, help="What the person may do.")
@limited_option
@assign_option
@store_option
def add(name, role, limited, matches, store):
    """Add a person with a role; the first admin turns accounts on."""
    people, queries = _users(store)
    ids = [str(queries.find(m)) for m in matches]  # every match found before anything is stored
    was_on = people.accounts_on()
    user = people.add(name, role, limited=bool(limited or ids))
    for match_id in ids:
        people.assign(user.name, match_id)
    click.echo(f"added {user.name}, {user.role}{' (limited)' if user.limited else ''}")
    if not was_on and people.accounts_on():
        click.echo(
            "accounts are on: the server now takes writes only with a person's token "
            "(`tablelog users token NAME`) or the server's write token"
        )


@users.command("list")
@json_option
@store_option
def list_users(as_json, store):
    """Every person of the store, with their role."""
    people, _ = _users(store)
    rows = [
        {
            "name": u.name,
            "role": u.role,
            "limited": u.limited,
            "disabled": u.disabled,
            "added_at": u.added_at,
        }
        for u in people.all()
    ]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no people yet: the store's server is open to this machine, as ever")
    for row in rows:
        notes = [w for w, on in (("limited", row["limited"]), ("disabled", row["disabled"])) if on]
        click.echo(f"{row['name']}  {row['role']}{'  (' + ', '.join(notes) + ')' if notes else ''}")


@users.command()
@click.argument("name")
@click.argument("role", type=role_argument)
@limited_option
@assign_option
@store_option
def role(name, role, limited, matches, store):
    """Give a person another role (and, for a recorder, the matches they may write in)."""
    people, queries = _users(store)
    ids = [str(queries.find(m)) for m in matches]
    user = people.set_role(name, role, True if ids else limited)
    for match_id in ids:
        people.assign(user.name, match_id)
    click.echo(f"{user.name} is now {user.role}{' (limited)' if user.limited else ''}")


@users.command()
@click.argument("name")
@store_option
def disable(name, store):
    """Stop a person's writes and sign-ins at their next request (their tokens with them)."""
    people, _ = _users(store)
    user = people.set_disabled(name, True)
    click.echo(f"{user.name} is disabled: their tokens and sessions no longer work")


@users.command()
@click.argument("name")
@store_option
def enable(name, store):
    """Let a disabled person in again."""
    people, _ = _users(store)
    user = people.set_disabled(name, False)
    click.echo(f"{user.name} is enabled again")


@users.command()
@click.argument("name")
@click.option("--expires", metavar="30d|12h", help="When the token stops working (default: never).")
@click.option("--label", default="", metavar="TEXT", help="Where it is used, e.g. phone.")
@store_option
def token(name, expires, label, store):
    """A new bearer token for the person, shown once (the store keeps only its hash)."""
    people, _ = _users(store)
    row, secret = people.issue_token(name, expires, label)
    until = f", expires {row.expires_at}" if row.expires_at else ""
    click.echo(f"token {row.id} for {people.named(name).name}{until} (shown once):")
    click.echo(secret)


@users.command()
@click.argument("name")
@json_option
@store_option
def tokens(name, as_json, store):
    """A person's tokens: id, label, state (never the token itself)."""
    people, _ = _users(store)
    now = datetime.now(UTC)
    rows: list[TokenRow] = [
        {
            "id": t.id,
            "label": t.label,
            "created_at": t.created_at,
            "expires_at": t.expires_at,
            "state": t.state(now),
        }
        for t in people.tokens(name)
    ]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo(f"{name} has no tokens (`tablelog users token {name}`)")
    for r in rows:
        click.echo(f"{r['id']}  {r['state']}  {r['label'] or '-'}  made {r['created_at'][:16]}")


@users.command()
@click.argument("token_id", metavar="TOKEN-ID")
@store_option
def revoke(token_id, store):
    """Revoke a token (by its id, from `users tokens`): refused from its next use on."""
    people, _ = _users(store)
    people.revoke(token_id)
    click.echo(f"token {token_id} is revoked")


@users.command()
@click.argument("name")
@store_option
def password(name, store):
    """Set the password a person signs in with on the dashboard, asked for twice and never
    echoed (not an option: it would stay in the shell's history); stored as its argon2id hash."""
    people, _ = _users(store)
    people.named(name)  # an unknown name is refused before the password is asked for
    people.set_password(
        name, click.prompt("New password", hide_input=True, confirmation_prompt=True)
    )
    click.echo(f"{people.named(name).name}'s password is set")
