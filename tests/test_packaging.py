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
