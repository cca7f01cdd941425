"""The dashboard server's settings, its landing page's sections, the lessons mounted under learn/, and
one served dashboard fetched over HTTP (tests/browser drives pages)."""

import asyncio
import json
import logging
import os
import signal
import time
import types
import urllib.request
from pathlib import Path
from unittest.mock import patch

import nbformat
import pytest
from tornado.web import HTTPError

from combatkit.widgets.app import serve
from combatkit.widgets.app.landing import LEARN, dashboards, landing
from tests.kernels import kernel_processes

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_voila_runs_with_production_settings_on_this_machine_only():
    argv = serve.voila_argv(serve.ServeSettings(port=9999, open_browser=False), ROOT / "dashboards", ["x-ext"])
    assert argv[0] == str(ROOT / "dashboards")
    expected = {
        "--Voila.ip=127.0.0.1", "--Voila.port=9999", "--Voila.port_retries=0", "--Voila.open_browser=False",
        "--VoilaConfiguration.show_tracebacks=False", "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.template=combatkit", "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.classic_tree=True",
        "--VoilaExecutor.timeout=60", "--VoilaExecutor.iopub_timeout=60",
        "--VoilaConfiguration.preheat_kernel=True", "--VoilaConfiguration.default_pool_size=1",
        "--MappingKernelManager.cull_interval=60", "--MappingKernelManager.cull_idle_timeout=900",
        "--VoilaConfiguration.extension_denylist=x-ext", "--KernelRestarter.restart_limit=0",
    }
    assert expected <= set(argv)
    no_pool = serve.voila_argv(serve.ServeSettings(pool_size=0), ROOT / "dashboards", [])
    assert not [a for a in no_pool if "preheat" in a or "extension_denylist" in a]


def test_the_server_reaches_its_kernels_over_unix_sockets_where_their_paths_fit():
    """No TCP port to lose to another process between jupyter_client picking it and the kernel binding it: 20
    preheated kernels starting at once lost that race once, and a lesson's page hung (serve.kernel_transport)."""
    argv = serve.voila_argv(serve.ServeSettings(), ROOT / "dashboards", [])
    assert f"--KernelManager.transport={serve.kernel_transport()}" in argv
    assert serve.kernel_transport("posix", "/tmp") == "ipc"
    assert serve.kernel_transport("posix", "/var/folders/zz/" + "x" * 30 + "/T") == "tcp"  # macOS's, too long
    assert serve.kernel_transport("nt", "C:\\Temp") == "tcp"


def test_only_the_chosen_dashboards_keep_a_kernel_waiting(tmp_path):
    for name in ("a.ipynb", "b.ipynb", "ab.ipynb"):
        (tmp_path / name).write_text("{}")
    argv = serve.voila_argv(serve.ServeSettings(preheat=("a.ipynb",)), tmp_path, [])
    assert sorted(a for a in argv if "preheat_denylist" in a) == [
        "--VoilaKernelManager.preheat_denylist=/ab.ipynb", "--VoilaKernelManager.preheat_denylist=/b.ipynb"]
    every = serve.voila_argv(serve.ServeSettings(preheat=()), tmp_path, [])
    assert not [a for a in every if "preheat_denylist" in a]


def test_every_dashboard_and_lesson_keeps_a_kernel_waiting_unless_told_otherwise():
    settings = serve.ServeSettings()
    assert settings.preheat == () and settings.pool_size == 1
    assert not [a for a in serve.voila_argv(settings, ROOT / "dashboards", []) if "preheat_denylist" in a]
    assert serve.preheated_lessons(settings, ROOT / "notebooks") == tuple(p.name for p in LESSONS)
    only = serve.ServeSettings(preheat=("mana.ipynb", "learn/mana_teaching.ipynb"))
    assert serve.preheated_lessons(only, ROOT / "notebooks") == ("mana_teaching.ipynb",)
    assert len([a for a in serve.voila_argv(only, ROOT / "dashboards", []) if "preheat_denylist" in a]) == len(
        list((ROOT / "dashboards").glob("*.ipynb"))) - 1
    assert serve.preheated_lessons(serve.ServeSettings(pool_size=0), ROOT / "notebooks") == ()
    assert serve.preheated_lessons(settings, None) == ()


def wait_in_log(log: Path, *marks: str, until: float, what: str) -> None:
    """Until the server's ``log`` has one of ``marks``; failing with ``what`` did not happen at ``until``
    (``time.monotonic()``)."""
    while not any(mark in log.read_text() for mark in marks):
        assert time.monotonic() < until, what
        time.sleep(0.2)


def test_a_lessons_first_visit_takes_a_kernel_that_waited_ready(tmp_path):
    log = tmp_path / "voila.log"
    with serve.serving(pool_size=1, preheat=("learn/mana_teaching.ipynb",), log=log) as server:
        wait_in_log(log, "Kernel pool of learn/mana_teaching.ipynb is filled", until=time.monotonic() + 120,
                    what="the lesson's kernel never started")
        with urllib.request.urlopen(f"{server.url}/voila/render/learn/mana_teaching.ipynb", timeout=90) as reply:
            page = reply.read().decode()
    assert "Using pre-heated kernel" in log.read_text() and "for learn/mana_teaching.ipynb" in log.read_text()
    assert "application/vnd.jupyter.widget-view+json" in page and "There was an error" not in page
    assert "jp-InputArea-editor" in page and "jupyter lab notebooks/mana_teaching.ipynb" in page  # still a lesson


def test_the_dashboards_folder_is_found_next_to_the_package_source():
    assert serve.dashboards_dir() == ROOT / "dashboards"
    assert serve.lessons_dir() == ROOT / "notebooks"
    assert not serve.installed(serve.lessons_dir())
    assert serve.lessons_dir(ROOT / "elsewhere" / "dashboards") is None
    assert serve.dashboard_url(serve.ServeSettings(port=8000)) == (
        "http://127.0.0.1:8000/voila/render/phase1_timeline.ipynb")  # links already shared keep working
    assert serve.lesson_url(serve.ServeSettings(port=8000)) == (
        "http://127.0.0.1:8000/voila/render/learn/phase1_teaching.ipynb")
    assert serve.landing_url(serve.ServeSettings(port=8000)) == "http://127.0.0.1:8000/"
    assert serve.landing_url(serve.ServeSettings(port=8000, host="0.0.0.0")) == "http://127.0.0.1:8000/"
    assert serve.landing_url(serve.ServeSettings(port=8000, host="::1")) == "http://[::1]:8000/"
    assert "--Voila.ip=0.0.0.0" in serve.voila_argv(serve.ServeSettings(host="0.0.0.0"), ROOT / "dashboards", [])


def test_installed_the_dashboards_are_package_data_inside_the_package(tmp_path):
    package = tmp_path / "site-packages" / "combatkit" / "widgets"
    for folder, notebook in (("dashboards", serve.MAIN_DASHBOARD), ("notebooks", serve.MAIN_LESSON)):
        (package / folder).mkdir(parents=True)
        (package / folder / notebook).write_text("{}")
    assert serve.dashboards_dir(package / "serve.py") == package / "dashboards"
    assert serve.lessons_dir(package / "dashboards") == package / "notebooks"


def test_without_its_dashboards_the_message_says_what_to_do(tmp_path, capsys):
    with pytest.raises(FileNotFoundError, match=r"pip install 'combatkit\[ui\]' .* or pass --dashboards PATH"):
        serve.dashboards_dir(tmp_path / "site-packages" / "combatkit" / "widgets" / "serve.py")
    assert serve.main(["--dashboards", str(tmp_path / "nowhere"), "--no-browser"]) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert serve.main(["--notebooks", str(tmp_path / "nowhere"), "--no-browser"]) == 2
    assert f"{tmp_path / 'nowhere'} is not a folder" in capsys.readouterr().err


def test_only_extensions_a_dashboard_does_not_need_are_denied():
    denied = serve.denied_extensions()
    assert not set(denied) & set(serve.DASHBOARD_EXTENSIONS)
    assert not [name for name in denied if name.startswith("@voila-dashboards/")]


def test_the_template_is_voilas_lab_template_without_the_cdn_links():
    folder = serve.TEMPLATE_ROOT / "voila" / "templates" / serve.TEMPLATE
    assert "combatkit_landing()" in (folder / "tree.html").read_text()  # the landing page
    assert serve.bundle_static().parts[-4:] == ("voila", "templates", serve.TEMPLATE, "static")  # in the cache (#45)
    text = (folder / "index.html.j2").read_text()
    assert text.startswith("{%- extends 'lab/index.html.j2' -%}")
    assert "{{ super.super() }}" in text and "http" not in text  # nothing is loaded from elsewhere
    for page in (text, (folder / "tree.html").read_text()):  # an icon of their own: no 404 for /favicon.ico
        assert '<link rel="icon" href="data:image/svg+xml;base64,' in page
    assert '"base_template": "lab"' in (folder / "conf.json").read_text()
    environ = serve.jupyter_environ({"JUPYTER_PATH": "/elsewhere"})
    assert environ["JUPYTER_PATH"].split(os.pathsep) == [str(serve.TEMPLATE_ROOT), "/elsewhere"]


def test_the_dashboards_kernel_starts_without_the_iri_grammar_and_still_draws():
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import start_new_kernel

    with patch.dict(os.environ, serve.jupyter_environ(dict(os.environ))):
        spec = KernelSpecManager().get_kernel_spec("python3")
        assert spec.argv[:3] == ["python", "-m", "combatkit.widgets.app.kernel"]
        manager, client = start_new_kernel(kernel_name="python3")
    try:
        printed = []
        client.execute_interactive(
            "import sys, jsonschema, altair as alt\n"
            "from combatkit.widgets.views.timeline import TimelineExplorer\n"
            "print(sys.modules['rfc3987_syntax'], 'iri' in jsonschema.FormatChecker.checkers,"
            " len(TimelineExplorer().timeline.spans))",
            output_hook=lambda m: m["msg_type"] == "stream" and printed.append(m["content"]["text"]), timeout=60)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert printed == ["None False 7\n"]


def test_a_kernel_keeps_quiet_about_plain_tcp_only_on_the_loopback_interface(tmp_path):
    from combatkit.widgets.app import kernel

    for ip, quiet in (("127.0.0.1", True), ("10.0.0.5", False)):
        (tmp_path / "k.json").write_text(json.dumps({"ip": ip, "transport": "tcp"}))
        assert kernel._on_loopback(["-m", "ipykernel", "-f", str(tmp_path / "k.json")]) is quiet
    assert not kernel._on_loopback(["-f", str(tmp_path / "missing.json")]) and not kernel._on_loopback([])
    warning = logging.LogRecord("IPKernelApp", logging.WARNING, "", 0, "Kernel is running over TCP without "
                                "encryption. All communication ...", (), None)
    other = logging.LogRecord("IPKernelApp", logging.WARNING, "", 0, "Something else", (), None)
    assert [kernel._OnLoopback().filter(r) for r in (warning, other)] == [False, True]


def test_only_the_cell_waiting_for_a_visitor_has_no_time_limit():
    timeout = serve.cell_timeout(60)
    assert timeout(nbformat.v4.new_code_cell("display(shareable(view, get_query_string()))")) is None
    assert timeout(nbformat.v4.new_code_cell("view = TimelineExplorer()")) == 60
    assert timeout(nbformat.v4.new_code_cell("# imports come before get_query_string()\nimport os")) == 60


def test_a_preheated_dashboard_still_renders_after_waiting_longer_than_a_cells_time_limit(tmp_path):
    log = tmp_path / "voila.log"
    with serve.serving(pool_size=1, preheat=("criticals.ipynb",), timeout=5, log=log) as server:
        wait_in_log(log, "Kernel pool of criticals.ipynb is filled", until=time.monotonic() + 120,
                    what="the preheated kernel never became ready")
        time.sleep(10)  # twice the limit: the kernel waits in get_query_string() for its visitor
        with urllib.request.urlopen(f"{server.url}/voila/render/criticals.ipynb?ac=2", timeout=60) as reply:
            page = reply.read().decode()
            cookies = [header.split("=", 1)[0] for header in reply.headers.get_all("Set-Cookie")]
    assert "application/vnd.jupyter.widget-view+json" in page
    assert "_xsrf" in cookies  # what the page's shutdown message carries when it is left
    assert "Cell execution timed out" not in log.read_text()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the kernel's process in Linux's /proc")
@pytest.mark.parametrize("dies", ["starting", "waiting"])
def test_a_kernel_that_died_waiting_for_its_visitor_is_replaced_not_handed_out(tmp_path, dies):
    """A waiting kernel that died was handed to the next visitor: as it started (it happened, a port taken under
    it), the page was cut off before its first widget; once waiting in the visitor's cell, jupyter_client
    restarted it, it looked alive, and the page's widgets were not in it."""
    log = tmp_path / "voila.log"
    with serve.serving(pool_size=1, preheat=("criticals.ipynb",), log=log) as server:
        deadline = time.monotonic() + 120
        wait_in_log(log, "Kernel pool of criticals.ipynb is filled", until=deadline,
                    what="the preheated kernel never became ready")
        if dies == "waiting":
            time.sleep(8)  # its imports done, it waits in get_query_string() for its visitor
        [(process, killed)] = kernel_processes(server.process.pid).items()
        os.kill(process, signal.SIGKILL)
        wait_in_log(log, "Kernel died", "restarting kernel", until=deadline, what="the server never saw the kernel die")
        time.sleep(5)  # jupyter_client's restarter looks every 3 s: a restart (none is allowed) would be in the log
        with urllib.request.urlopen(f"{server.url}/voila/render/criticals.ipynb", timeout=90) as reply:
            page = reply.read().decode()
    text = log.read_text()
    assert "restarting kernel" not in text
    assert "Using pre-heated kernel" in text and f"Using pre-heated kernel: {killed}" not in text
    assert "application/vnd.jupyter.widget-view+json" in page and "An exception occurred at the server" not in page
    assert "dropped 1 kernel(s) waiting for criticals.ipynb that could no longer serve a page" in text
    assert "Uncaught exception" not in text and "Cannot send error response" not in text


def test_only_the_waiting_kernels_that_cannot_serve_a_page_are_dropped_and_replaced(caplog):
    class Kernel:
        def __init__(self, alive):
            self.alive = alive

        async def is_alive(self):
            return self.alive

    class Manager:  # voila's pooling kernel manager, as heal_pool uses it
        def __init__(self, loop):
            self.log, self.kernels, self.shut, self.filled = logging.getLogger("combatkit-test-pool"), {}, [], []

            def waiting(kernel, alive=True, rendering=None):
                page = loop.create_future()  # its rendering, waiting in the visitor's cell
                if rendering is not None:
                    page.set_exception(rendering)
                self.kernels[kernel] = Kernel(alive)
                task = loop.create_future()
                task.set_result({"kernel_id": kernel, "task": page, "renderer": types.SimpleNamespace(log=self.log)})
                return task

            failed, starting = loop.create_future(), loop.create_future()
            failed.set_exception(RuntimeError("Kernel died before replying to kernel_info"))
            self._pools = {"prep.ipynb": [waiting("dead", alive=False), failed, starting, waiting("ready"),
                                          waiting("broken", rendering=RuntimeError("Kernel died")), waiting("gone")],
                           "mana.ipynb": [waiting("other", alive=False)]}
            del self.kernels["gone"]  # died, and the restarter took it off the server's list: nothing to shut down

        def __contains__(self, kernel):
            return kernel in self.kernels

        def get_kernel(self, kernel):
            return self.kernels[kernel]

        def get_pool_size(self, notebook):
            return len(self._pools.get(notebook, []))

        async def shutdown_kernel(self, kernel, now=False):
            self.shut.append((kernel, now))

        def fill_if_needed(self, delay=None, notebook_name=None):
            self.filled.append((delay, notebook_name))

    async def visit():
        manager = Manager(asyncio.get_running_loop())
        await serve.heal_pool(manager, "prep.ipynb")
        await serve.heal_pool(manager, "prep.ipynb")  # nothing more to drop: nothing more started
        await serve.heal_pool(manager, "nowhere.ipynb")  # a page with no pool: voila starts its kernel itself
        await serve.heal_pool(manager, None)
        return manager

    with caplog.at_level(logging.INFO, logger="combatkit-test-pool"):
        manager = asyncio.run(visit())
    assert [task.result()["kernel_id"] if task.done() else "starting" for task in manager._pools["prep.ipynb"]] \
        == ["starting", "ready"]
    assert manager.shut == [("dead", True), ("broken", True)] and manager.filled == [(0, "prep.ipynb")]
    assert len(manager._pools["mana.ipynb"]) == 1  # another page's pool is its own visitor's to heal
    assert caplog.messages == ["combatkit: dropped 4 kernel(s) waiting for prep.ipynb that could no longer serve a "
                               "page; starting new ones"]


def test_the_culler_passes_over_a_kernel_shut_down_while_it_culled_another(tmp_path, caplog):
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    log = logging.getLogger("combatkit-test-culler")
    kernels = serve._kernels_class(AsyncMappingKernelManager, None)(root_dir=str(tmp_path), cull_idle_timeout=0, log=log)

    async def scenario() -> None:
        first = await kernels.start_kernel(kernel_name="python3")
        second = await kernels.start_kernel(kernel_name="python3")
        shutdown = kernels.shutdown_kernel

        async def second_page_left_meanwhile(kernel_id: str, *args, **kwargs) -> None:
            if kernel_id == first:  # while the culler shuts the first down, voila's beacon shuts the second down
                await shutdown(second)
            await shutdown(kernel_id, *args, **kwargs)

        kernels.shutdown_kernel = second_page_left_meanwhile
        try:
            await kernels.cull_kernels()
            assert kernels.list_kernel_ids() == []
        finally:
            await kernels.shutdown_all()

    with caplog.at_level(logging.INFO, logger=log.name):
        asyncio.run(scenario())
    assert [record.getMessage() for record in caplog.records if record.exc_info] == []  # was: KeyError


def test_the_culler_passes_over_a_kernel_being_shut_down(tmp_path, caplog):
    """A kernel whose shutdown is under way (its page left) is not culled on top of it, a second shutdown of the
    same kernel; the manager tells one from the shutdowns passing through it (serve._kernels_class)."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    log = logging.getLogger("combatkit-test-culler-leaving")
    manager = serve._kernels_class(AsyncMappingKernelManager, None)
    kernels = manager(root_dir=str(tmp_path), cull_idle_timeout=0, log=log)

    async def scenario() -> None:
        kernel = await kernels.start_kernel(kernel_name="python3")
        try:
            leaving = asyncio.ensure_future(kernels.shutdown_kernel(kernel))
            await asyncio.sleep(0)  # the shutdown begins
            assert kernel in kernels  # still on the list, its shutdown under way
            await kernels.cull_kernels()
            await leaving
            assert kernels.list_kernel_ids() == []
        finally:
            await kernels.shutdown_all()

    with caplog.at_level(logging.INFO, logger=log.name):
        asyncio.run(scenario())
    assert not [message for message in caplog.messages if message.startswith("Culling")]
    assert [message.startswith("Kernel shutdown") for message in caplog.messages].count(True) == 1


def test_the_culler_passes_over_a_kernel_started_but_not_yet_marked_active(tmp_path, caplog):
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    log = logging.getLogger("combatkit-test-culler-start")
    manager = serve._kernels_class(AsyncMappingKernelManager, None)
    kernels = manager(root_dir=str(tmp_path), cull_idle_timeout=0, log=log)
    joined = kernels._add_kernel_when_ready

    async def culled_as_it_joins(kernel_id, km, starter) -> None:
        await joined(kernel_id, km, starter)  # listed, no longer pending; jupyter_server marks it active only later
        await kernels.cull_kernels()

    kernels._add_kernel_when_ready = culled_as_it_joins

    async def scenario() -> list[str]:
        try:
            await kernels.start_kernel(kernel_name="python3")
            return kernels.list_kernel_ids()
        finally:
            await kernels.shutdown_all()

    with caplog.at_level(logging.INFO, logger=log.name):
        assert len(asyncio.run(scenario())) == 1  # not culled: it has not been idle yet
    assert [record.getMessage() for record in caplog.records if record.exc_info] == []  # was: TraitError, last_activity


def test_the_server_log_has_no_traceback_from_culling_or_stopping(tmp_path):
    log = tmp_path / "voila.log"
    # 10 s idle: a kernel still starting for the visit (no message yet, 3-8 s on a loaded 2-core machine) is not
    # culled under the page being rendered, as a 2 s timeout once did (its cells then died: tracebacks in the log)
    with serve.serving(pool_size=1, preheat=("criticals.ipynb",), cull_interval=1, cull_idle_timeout=10,
                       log=log) as server:
        with urllib.request.urlopen(f"{server.url}/voila/render/mana.ipynb?template=lab", timeout=90) as reply:
            page = reply.read().decode()
        assert 'class="ck-nav"' in page  # a link cannot pick another template
        deadline = time.monotonic() + 60
        # no page keeps the kernel: culled after 10 s
        wait_in_log(log, "Culling 'idle' kernel", until=deadline, what="no kernel was culled")
        wait_in_log(log, "Kernel pool of criticals.ipynb is filled", until=deadline,
                    what="the preheated kernel never became ready")
        time.sleep(3)  # the preheated kernel waits for its visitor in get_query_string(); the culler passes it over
    text = log.read_text()
    assert "Kernel shutdown" in text  # stopped, and the waiting kernel with it
    assert "Traceback" not in text and "ERROR" not in text, text
    assert "is not trusted" not in text  # the served notebooks keep no outputs: trust changes nothing in them
    assert "without encryption" not in text  # its kernels listen on 127.0.0.1 only (combatkit.widgets.app.kernel)


def test_a_port_taken_before_the_server_binds_it_is_left_for_another(monkeypatch, tmp_path):
    """Test workers start servers side by side (make test): a free port can be taken between free_port() and
    the server's start. The server then exits and serving() tries another free port; a page that answers on the
    taken port is not mistaken for the dashboards (the server is ready when it listens there itself)."""
    import http.server
    import threading

    class Squatter(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"not the dashboards")

        def log_message(self, *args) -> None:
            pass

    squatter = http.server.HTTPServer(("127.0.0.1", 0), Squatter)
    taken = squatter.server_address[1]
    threading.Thread(target=squatter.serve_forever, daemon=True).start()
    handed = iter([taken])
    monkeypatch.setattr(serve, "free_port", lambda real=serve.free_port: next(handed, None) or real())
    try:
        with serve.serving(pool_size=0, log=tmp_path / "voila.log") as server:
            assert server.url != f"http://127.0.0.1:{taken}"
            with urllib.request.urlopen(f"{server.url}/voila/tree", timeout=30) as reply:
                assert b"not the dashboards" not in reply.read()
        with pytest.raises(RuntimeError, match="exited with code"):  # a port asked for is not swapped
            with serve.serving(port=taken, pool_size=0, log=tmp_path / "taken.log"):
                pass
    finally:
        squatter.shutdown()


@pytest.mark.parametrize("path", sorted((ROOT / "dashboards").glob("*.ipynb")), ids=lambda p: p.name)
def test_each_dashboard_has_one_cell_without_a_time_limit_its_last(path):
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    unlimited = [n for n, cell in enumerate(cells) if serve.cell_timeout(60)(cell) is None]
    assert unlimited == [len(cells) - 1]


# ------------------------------------------------ the landing page's two sections, and the lessons under learn/


def notebook(folder: Path, name: str, heading: str, **combatkit) -> None:
    cells = [{"cell_type": "markdown", "id": "intro", "metadata": {},
              "source": [f"# {heading}\n", f"What {heading} shows. More."]},
             {"cell_type": "code", "id": "sum", "metadata": {}, "source": ["1 + 1"], "outputs": [],
              "execution_count": None}]
    (folder / name).write_text(json.dumps({"cells": cells, "metadata": {"combatkit": combatkit}, "nbformat": 4,
                                           "nbformat_minor": 5}))


def test_the_landing_page_lists_the_dashboards_then_every_lesson_in_order():
    page = landing(serve.dashboards_dir(), serve.lessons_dir())
    assert [card.path for card in page.dashboards] == [card.path for card in dashboards(serve.dashboards_dir())]
    assert [card.path for card in page.lessons] == [f"{LEARN}/{p.name}" for p in sorted(
        LESSONS, key=lambda p: nbformat.read(p, as_version=4).metadata.combatkit.order)]
    assert [card.order for card in page.lessons] == list(range(1, len(LESSONS) + 1))
    assert page.lessons[0].title == "Phase System I: who acts when in a round"  # where a new player begins (#45)
    assert all(card.summary and len(card.summary) <= 200 for card in page.lessons)
    served = {card.path for card in page.dashboards}
    for lesson in page.lessons:  # each lesson names its dashboard, and the dashboard names it back
        assert lesson.companion in served, lesson.path
        assert page.card(lesson.companion).companion == lesson.path
    assert page.card("compare_systems.ipynb").companion == "learn/intents_teaching.ipynb"
    assert landing(serve.dashboards_dir()).lessons == []  # served without lessons: no Learn section


def test_lessons_go_by_their_number_then_by_title_and_a_missing_dashboard_is_no_link(tmp_path):
    boards, lessons = tmp_path / "dashboards", tmp_path / "notebooks"
    boards.mkdir(), lessons.mkdir()
    notebook(boards, "tool.ipynb", "Tool")
    notebook(lessons, "zeta.ipynb", "Zeta", order=1, dashboard="tool.ipynb")
    notebook(lessons, "alpha.ipynb", "Alpha", order=2, dashboard="gone.ipynb")
    notebook(lessons, "beta.ipynb", "Beta")
    notebook(lessons, "aardvark.ipynb", "Aardvark", order="first")  # not a number: no place of its own
    page = landing(boards, lessons)
    assert [card.title for card in page.lessons] == ["Zeta", "Alpha", "Aardvark", "Beta"]
    assert [card.companion for card in page.lessons] == ["tool.ipynb", "", "", ""]
    assert page.dashboards[0].companion == "learn/zeta.ipynb"
    assert page.lessons[0].summary == "What Zeta shows."


def contents(lessons: Path | None = ROOT / "notebooks", root: Path = ROOT / "dashboards"):
    return serve._contents_class()(root_dir=str(root), lessons=lessons)


def test_lessons_are_served_under_learn_and_show_their_code():
    manager = contents()
    model = manager.get(f"{LEARN}/phase1_teaching.ipynb")
    assert (model["path"], model["type"]) == ("learn/phase1_teaching.ipynb", "notebook")
    marks = model["content"].metadata.combatkit
    assert marks["show_code"] is True and marks["file"] == "notebooks/phase1_teaching.ipynb"
    assert marks["see_also"] == {"path": "phase1_timeline.ipynb", "kind": "dashboard",
                                 "title": "Who acts when: a Phase System I round"}
    assert marks["order"] == 1  # the notebook's own metadata stays
    assert manager.file_exists("learn/mana_teaching.ipynb") and manager.dir_exists(LEARN)
    assert not manager.file_exists("learn/phase1_timeline.ipynb") and not manager.dir_exists("learning")
    listing = manager.get(LEARN)
    assert listing["path"] == LEARN
    assert {child["path"] for child in listing["content"]} >= {f"learn/{p.name}" for p in LESSONS}


def test_a_dashboard_keeps_its_path_and_hides_its_code_but_links_its_lesson():
    manager = contents()
    model = manager.get("phase1_timeline.ipynb")
    assert model["path"] == "phase1_timeline.ipynb"
    marks = model["content"].metadata.combatkit
    assert "show_code" not in marks and "file" not in marks
    assert marks["see_also"] == {"path": "learn/phase1_teaching.ipynb", "kind": "lesson",
                                 "title": "Phase System I: who acts when in a round"}
    assert manager.get("compare_systems.ipynb")["content"].metadata.combatkit["see_also"] == {
        "path": "learn/intents_teaching.ipynb", "kind": "lesson",
        "title": "One encounter, six systems: what each figure means to do"}
    both = {p.name for p in (ROOT / "dashboards").glob("*.ipynb")} & {p.name for p in LESSONS}
    assert both == {"encounter_prep.ipynb"}  # one name in both folders, two notebooks
    assert manager.get("encounter_prep.ipynb")["content"].cells != manager.get("learn/encounter_prep.ipynb")[
        "content"].cells


def test_nothing_outside_the_two_folders_is_served(tmp_path):
    manager = contents()
    for path in ("learn/../README.md", "learn/../../pyproject.toml", "../README.md", "learn/../dashboards/mana.ipynb"):
        with pytest.raises(HTTPError) as refused:
            manager.get(path)
        assert refused.value.status_code == 404, path
    with pytest.raises(HTTPError):
        contents(lessons=None).get("learn/phase1_teaching.ipynb")  # served without lessons
    notebook(tmp_path, "quiet.ipynb", "Quiet", show_code=False)  # a lesson may keep its code to itself
    assert contents(lessons=tmp_path).get("learn/quiet.ipynb")["content"].metadata.combatkit["show_code"] is False


def test_a_lessons_kernel_starts_in_the_lessons_folder():
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    kernels = serve._kernels_class(AsyncMappingKernelManager, ROOT / "notebooks")(root_dir=str(ROOT / "dashboards"))
    assert kernels.cwd_for_path(LEARN) == str(ROOT / "notebooks")
    assert kernels.cwd_for_path("learn/../..") == str(ROOT / "notebooks")  # never out of it
    assert kernels.cwd_for_path("") == str(ROOT / "dashboards")
