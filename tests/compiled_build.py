"""The compiled wheel of ``tests/test_compiled.py``, built in the background from the start of the session.

Building it takes about 1.5 minutes of one core (2.5 beside a busy one), which a suite run in one process leaves
idle: the build then starts when the session's tests are collected, at the lowest priority (``nice``), so that it
takes only what the tests leave; the test waits for it when its turn comes. Not a test module:
``tests/conftest.py`` starts it. Under ``pytest -n`` (``make test``) every core runs tests, and the worker given
``tests/test_compiled.py`` builds it when the module's first test asks (:func:`wait`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from combatkit.widgets.compiled import BUILD, source_tree

ROOT = Path(__file__).resolve().parents[1]

_build: tuple[Path, subprocess.Popen] | None = None


def start() -> None:
    """Begin building the compiled wheel (at mypyc's optimisation level 0) from a copy of the checkout."""
    global _build
    if _build is not None:
        return
    folder = Path(tempfile.mkdtemp(prefix="combatkit-compiled-"))
    source = source_tree(ROOT, folder / "source")
    env = {**os.environ, "COMBATKIT_COMPILE": "1", "MYPYC_OPT_LEVEL": "0"}
    nice = ["nice", "-n", "19"] if shutil.which("nice") else []
    process = subprocess.Popen([*nice, sys.executable, "-c", BUILD, str(folder)], cwd=source, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _build = folder, process


def wait() -> tuple[Path, Path, str]:
    """The built wheel, the source tree it was built from, and the build's error output (empty on success)."""
    start()
    assert _build is not None
    folder, process = _build
    out, err = process.communicate(timeout=1200)
    if process.returncode != 0:
        return folder, folder / "source", err[-5000:] or "the build failed with no message"
    return folder / out.strip().splitlines()[-1], folder / "source", ""


def clean() -> None:
    """Stop a build still running and remove its folder (the end of the session)."""
    global _build
    if _build is None:
        return
    folder, process = _build
    if process.poll() is None:
        process.kill()
        process.communicate()
    shutil.rmtree(folder, ignore_errors=True)
    _build = None
