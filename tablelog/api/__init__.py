"""The JSON HTTP API, /api/v1: what the command line does, for clubs' and tournaments' own apps.

    from tablelog.access import WritePolicy
    from tablelog.api import register_api
    register_api(flask_app, recorder, WritePolicy.for_bind(host, token))

`create_app(store, policy)` serves the API alone. The endpoints are declared once in
`routes.py`; the OpenAPI document (`openapi.py`, served at /api/v1/openapi.json) and the Flask
routes (`server.py`) are generated from that table. See docs/api.md.
"""

# Each declares its endpoints in the route table.
from . import lab_routes, proof_routes  # noqa: F401
from .openapi import build_document
from .server import create_app, create_blueprint, register_api

__all__ = ["build_document", "create_app", "create_blueprint", "register_api"]
