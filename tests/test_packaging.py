"""`import combatkit` stays light: no ipywidgets, altair or pandas until the widgets are asked for; and the
wheel builds without a warning, holds the dashboards and lessons, and installs an app that serves them."""

import os
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from combatkit.widgets.app.compiled import BUILD, source_tree

ROOT = Path(__file__).resolve().parents[1]


def test_engine_imports_no_ui_libraries():
    code = (
        "import sys, combatkit, combatkit.systems, combatkit.encounter; "
        "heavy = {'ipywidgets', 'altair', 'pandas'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_kernel_and_the_server_import_no_parser_built_at_import_time():
    """pyproject.toml pins jsonschema below 4.25, which imports rfc3987-syntax (1.5 s of every start here)."""
    code = ("import sys, combatkit.widgets.views.compare, combatkit.widgets.views.prep, jupyter_server.serverapp, voila.app; "
            "print('rfc3987_syntax' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_widgets_install_as_combatkit_widgets():
    import combatkit.widgets

    assert combatkit.widgets.__file__.replace("\\", "/").endswith("widgets/__init__.py")


# ------------------------------------------------ the wheel: an app that installs with pip

def _source_tree(into: Path) -> Path:
    """A copy of this checkout's files to build from (:func:`combatkit.widgets.app.compiled.source_tree`)."""
    return source_tree(ROOT, into)


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


def test_a_plain_build_is_pure_python(wheel):
    """Without COMBATKIT_COMPILE (setup.py) nothing is compiled: any machine installs it, no compiler needed."""
    assert wheel[0].name.endswith("-py3-none-any.whl")
    assert not [n for n in zipfile.ZipFile(wheel[0]).namelist() if n.endswith((".so", ".pyd", ".c"))]


def test_the_wheel_holds_the_dashboards_the_lessons_and_what_serves_them(wheel):
    names = set(zipfile.ZipFile(wheel[0]).namelist())
    expected = {f"combatkit/widgets/dashboards/{p.name}" for p in (ROOT / "dashboards").glob("*.ipynb")}
    expected |= {f"combatkit/widgets/dashboards/thumbnails/{p.name}" for p in (ROOT / "dashboards/thumbnails").iterdir()}
    expected |= {f"combatkit/widgets/notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    expected |= {f"combatkit/data/encounters/{p.name}" for p in (ROOT / "combatkit/data/encounters").glob("*.toml")}
    expected |= {"combatkit/widgets/app/kernels/python3/kernel.json", "combatkit/widgets/app/serve.py", "combatkit/cli.py",
                 "combatkit/widgets/app/voila/templates/combatkit/index.html.j2",
                 "combatkit/widgets/app/voila/templates/combatkit/tree.html",
                 "combatkit/widgets/app/voila/templates/combatkit/conf.json"}
    assert expected - names == set()
    assert not [name for name in names if "jupyterchart-" in name or "__pycache__" in name]  # built at serve time
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    assert "combatkit = combatkit.cli:main" in zipfile.ZipFile(wheel[0]).read(entry_points).decode()


def _fetch(url: str, timeout: float = 90) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as reply:
        assert reply.status == 200, url
        return reply.read().decode()


def test_pip_install_of_the_wheel_gives_the_combatkit_command_and_it_serves_the_dashboards(wheel, tmp_path):
    from combatkit.widgets.app.serve import _stop_group, free_port

    # a fresh venv outside the checkout that sees this one's packages (its dependencies, already installed)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = subprocess.run([str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--ignore-installed", "--disable-pip-version-check", str(wheel[0])], check=True, cwd=tmp_path)
    combatkit = venv / "bin" / "combatkit"
    # what a full install puts in the venv's share/jupyter (voila's templates, the widget extensions)
    environ = {**os.environ, "JUPYTER_PATH": str(Path(sys.prefix) / "share" / "jupyter")}
    environ.pop("PYTHONPATH", None)

    usage = subprocess.run([str(combatkit), "--help"], cwd=tmp_path, capture_output=True, text=True, env=environ)
    assert usage.returncode == 0 and "serve" in usage.stdout and "lessons" in usage.stdout, usage.stderr
    copied = subprocess.run([str(combatkit), "lessons", "mine"], cwd=tmp_path, capture_output=True, text=True,
                            env=environ)
    assert copied.returncode == 0, copied.stderr
    assert {p.name for p in (tmp_path / "mine").glob("*.ipynb")} == {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}

    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "w") as sink:
        server = subprocess.Popen([str(combatkit), "serve", "--port", str(port), "--no-browser", "--pool-size", "0"],
                                  cwd=tmp_path, env=environ, stdout=sink, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, log.read_text()
            try:
                landing = _fetch(f"{base}/", timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)
        assert "combatkit dashboards from " + str(Path(site, "combatkit", "widgets", "dashboards")) in log.read_text()
        assert "/voila/render/mana.ipynb" in landing and "/voila/render/learn/phase1_teaching.ipynb" in landing
        page = _fetch(f"{base}/voila/render/mana.ipynb?class=wizard&level=9")  # its kernel runs the dashboard
        assert "application/vnd.jupyter.widget-view+json" in page and "There was an error" not in page
        lesson = _fetch(f"{base}/voila/render/learn/phase1_teaching.ipynb")
        assert "application/vnd.jupyter.widget-view+json" in lesson and "There was an error" not in lesson
        # how to change it: copy it first (the template once wrote the metadata dict's own copy method here)
        assert ("To change the code and run it again: <code>combatkit lessons combatkit-lessons</code>, then "
                "<code>jupyter lab combatkit-lessons/phase1_teaching.ipynb</code>") in lesson
        assert "bound method" not in lesson
    finally:
        _stop_group(server)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_pip_uninstall_leaves_nothing_of_combatkit_in_site_packages_once_it_served_charts(wheel, tmp_path):
    """The server writes the chart bundle into the user's cache folder, not the installation (#45): the wheel's
    ``RECORD`` does not list a file written at run time, and ``pip uninstall`` left that ~1 MB bundle behind."""
    from combatkit.widgets.app.serve import _stop_group, free_port

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin/python")
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed",
                    "--disable-pip-version-check", str(wheel[0])], check=True, cwd=tmp_path)
    environ = {**os.environ, "JUPYTER_PATH": str(Path(sys.prefix) / "share" / "jupyter"),
               "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for name in ("PYTHONPATH", "COMBATKIT_CACHE"):
        environ.pop(name, None)
    name = "from combatkit.widgets.charts.render import bundle_path; print(bundle_path().name)"
    bundle = subprocess.run([python, "-c", name], cwd=tmp_path, env=environ, capture_output=True, text=True,
                            check=True).stdout.strip()

    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "w") as sink:
        server = subprocess.Popen([str(venv / "bin" / "combatkit"), "serve", "--port", str(port), "--no-browser",
                                   "--pool-size", "0", "--engine", "pure"], cwd=tmp_path, env=environ, stdout=sink,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, log.read_text()
            try:
                served = _fetch(f"http://127.0.0.1:{port}/voila/static/{bundle}", timeout=5)  # what a chart imports
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)
    finally:
        _stop_group(server)
    removed = subprocess.run([python, "-m", "pip", "uninstall", "--yes", "--disable-pip-version-check", "combatkit"],
                             cwd=tmp_path, env=environ, capture_output=True, text=True)
    assert removed.returncode == 0, removed.stderr
    assert sorted(p.name for p in site.iterdir() if p.name.lower().startswith("combatkit")) == []
    cached = tmp_path / "cache" / "combatkit" / "jupyter" / "voila" / "templates" / "combatkit" / "static" / bundle
    assert served == cached.read_text(encoding="utf-8")  # served from the user's cache, which stays
    assert "Traceback" not in log.read_text(), log.read_text()
