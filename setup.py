"""The compiled wheel variant (#18): ``COMBATKIT_COMPILE=1`` compiles the engine's hot modules with mypyc.
It plays every fight as the pure-Python package does (``tests/test_compiled.py`` holds it to the recorded
fights) with 3.0-3.5 times fewer instructions a fight (docs/at-scale.md, "A compiled build").

Without it, as in a plain ``pip install``, this adds nothing: the package is pure Python and needs no
compiler. Everything else about the package is in pyproject.toml. The variant needs a C compiler, the
Python headers and mypy in the environment (``make wheel-compiled``)::

    COMBATKIT_COMPILE=1 pip wheel --no-build-isolation --no-deps -w dist .

``MYPYC_OPT_LEVEL`` (0-3, default 3) trades build time for speed; the fights are the same at every level.
"""

import os
from pathlib import Path

from setuptools import setup

INTERPRETED = {
    "combatkit/__main__.py": "runs as a script",
    "combatkit/cli.py": "the command line: starts and stops, no hot loop",
    "combatkit/errors.py": "its exceptions are bases beside a second base (criticals.ImpossibleRollError), which a "
                           "compiled class cannot be",
    "combatkit/criticals.py": "ImpossibleRollError has two bases",
    "combatkit/fields.py": "reads the declared fields' annotations and docstrings at run time",
    "combatkit/effects.py": "reads SpellEffect's annotations at run time to load a file",
    "combatkit/encounter.py": "its value types are built from files and notebooks, and checked as Python checks them",
    "combatkit/encounter_files.py": "reads annotations to load a file, and compares text with lone surrogates "
                                    "written as literals",
    "combatkit/model.py": "its value types are built from files and notebooks, and checked as Python checks them",
    "combatkit/intent.py": "the same",
    "combatkit/attack.py": "the same (an Attacker takes its form's text value)",
    "combatkit/simulation.py": "its arguments are checked by name and value (a compiled function refuses a wrong "
                               "type before the check can name the rule); one call a chunk, no hot loop",
    "combatkit/mana/__init__.py": "the mana calculators check their arguments the same way; no hot loop",
    "combatkit/mana/learning.py": "the same",
    "combatkit/mana/pools.py": "the same",
    "combatkit/mana/recovery.py": "the same",
    "combatkit/mana/tables.py": "the same",
    "combatkit/monsters.py": "reads its tables from files and checks what a user gives as Python checks it; no hot "
                             "loop",
    "combatkit/table.py": "checks the DM's rulings and reads fight files as Python checks them; one call a round",
}
"""The engine modules left as Python, and why; every other module under combatkit/ is compiled. Inside the
compiled ones, the classes a user or a file gives values to (the options) and the timing systems (classes
of class attributes) are marked ``@mypyc_attr(native_class=False)``: Python classes, compiled methods."""


def compiled_modules() -> list[str]:
    """Every module of the engine but :data:`INTERPRETED`, as paths from this folder."""
    root = Path(__file__).resolve().parent
    found = sorted(p.relative_to(root).as_posix() for p in (root / "combatkit").rglob("*.py"))
    return [path for path in found if path not in INTERPRETED]


def ext_modules() -> list:
    if os.environ.get("COMBATKIT_COMPILE", "") != "1":
        return []
    from mypyc.build import mypycify  # only here: a pure-Python build needs no mypy

    return mypycify(compiled_modules(), opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"), group_name="combatkit")


setup(ext_modules=ext_modules())
