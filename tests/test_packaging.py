"""`import combatkit` stays light: no ipywidgets, altair or pandas until the widgets are asked for."""

import subprocess
import sys


def test_engine_imports_no_ui_libraries():
    code = (
        "import sys, combatkit, combatkit.systems, combatkit.encounter; "
        "heavy = {'ipywidgets', 'altair', 'pandas'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_widgets_install_as_combatkit_widgets():
    import combatkit.widgets

    assert combatkit.widgets.__file__.replace("\\", "/").endswith("widgets/__init__.py")


# ------------------------------------------------ the wheel

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BUILD = ("import sys; from setuptools import build_meta; "
         "print(build_meta.build_wheel(sys.argv[1]))")
"""Build the wheel with the setuptools of the running environment: no build isolation, so no network."""


def _source_tree(into: Path) -> Path:
    """A copy of the files a clone of this checkout has (tracked, or new and not ignored), to build from
    without writing build/ or *.egg-info into the checkout."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, text=True)
    if listed.returncode != 0:  # not a git checkout
        shutil.copytree(ROOT, into, ignore=shutil.ignore_patterns(".venv", "build", "*.egg-info", "__pycache__"))
        return into
    for name in filter(None, listed.stdout.split("\0")):
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, str]:
    """combatkit's wheel, and what setuptools printed while building it."""
    folder = tmp_path_factory.mktemp("wheel")
    source = _source_tree(folder / "source")
    built = subprocess.run([sys.executable, "-c", BUILD, str(folder)], cwd=source, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    return folder / built.stdout.strip().splitlines()[-1], built.stdout + built.stderr


def test_the_wheel_builds_without_a_warning(wheel):
    _, output = wheel
    # a data folder missing from pyproject's packages was one screenful of warnings each (~170 lines)
    assert "Warning" not in output and "!!" not in output, output
