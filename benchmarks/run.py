"""Run every benchmark in this folder, one after another, and print what each measures.

    make bench            (or: .venv/bin/python benchmarks/run.py [name ...])

Benchmarks print numbers beside their targets; none of them asserts (machines are noisy).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> int:
    scripts = sorted(p for p in HERE.glob("*.py") if p.name != Path(__file__).name)
    if names:
        scripts = [p for p in scripts if p.stem in names]
    failed = 0
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        failed += subprocess.run([sys.executable, str(script)], check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
