"""A `tablelog` command run in this process by click's CliRunner, answered as a shell sees it.

A new interpreter costs about half a second of CPU here (its imports; seconds on a loaded
machine), so a test that runs many commands runs them in this process: the exit status, stdout
and stderr come back as `subprocess.CompletedProcess`, the environment is the one given (over
this process's, as a shell's would be). An exception the command does not turn into a refusal
fails the test: a user would have seen a traceback. Tests about the process itself (argv bytes,
signals, a machine with nothing but two files) still start `python -m tablelog`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping


def invoked(
    *args: str, env: Mapping[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    from click.testing import CliRunner

    from tablelog.cli import main

    result = CliRunner().invoke(
        main,
        list(args),
        input=input,
        env=dict(env or {}),
        prog_name="tablelog",
        catch_exceptions=False,
    )
    return subprocess.CompletedProcess(
        ["tablelog", *args], result.exit_code, result.stdout, result.stderr
    )
