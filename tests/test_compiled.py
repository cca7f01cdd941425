"""The compiled wheel variant (``setup.py``, #18): built with mypyc, it plays the very fights of the pure-Python
package, and keeps the checks a user meets: a wrong value is named with its rule, options read from a file are
typed, a seventh system and a dashboard's roller subclass the compiled classes.

The wheel is built at mypyc's optimisation level 0 (the C is the same code, compiled with less optimisation:
about 1.5 minutes on one core, where level 3 takes 2.5), in the background from the start of the session, in
the controller of ``pytest -n`` (``tests/compiled_build.py``); the chosen tests then run against it in a
subprocess that imports combatkit from the unpacked wheel, never from this checkout.
"""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from combatkit.widgets.app.compiled import kernel_environ
from tests import compiled_build

ROOT = Path(__file__).resolve().parents[1]

AGAINST_THE_WHEEL = [
    "tests/test_fight_digest.py",  # the recorded fights, fast and explained
    "tests/test_odds.py", "tests/test_systems.py", "tests/test_seventh_system.py", "tests/test_dice.py",
    "tests/test_encounter_files.py", "tests/test_fields.py", "tests/test_intents.py", "tests/test_timeline.py",
]
"""The tests run against the compiled wheel: every recorded fight, exact odds, and the checks of what users give."""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> tuple[Path, Path, Path]:
    """The compiled wheel, the folder it is unpacked in, and the source tree it was built from."""
    wheel, source, failed = compiled_build.wait()
    assert not failed, failed
    site = tmp_path_factory.mktemp("compiled") / "site"
    zipfile.ZipFile(wheel).extractall(site)
    return wheel, site, source


def _python(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """This interpreter with the unpacked wheel first on its path (``-P``: not the working folder, which holds
    the source)."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-P", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=1200)


def test_the_variant_compiles_the_hot_modules_and_leaves_the_rest_as_python(compiled):
    wheel, site, source = compiled
    assert wheel.name.startswith("combatkit-") and "-cp311-" in wheel.name and "none-any" not in wheel.name
    names = set(zipfile.ZipFile(wheel).namelist())
    built = {n.split(".")[0] for n in names if n.endswith(".so")}
    assert {"combatkit/fight", "combatkit/policy", "combatkit/resolution/walk", "combatkit/systems/phase1",
            "combatkit/timeline"} <= built
    assert not {"combatkit/simulation", "combatkit/encounter", "combatkit/mana/pools"} & built
    assert "combatkit/systems/phase1.py" in names  # the source ships beside it (field docs are read from it)
    where = _python(site, "-c", "import combatkit, combatkit.systems.phase1 as m, combatkit.simulation as s; "
                                "print(m.__file__); print(s.__file__)", cwd=source)
    assert where.returncode == 0, where.stderr
    phase1, simulation = where.stdout.split()
    assert phase1.startswith(str(site)) and phase1.endswith(".so")
    assert simulation.startswith(str(site)) and simulation.endswith(".py")


def test_a_dashboard_kernel_given_the_build_runs_it_ahead_of_the_checkout(compiled):
    # combatkit serve points its kernels at a build with the environment kernel_environ makes
    # (combatkit.widgets.app.compiled); they start in the dashboards folder, with this checkout installed editable
    _, site, _ = compiled
    env = kernel_environ(dict(os.environ), site)
    where = subprocess.run([sys.executable, "-c", "import combatkit.fight as f, combatkit.widgets.views.prep as p; "
                                                  "print(f.__file__); print(p.__file__)"],
                           cwd=ROOT / "dashboards", env=env, capture_output=True, text=True, timeout=120)
    assert where.returncode == 0, where.stderr
    fight, prep = where.stdout.split()
    assert fight.startswith(str(site)) and fight.endswith(".so")
    assert prep.startswith(str(site))


def test_the_compiled_engine_plays_the_recorded_fights_and_keeps_the_checks(compiled):
    _, site, source = compiled
    run = _python(site, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib",
                  "-o", "addopts=", *AGAINST_THE_WHEEL, cwd=source)
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
