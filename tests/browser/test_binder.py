"""What Binder does, done here (#50): the ``binder/`` configuration installs, serves the dashboards under Jupyter
Server with voila's extension, and they work there, offline.

mybinder.org builds the repository with repo2docker (``binder/runtime.txt``, ``binder/requirements.txt``, then
``binder/postBuild``) and runs each launch through ``binder/start``, a Jupyter Server under a base URL of its own
(``/user/<name>/``); a launch URL opens ``voila/render/dashboards/<name>.ipynb`` there. So here: the checkout's files
(as a clone has them) copied into a folder of their own, a fresh venv, ``pip install -r binder/requirements.txt`` from
the copy's root (from the package registries, as repo2docker installs it; pip's cache is reused), ``binder/postBuild``,
then ``binder/start jupyter server`` on 127.0.0.1 under :data:`BASE`, in a home and a cache of its own. Chromium
(the fixtures of conftest.py, whose ``server`` this module replaces) opens two dashboards there: no console error,
the charts drawn with the bundle served under the base URL, nothing fetched off this machine. A link made on such a
page carries the page's own base URL and reopens the view, and the round downloads as a document.

The install takes about a minute (all of it is the registries' and pip's).
"""

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from combatkit.widgets.app.compiled import source_tree
from combatkit.widgets.app.serve import _stop_group, free_port
from tests.browser.conftest import ARTIFACTS, CHROMIUM

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

ROOT = Path(__file__).resolve().parents[2]
BASE = "/user/binder-test/"
"""The server's base URL, as Binder gives each launch one: nothing may assume the server's root."""
PHASE1, COMPARE = "dashboards/phase1_timeline.ipynb", "dashboards/compare_systems.ipynb"
"""The two dashboards opened, at the paths a launch URL names (``urlpath=voila/render/<path>``)."""
PYTHON_ONLY = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
"""What this process's environment may hold that would reach into its own venv."""
CLEARED = (*PYTHON_ONLY, "JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR",
           "JUPYTER_RUNTIME_DIR", "COMBATKIT_CHART_BUNDLE", "COMBATKIT_CACHE", "XDG_CACHE_HOME")
"""What it may hold that a Binder image's launch does not (its own home stands for the rest)."""


@pytest.fixture(scope="module")
def binder(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The repository as a Binder image holds it, built: its folder, and the environment a launch runs in."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("binder")
    repo = source_tree(ROOT, folder / "repo")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                                "--disable-pip-version-check", "--no-compile", "-r", "binder/requirements.txt"], cwd=repo,
                               env={k: v for k, v in os.environ.items() if k not in PYTHON_ONLY},
                               capture_output=True, text=True, timeout=480)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    home = folder / "home"
    home.mkdir()
    environ = {k: v for k, v in os.environ.items() if k not in CLEARED}
    environ |= {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(venv), "HOME": str(home)}
    built = subprocess.run([str(repo / "binder" / "postBuild")], cwd=repo, env=environ, capture_output=True,
                           text=True, timeout=120)
    assert built.returncode == 0, built.stdout + built.stderr
    return repo, environ


@pytest.fixture(scope="module")
def server(binder):
    """The launch: ``binder/start jupyter server`` on 127.0.0.1 under :data:`BASE`; its URL there, without the final
    slash, as conftest's ``server`` gives its own."""
    repo, environ = binder
    port = free_port()
    log = ARTIFACTS / "jupyter-server-binder.log"
    ARTIFACTS.mkdir(exist_ok=True)
    command = [str(repo / "binder" / "start"), "jupyter", "server", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--ServerApp.base_url={BASE}",
               "--ServerApp.open_browser=False", "--IdentityProvider.token=",
               "--allow-root"]  # a test machine may run as root (Binder does not); no one else can reach 127.0.0.1
    with open(log, "w") as sink:
        process = subprocess.Popen(command, cwd=repo, env=environ, stdout=sink, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    url = f"http://127.0.0.1:{port}{BASE}".rstrip("/")
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)
        yield url
    finally:
        _stop_group(process)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_a_dashboard_renders_offline_under_the_base_url_its_link_reopens_there_and_its_round_downloads(
        server, browser, watched, tmp_path):
    page, _watch = watched
    bundles = []
    page.on("response", lambda r: "/voila/static/jupyterchart-" in r.url and bundles.append((r.url, r.status)))
    page.goto(f"{server}/voila/render/{PHASE1}")
    expect(page.locator(".ck-chart svg g.points_marks path").first).to_be_visible()
    expect(page.locator(".ck-why")).to_contain_text("Mira: DEX 17 gives Reaction Adjustment +2")
    expect(page.locator(".ck-nav-home")).to_have_attribute("href", BASE)  # the template's own links: the base URL
    # the charts' bundle comes from the template's static files, under the base URL, once
    assert [(urlparse(url).path.startswith(f"{BASE}voila/static/"), status) for url, status in bundles] == \
           [(True, 200)], bundles
    page.screenshot(path=ARTIFACTS / "binder-phase1.png", full_page=True)

    # a link made here carries this page's own address, base URL included, and reopens the view there
    seed = page.locator(".ck-seed input")
    seed.fill("7")
    seed.press("Enter")
    link = page.locator(".ck-link-url")
    expect(link).to_have_value(re.compile(re.escape(f"{server}/voila/render/{PHASE1}?") + r".*\bseed=7\b"))
    expect(page).to_have_url(link.input_value())
    why = page.locator(".ck-why").inner_text()
    other = browser.new_context(viewport={"width": 1280, "height": 1500}).new_page()
    try:
        other.goto(link.input_value(), timeout=150_000)
        expect(other.locator(".ck-seed input")).to_have_value("7", timeout=60_000)
        assert other.locator(".ck-why").inner_text() == why
    finally:
        other.context.close()

    # the round as a document, made by the kernel when the link is clicked, saved by the page
    with page.expect_download() as download:
        page.locator(".ck-round-download a").click()
    assert download.value.suggested_filename == "fighter-and-mage-vs-orc-archer-phase1-seed-7.html"
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "Seed 7: every die nobody entered" in text
    assert "id='ck-doc-bundle'" in text and "ck-doc-spec-1" in text


def test_the_comparison_draws_its_six_systems_offline_under_the_base_url(server, page):
    page.goto(f"{server}/voila/render/{COMPARE}")
    charts = page.locator(".ck-panel-chart svg.marks")
    expect(charts).to_have_count(6)
    for n in range(6):
        expect(charts.nth(n).locator("g.labels_marks text").first).to_be_visible()
    expect(page.locator(".ck-words li").first).to_be_visible()
    page.screenshot(path=ARTIFACTS / "binder-compare.png", full_page=True)


LAUNCH = re.compile(r"\]\(https://mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/HEAD"
                    r"\?urlpath=voila/render/dashboards/(\w+)\.ipynb\)")
"""A launch link in Markdown: the repository, and the dashboard it opens."""


def test_every_dashboard_has_a_launch_url_and_the_readme_a_badge():
    launches = LAUNCH.findall((ROOT / "docs" / "dashboards.md").read_text(encoding="utf-8"))
    shown = [p.stem for p in (ROOT / "dashboards").glob("*.ipynb")  # the players' view opens only from its token
             if not json.loads(p.read_text(encoding="utf-8"))["metadata"].get("combatkit", {}).get("hidden")]
    assert sorted(name for _, name in launches) == sorted(shown)
    badge = LAUNCH.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(badge) == 1 and (ROOT / "dashboards" / f"{badge[0][1]}.ipynb").is_file()
    assert {repo for repo, _ in launches + badge} == {badge[0][0]}  # one repository, named alike everywhere
