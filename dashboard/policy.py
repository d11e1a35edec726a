"""Where the dashboard finds what the composition root (`tablelog serve`) hands it: the write
policy (`set_write_policy`, read by the pages that write, Record and Lab, with `write_policy`)
the Lab's experiment service (`set_lab_service` / `lab_service`) and its tuner's
(`set_tune_service` / `tune_service`). Named keys on the app's
Flask server, so the two sides cannot drift apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from tablelog.access import WritePolicy
    from tablelog.lab.service import LabService
    from tablelog.tune.service import TuneService

WRITE_POLICY = "tablelog-write-policy"  # Flask `extensions` key: a tablelog.access.WritePolicy
LAB_SERVICE = "tablelog-lab"  # Flask `extensions` key: a tablelog.lab.service.LabService
TUNE_SERVICE = "tablelog-tune"  # Flask `extensions` key: a tablelog.tune.service.TuneService


def set_write_policy(server: Flask, policy: WritePolicy) -> None:
    """Let the pages of the app on `server` (a Flask app) write under `policy`."""
    server.extensions[WRITE_POLICY] = policy


def write_policy(server: Flask) -> WritePolicy | None:
    """The write policy set on `server`; None when none was (recording is then off)."""
    return server.extensions.get(WRITE_POLICY)


def set_lab_service(server: Flask, service: object) -> None:
    """Give the Lab page of the app on `server` the service that runs and stores experiments."""
    server.extensions[LAB_SERVICE] = service


def lab_service(server: Flask) -> LabService | None:
    """The Lab's service set on `server`; None when none was (the page then says so)."""
    return server.extensions.get(LAB_SERVICE)


def set_tune_service(server: Flask, service: TuneService) -> None:
    """Give the Lab page's Tune section of the app on `server` the service that runs studies."""
    server.extensions[TUNE_SERVICE] = service


def tune_service(server: Flask) -> TuneService | None:
    """The tune service set on `server`; None when none was (the section then says so)."""
    return server.extensions.get(TUNE_SERVICE)
