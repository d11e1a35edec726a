"""Sign-in and sign-out on the dashboard, for a store with accounts on (docs/club-server.md).

Sessions are Flask-Login's, in Flask's signed session cookie: HttpOnly, SameSite=Strict, and
Secure behind a TLS proxy (`serve --trusted-proxy`). Signing in clears the session first, so a
session planted before sign-in never becomes a signed-in one (fixation). A person is read from
the store at every request: disabled, they are signed out at their next one.

Every state-changing request to the dashboard (the sign-in and sign-out forms, every Dash
callback) carries a CSRF token (Flask-WTF) while accounts are on: the forms as a hidden field,
Dash callbacks as the `X-CSRFToken` header its renderer sends from the `_csrf_token` cookie.
The API takes bearer tokens and JSON only, and is left to its own checks.

Sign-in attempts are rate-limited (Flask-Limiter, in memory): per address, and per account for
a minute only, so a stranger can hold someone's sign-in up for a minute at most.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from html import escape

import flask
from flask import Flask, redirect, request, session
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf

from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.recording.users import User, Users, users_of

PER_ADDRESS = "20 per minute"
PER_ACCOUNT = "5 per minute"
CSRF_COOKIE = "_csrf_token"  # the cookie Dash's renderer sends back as X-CSRFToken


class Person(UserMixin):
    def __init__(self, user: User) -> None:
        self.user = user

    def get_id(self) -> str:
        return self.user.id


def install_signin(server: Flask, recorder: Recorder, secure: bool = False) -> None:
    """Sign-in, sign-out, CSRF and sign-in rate limits on the dashboard's Flask server."""
    users = users_of(recorder)
    server.secret_key = os.environ.get("TABLELOG_SECRET_KEY") or secrets.token_urlsafe(32)
    server.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=secure,
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Strict",
        REMEMBER_COOKIE_SECURE=secure,
        WTF_CSRF_CHECK_DEFAULT=False,  # checked below, while accounts are on
        WTF_CSRF_TIME_LIMIT=None,  # as long as the session
    )
    logins = LoginManager(server)
    logins.session_protection = "strong"

    @logins.user_loader
    def load(user_id: str) -> Person | None:
        user = users.by_id(user_id)
        return None if user is None or user.disabled else Person(user)

    csrf = CSRFProtect(server)
    limiter = Limiter(get_remote_address, app=server, storage_uri="memory://")

    @server.before_request
    def check_csrf() -> None:
        if request.method == "POST" and not request.path.startswith("/api/"):
            if users.accounts_on():
                csrf.protect()

    @server.after_request
    def csrf_cookie(answer: flask.Response) -> flask.Response:
        if users.accounts_on() and not request.path.startswith("/api/"):
            answer.set_cookie(
                CSRF_COOKIE, generate_csrf(), samesite="Strict", secure=secure, httponly=False
            )
        return answer

    server.register_error_handler(
        CSRFError, lambda err: (_page("Refused", f"<p>{escape(err.description)}</p>"), 400)
    )
    server.register_error_handler(
        429,
        lambda err: (
            _form("Too many sign-in attempts from here or for this name: wait a minute."),
            429,
        ),
    )
    address_limit = limiter.limit(PER_ADDRESS, methods=["POST"])
    account_limit = limiter.limit(
        PER_ACCOUNT,
        key_func=lambda: (request.form.get("name") or "").strip().casefold(),
        methods=["POST"],
    )
    server.add_url_rule(
        "/signin", "signin", address_limit(account_limit(_signin(users))), methods=["GET", "POST"]
    )
    server.add_url_rule("/signout", "signout", _signout, methods=["POST"])


def _signin(users: Users) -> Callable[[], ResponseReturnValue]:
    def signin() -> ResponseReturnValue:
        if request.method == "GET":
            return _form()
        user = users.check_password(request.form.get("name", ""), request.form.get("password", ""))
        if user is None:
            return _form("Wrong name or password."), 401
        session.clear()  # a new session at sign-in: nothing planted before it carries over
        login_user(Person(user))
        return redirect("/record")

    return signin


def _signout() -> ResponseReturnValue:
    logout_user()
    session.clear()
    return redirect("/signin")


def signed_in_user() -> User | None:
    """The person signed in for this request, if any (outside a request: None)."""
    if not flask.has_request_context():
        return None
    try:
        person = current_user._get_current_object()
    except Exception:  # noqa: BLE001 - an app without sign-in
        return None
    return person.user if isinstance(person, Person) else None


def _form(message: str = "") -> str:
    said = f'<p role="alert">{escape(message)}</p>' if message else ""
    return _page(
        "Sign in",
        f"""{said}<form method="post" action="/signin">
<input type="hidden" name="csrf_token" value="{generate_csrf()}">
<label>Name <input name="name" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password"
required></label>
<button type="submit">Sign in</button></form>""",
    )


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport "
        f'content="width=device-width"><title>{title} - Tablelog</title>'
        f"<h1>{title}</h1>{body}</html>"
    )
