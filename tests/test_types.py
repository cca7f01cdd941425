"""The engine type-checks (#18): mypy over ``combatkit`` with the settings in pyproject.toml, as a
user's editor or a compiled build (mypyc) would read it. A new error fails here with mypy's own
message, the file and the line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_is_mypy_clean(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout
