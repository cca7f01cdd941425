"""The compiled wheel of ``tests/test_compiled.py``, built in the background from the start of the session.

Building it takes about 1.5 minutes of one core (2.5 beside a busy one). It starts as soon as the session knows
that test_compiled.py is to run, and the test waits for it when its turn comes:

* in a suite run in one process, when the tests are collected, at the lowest priority (``nice``), on the core the
  tests leave idle;
* under ``pytest -n`` (``make test``), in the controller, when the first worker has collected: every core runs
  tests, so it builds beside them from the start instead of on one core at the end, where a worker waited for it
  with the other core idle. The controller names the build's folder for the workers before they start
  (:data:`FOLDER`), and the worker given test_compiled.py waits for the build's exit status to appear there.

Not a test module: ``tests/conftest.py`` starts it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from combatkit.widgets.app.compiled import BUILD, source_tree

ROOT = Path(__file__).resolve().parents[1]
FOLDER = "COMBATKIT_TEST_BUILD"
"""The environment variable that names the build's folder for the workers of ``pytest -n``."""

_build: tuple[Path, subprocess.Popen] | None = None
_planned: Path | None = None


def plan() -> None:
    """Name the build's folder for the workers (the controller of ``pytest -n``, before it starts them)."""
    global _planned
    _planned = Path(tempfile.mkdtemp(prefix="combatkit-compiled-"))
    os.environ[FOLDER] = str(_planned)


def start(nice: bool = True) -> None:
    """Begin building the compiled wheel (at mypyc's optimisation level 0) from a copy of the checkout into the
    planned folder, or a new one; its output and then its exit status are written there."""
    global _build
    if _build is not None:
        return
    folder = _planned or Path(tempfile.mkdtemp(prefix="combatkit-compiled-"))
    source = source_tree(ROOT, folder / "source")
    env = {**os.environ, "COMBATKIT_COMPILE": "1", "MYPYC_OPT_LEVEL": "0"}
    lowest = ["nice", "-n", "19"] if nice and shutil.which("nice") else []
    with open(folder / "out", "w") as out, open(folder / "err", "w") as err:
        process = subprocess.Popen([*lowest, sys.executable, "-c", BUILD, str(folder)], cwd=source, env=env,
                                   stdout=out, stderr=err)
    threading.Thread(target=_settle, args=(process, folder), daemon=True).start()
    _build = folder, process


def _settle(process: subprocess.Popen, folder: Path) -> None:
    code = process.wait()
    try:
        (folder / "status.part").write_text(str(code))
        (folder / "status.part").replace(folder / "status")
    except OSError:  # the session ended and removed the folder meanwhile
        pass


def wait(seconds: float = 1200) -> tuple[Path, Path, str]:
    """The built wheel, the source tree it was built from, and the build's error output (empty on success)."""
    if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(FOLDER):
        folder = Path(os.environ[FOLDER])  # the controller builds it
    else:
        start()
        assert _build is not None
        folder = _build[0]
    deadline = time.monotonic() + seconds
    while not (folder / "status").is_file():
        if time.monotonic() > deadline:
            return folder, folder / "source", f"the build did not finish in {seconds:.0f} s"
        time.sleep(0.5)
    err = (folder / "err").read_text()
    if (folder / "status").read_text() != "0":
        return folder, folder / "source", err[-5000:] or "the build failed with no message"
    return folder / (folder / "out").read_text().strip().splitlines()[-1], folder / "source", ""


def clean() -> None:
    """Stop a build still running and remove its folder (the end of the session)."""
    global _build, _planned
    if _build is not None and _build[1].poll() is None:
        _build[1].kill()
        _build[1].wait()
    folder = _build[0] if _build is not None else _planned
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    _build = _planned = None
