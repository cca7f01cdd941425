"""Serve combatkit's Voila dashboards and lessons on this machine, with production settings.

    combatkit serve [--port N] [--host ADDRESS] [--no-browser] [--engine auto|pure]
    python -m combatkit.widgets.app.serve [...]          (the same)

Serves combatkit's dashboards (:func:`dashboards_dir`) on 127.0.0.1 as one app, with its teaching
notebooks (:func:`lessons_dir`) as lessons under ``learn/``, and prints the URL of its landing page,
which lists every dashboard with a picture and one line, then every lesson in the order to learn
them (read on each visit, see :mod:`combatkit.widgets.app.landing`). The settings are the ones a shared
link needs:

* no tracebacks, and no code in a dashboard (``show_tracebacks=False``, ``strip_sources=True``);
  a lesson shows its code (see below);
* a time limit on each notebook cell (:func:`cell_timeout`), since voila has none and one
  stuck cell would otherwise hold a page forever (but none on the cell where a preheated
  kernel waits for its visitor), and a longer wait for a cell's outputs
  (``VoilaExecutor.iopub_timeout``), which under load otherwise drops them silently;
* the dashboards' kernels start without jsonschema's IRI grammar, 2.2 s of CPU each
  (:mod:`combatkit.widgets.app.kernel`): a kernel's imports take 1.0 s instead of 3.7 s;
* one preheated kernel waiting for each dashboard and each lesson, so no visitor waits for a
  kernel to start and the imports to run, the first visit of a page included; a waiting kernel
  that died is replaced before a visitor is handed it (:func:`heal_pool`), where voila handed it
  out and its page stopped before its first widget; a kernel that died is not restarted (it
  would have none of its page's widgets): its page is told, and says so above everything else
  (the template's ``ck-gone`` notice: reload to start again), as when the page loses the server;
* kernels of closed pages are culled after a while (voila does not shut them down);
* lab extensions a dashboard does not need are denied: only voila's own, the widgets
  manager and anywidget (for the charts) load; others installed in the environment (a
  theme, jupytext, a lab preview button...) can throw in voila's page;
* the ``combatkit`` template: voila's ``lab`` template without its CDN FontAwesome links,
  so nothing is fetched from the internet, and with the landing page as its tree page; a link
  cannot pick another (``?template=``: ``allow_template_override=NO``; voila 0.5.8, pinned for
  its widget manager, predates 0.5.9's check of that name);
* every page sets the ``_xsrf`` cookie, so that leaving it shuts its kernel down at once, as voila
  means to, even for a visitor who came by a shared link and not by the landing page (see
  :func:`_app_class`; culling remains for pages closed without that message);
* the kernels run the compiled engine once it is built for this checkout's source, in the background
  where a C compiler is (``--engine auto``, the default; :mod:`combatkit.widgets.app.compiled`): encounter
  prep about twice as fast, the same fights;
* the charts' JavaScript bundle (~1 MB) is written once into the template's static folder in the
  user's cache folder (:func:`bundle_static`), never into the installation, and each chart imports it
  from there (``COMBATKIT_CHART_BUNDLE``, see :mod:`combatkit.widgets.charts.render`): the browser fetches it
  once and caches it, instead of receiving it over the kernel's websocket with every chart of every page.

**Lessons.** ``dashboards/`` stays the root of the server, so every dashboard keeps its URL
(``/voila/render/phase1_timeline.ipynb``, in links already shared); the lessons folder is mounted
under :data:`~combatkit.widgets.app.landing.LEARN` by the server's contents manager
(``/voila/render/learn/phase1_teaching.ipynb``), and their kernels start in that folder, as in
Jupyter. Serving the repository's root instead would move every dashboard's URL and put every
notebook of the repository on the web; a symbolic link ``dashboards/learn`` would be a file of its
own to keep, a plain text file in a Windows checkout. Nothing outside the two folders is served
(``learn/../x`` is a 404). Voila preheats only the notebooks it finds under its root; the server
fills the lessons' pools itself (:func:`preheated_lessons`), so a lesson waits ready as a dashboard does.

A lesson teaches the API, so its page shows each code cell above its output (without prompts):
``strip_sources`` is one server-wide setting, so the template turns the code back on for a
notebook whose ``metadata.combatkit.show_code`` is true. The server sets it on every lesson it
loads, unless the notebook says false; a dashboard shows code only if it asks. The server also
puts ``metadata.combatkit.see_also`` on each notebook it loads that has a companion (a lesson's
dashboard, a dashboard's lesson, from the lessons' ``metadata.combatkit.dashboard``), and the
template draws a bar above the page: back to the landing page, and on to the companion; a lesson's
bar also gives the command that opens it in JupyterLab (``metadata.combatkit.file``), since its
page runs the code but cannot change it.

**Where the dashboards are.** The repository keeps them in ``dashboards/`` and ``notebooks/``, beside
the package's source folder ``widgets/``; a wheel installs them as package data inside the package,
``combatkit/widgets/dashboards`` and ``combatkit/widgets/notebooks`` (see pyproject.toml). The server
looks in the package first, then beside it, so ``pip install "combatkit[ui]"`` and a checkout installed
with ``pip install -e .`` serve the same pages (``--dashboards PATH`` and ``--notebooks PATH`` serve
others). An installed lesson's bar says ``combatkit lessons`` first: it copies the lessons into a folder
of the visitor's own, to change and run (site-packages is no place to edit them).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.resources
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async
from traitlets import TraitError

from combatkit.widgets.app import compiled
from combatkit.widgets.app.compiled import ENGINES
from combatkit.widgets.app.landing import LEARN, landing

__all__ = ["LESSONS_COPY", "MAIN_DASHBOARD", "MAIN_LESSON", "RunningServer", "ServeSettings", "add_arguments",
           "bundle_static", "cell_timeout", "dashboard_url", "dashboards_dir", "denied_extensions", "free_port",
           "installed", "jupyter_environ", "landing_url", "lesson_url", "lessons_dir", "main", "preheated_lessons",
           "renew_and_say", "renew_pools", "run", "serving", "voila_argv"]

TEMPLATE = "combatkit"
TEMPLATE_ROOT = Path(__file__).resolve().parent
"""A Jupyter data folder holding ``voila/templates/combatkit`` and ``kernels/python3``; put first on
``JUPYTER_PATH``."""
MAIN_DASHBOARD = "phase1_timeline.ipynb"
"""The dashboard that must be there: it tells a dashboards folder from another."""
MAIN_LESSON = "phase1_teaching.ipynb"
"""The first lesson: it tells the repository's lessons folder from another."""
DASHBOARD_EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "anywidget")
"""The lab extensions a dashboard needs besides voila's own (``@voila-dashboards/...``)."""


LESSONS_COPY = "combatkit-lessons"
"""The folder ``combatkit lessons`` copies the installed lessons into, by default."""

@dataclass(frozen=True)
class ServeSettings:
    """How the dashboards are served."""

    port: int = 8866
    """TCP port. If it is taken, the server stops rather than moving to another."""
    host: str = "127.0.0.1"
    """The address to listen on: this machine only, by default; ``0.0.0.0`` for every interface (behind
    a proxy, say: voila asks no one to log in)."""
    open_browser: bool = True
    """Open the dashboard in the default browser once the server is up."""
    timeout: int = 60
    """Seconds a dashboard cell may run before voila gives up on it."""
    iopub_timeout: int = 60
    """Seconds voila waits for a cell's outputs after the cell has run. nbclient's default, 4 s, is
    too short under load: with 20 pages opening at once on two cores, a quarter of them lost their
    outputs and showed an empty page, with no error (``benchmarks/load.py``)."""
    pool_size: int = 1
    """Preheated kernels kept waiting for each preheated page; 0: every visit starts a kernel."""
    preheat: tuple[str, ...] = ()
    """The pages that get preheated kernels, as their paths in URLs (``mana.ipynb``,
    ``learn/mana_teaching.ipynb``); the others start a kernel per visit. () means every dashboard
    and lesson: a first visit then takes no longer than a later one (2-3 s to the first chart
    instead of 5-8 s, ``benchmarks/first_chart.py``), for about 170 MiB per waiting kernel."""
    cull_interval: int = 60
    """Seconds between checks for abandoned kernels."""
    cull_idle_timeout: int = 900
    """Seconds a kernel with no open page may idle before it is shut down."""


def _package(start: Path | None = None) -> Path:
    """This package's folder (``combatkit/widgets`` installed, ``widgets/`` in a checkout); ``start``, a
    file in another such folder, for tests."""
    return start.resolve().parent if start else Path(str(importlib.resources.files("combatkit.widgets")))


def dashboards_dir(start: Path | None = None) -> Path:
    """The dashboards: the package's data folder ``dashboards`` (installed from a wheel), or else the
    repository's ``dashboards/`` beside the package's source folder (a checkout, ``pip install -e .``).

    Raises FileNotFoundError, saying what to do, when neither is there.
    """
    package = _package(start)
    for folder in (package / "dashboards", package.parent / "dashboards"):
        if (folder / MAIN_DASHBOARD).is_file():
            return folder
    raise FileNotFoundError(
        f"no dashboards folder with {MAIN_DASHBOARD} in {package} or beside it. Install combatkit with its "
        f"dashboards: pip install 'combatkit[ui]' (or, in a git checkout, pip install -e '.[ui]'), "
        f"or pass --dashboards PATH."
    )


def lessons_dir(dashboards: Path | None = None) -> Path | None:
    """The lessons (the teaching notebooks), the folder ``notebooks`` beside the dashboards, installed or in
    a checkout; None if there is none."""
    folder = (dashboards or dashboards_dir()).parent / "notebooks"
    return folder if (folder / MAIN_LESSON).is_file() else None


def installed(folder: Path) -> bool:
    """Whether ``folder`` is package data of an installed combatkit (not a checkout's, nor one of the user's)."""
    return folder.resolve().parent == _package().resolve()


def _base_url(settings: ServeSettings) -> str:
    """``http://host:port`` as a browser on this machine reaches the server (any address: 127.0.0.1)."""
    host = "127.0.0.1" if settings.host in ("", "0.0.0.0", "::") else settings.host
    return f"http://{f'[{host}]' if ':' in host else host}:{settings.port}"


def dashboard_url(settings: ServeSettings, notebook: str = MAIN_DASHBOARD) -> str:
    return f"{_base_url(settings)}/voila/render/{notebook}"


def lesson_url(settings: ServeSettings, notebook: str = MAIN_LESSON) -> str:
    """A lesson's page: the teaching notebook ``notebook`` of the lessons folder."""
    return dashboard_url(settings, f"{LEARN}/{notebook}")


def landing_url(settings: ServeSettings) -> str:
    """The landing page: every dashboard, with a picture and one line."""
    return f"{_base_url(settings)}/"


def denied_extensions() -> list[str]:
    """Lab extensions installed where voila looks for them that a dashboard does not need."""
    from jupyterlab_server.config import get_federated_extensions
    from voila.utils import get_voila_labextensions_path

    found = get_federated_extensions(get_voila_labextensions_path())
    return sorted(name for name in found
                  if name not in DASHBOARD_EXTENSIONS and not name.startswith("@voila-dashboards/"))


def voila_argv(settings: ServeSettings, dashboards: Path, denied: list[str]) -> list[str]:
    """The voila command line for ``settings`` (what ``main`` runs, and what a reader can reuse)."""
    argv = [
        str(dashboards),
        f"--Voila.ip={settings.host}",
        f"--Voila.port={settings.port}",
        "--Voila.port_retries=0",
        f"--Voila.open_browser={settings.open_browser}",
        f"--VoilaConfiguration.template={TEMPLATE}",
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.classic_tree=True",
        "--VoilaConfiguration.show_tracebacks=False",
        "--VoilaConfiguration.strip_sources=True",
        f"--VoilaExecutor.timeout={settings.timeout}",
        f"--VoilaExecutor.iopub_timeout={settings.iopub_timeout}",
        f"--MappingKernelManager.cull_interval={settings.cull_interval}",
        f"--MappingKernelManager.cull_idle_timeout={settings.cull_idle_timeout}",
        f"--KernelManager.transport={kernel_transport()}",
        # A page's kernel that died is not restarted: the new one has none of its page's widgets (the page can only
        # fail: "widget model not found"), and a waiting one restarted looked alive to heal_pool. The restarter still
        # watches (a limit of no restarts): it tells the page its kernel is dead, and the page says so.
        "--KernelRestarter.restart_limit=0",
    ]
    argv += [f"--VoilaConfiguration.extension_denylist={name}" for name in denied]
    if settings.pool_size > 0:
        argv += ["--VoilaConfiguration.preheat_kernel=True",
                 f"--VoilaConfiguration.default_pool_size={settings.pool_size}"]
        if settings.preheat:
            cold = sorted(p.name for p in dashboards.glob("*.ipynb") if p.name not in settings.preheat)
            # voila skips a notebook whose path contains a denylist entry: "/name" matches that file only
            argv += [f"--VoilaKernelManager.preheat_denylist=/{name}" for name in cold]
    return argv


IPC_PATH_ROOM = 100
"""Characters a Unix socket's path may take (108 on Linux, 104 on macOS), less a margin."""
IPC_NAME = len("/voila_xxxxxxxx/kernel-00000000-0000-0000-0000-000000000000-ipc-5")
"""What voila's connection folder and a kernel's socket add to the temporary folder's path."""


def kernel_transport(system: str = os.name, temporary: str | None = None) -> str:
    """How the server talks to its kernels: over Unix sockets (``ipc``) beside their connection files where the
    system has them and their paths fit, else TCP on 127.0.0.1. Over TCP, jupyter_client picks each kernel's five
    ports free and lets them go before the kernel binds them; with 20 kernels starting at once (every page
    preheated), another could take one first. It happened: a lesson's kernel died ("ZMQError: Address already
    in use"), voila kept it in the page's pool, and the first visitor's page stayed at "Running..." (a known race,
    jupyter_client/ipykernel; no port, no race)."""
    folder = tempfile.gettempdir() if temporary is None else temporary  # where voila puts its connection folder
    return "ipc" if system == "posix" and len(folder) + IPC_NAME <= IPC_PATH_ROOM else "tcp"


def preheated_lessons(settings: ServeSettings, lessons: Path | None) -> tuple[str, ...]:
    """The lessons (file names in ``lessons``) whose kernels wait ready, as ``settings`` say."""
    if settings.pool_size <= 0 or lessons is None:
        return ()
    names = sorted(p.name for p in lessons.glob("*.ipynb"))
    return tuple(name for name in names if not settings.preheat or f"{LEARN}/{name}" in settings.preheat)


def bundle_static() -> Path:
    """Where the server writes the chart bundle at start: the template's static folder in a Jupyter data folder in
    the user's cache (:func:`combatkit.widgets.charts.render.bundle_data`), which :func:`run` puts on ``JUPYTER_PATH``
    after :data:`TEMPLATE_ROOT`, so voila serves the bundle as ``/voila/static/<name>`` as it would from the
    template's own folder. Not in the installation: a file written there is in no wheel's ``RECORD``, and
    ``pip uninstall`` left it behind (#45). Built once a version of altair and vl-convert, at the first start, as
    before: no visit waits for it."""
    from combatkit.widgets.charts.render import bundle_data

    return bundle_data() / "voila" / "templates" / TEMPLATE / "static"


def jupyter_environ(environ: dict[str, str]) -> dict[str, str]:
    """``environ`` with this package's Jupyter data folder first on ``JUPYTER_PATH``: the ``combatkit``
    template, and the ``python3`` kernel spec the dashboards run in (:mod:`combatkit.widgets.app.kernel`)."""
    paths = [str(TEMPLATE_ROOT), *[p for p in environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]]
    return {**environ, "JUPYTER_PATH": os.pathsep.join(dict.fromkeys(paths))}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``combatkit serve`` (and ``python -m combatkit.widgets.app.serve``)."""
    parser.add_argument("--port", type=int, default=ServeSettings.port, help="port to listen on (default 8866)")
    parser.add_argument("--host", default=ServeSettings.host, metavar="ADDRESS",
                        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every "
                             "interface, e.g. behind a proxy; no one is asked to log in)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--dashboards", type=Path, help="folder of dashboards (default: combatkit's own)")
    parser.add_argument("--notebooks", type=Path,
                        help=f"folder of teaching notebooks, served under /{LEARN}/ (default: combatkit's own "
                             "lessons; none when --dashboards is given)")
    parser.add_argument("--pool-size", type=int, default=ServeSettings.pool_size,
                        help="preheated kernels per page; 0 starts a kernel per visit (default 1)")
    parser.add_argument("--timeout", type=int, default=ServeSettings.timeout, help="seconds a cell may run")
    parser.add_argument("--preheat", nargs="*", default=list(ServeSettings.preheat), metavar="PAGE",
                        help="the only pages whose kernels wait ready, e.g. mana.ipynb learn/mana_teaching.ipynb "
                             "(default: every dashboard and lesson, about 170 MiB each)")
    parser.add_argument("--cull-interval", type=int, default=ServeSettings.cull_interval, metavar="SECONDS",
                        help="seconds between checks for abandoned kernels (default %(default)s)")
    parser.add_argument("--cull-idle-timeout", type=int, default=ServeSettings.cull_idle_timeout, metavar="SECONDS",
                        help="seconds a kernel with no open page may idle before it is shut down (default %(default)s)")
    parser.add_argument("--engine", choices=ENGINES, default="auto",
                        help="auto (default): the kernels run the compiled engine, built in the background once for "
                             "each version of a checkout where a C compiler is (encounter prep about twice as fast); "
                             "pure: pure Python only")


def run(args: argparse.Namespace, prog: str = "combatkit serve") -> int:
    """Serve with the options ``args`` (from :func:`add_arguments`) until stopped; 2 if an option is wrong."""
    try:
        folder = args.dashboards.resolve() if args.dashboards else dashboards_dir()
    except FileNotFoundError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    if args.notebooks:
        lessons = args.notebooks.resolve()
    else:  # combatkit's lessons go with combatkit's dashboards only
        lessons = None if args.dashboards else lessons_dir(folder)
    for given in (folder, lessons):
        if given is not None and not given.is_dir():
            print(f"{prog}: {given} is not a folder", file=sys.stderr)
            return 2
    settings = ServeSettings(port=args.port, host=args.host, open_browser=not args.no_browser, timeout=args.timeout,
                             pool_size=args.pool_size, preheat=tuple(args.preheat), cull_interval=args.cull_interval,
                             cull_idle_timeout=args.cull_idle_timeout)

    from combatkit.widgets.charts.render import BUNDLE_ENV, bundle_data, write_bundle

    # build the chart bundle once here, not in the first visitor's kernel; kernels import it by URL
    try:
        os.environ[BUNDLE_ENV] = write_bundle(bundle_static())
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(bundle_data()), os.environ.get("JUPYTER_PATH", "")])
    except OSError:  # a read-only cache folder: each kernel sends the bundle with its charts instead
        os.environ.pop(BUNDLE_ENV, None)
    os.environ.update(jupyter_environ(dict(os.environ)))
    print(f"combatkit dashboards from {folder}" + (f", lessons from {lessons}" if lessons else "")
          + f"\nopen {landing_url(settings)}", flush=True)
    build = compiled.start(args.engine, _say)
    app = _app_class(settings.timeout, lessons, preheated_lessons(settings, lessons), build)
    app.launch_instance(argv=voila_argv(settings, folder, denied_extensions()))
    return 0


def _say(line: str) -> None:
    print(f"combatkit: {line}", flush=True)


_RETIRED = logging.Logger("combatkit.widgets.app.serve.retired", level=logging.CRITICAL + 1)
"""Where the renderings of the kernels :func:`renew_pools` retires report: nowhere. Made outside the logging
registry, which the server's logging set-up would re-enable."""
_RETIRED.propagate = False


VOILA_POOLS = "0.5.8"
"""The voila whose pools :func:`voila_pool` reads (pyproject.toml pins it; ``tests/test_serve_private.py`` fails
under another)."""


def voila_pool(manager: Any, notebook: str) -> list[asyncio.Future]:
    """The kernels waiting for visitors of ``notebook`` in voila's kernel manager ``manager`` (none if it keeps no
    pool for it): the pool itself, in the order voila hands them out, to take a kernel out of. Each is the task that
    starts it, whose result is a dict of the kernel's ``kernel_id``, its page's rendering ``task`` (stopped in the
    cell that waits for the visitor) and the ``renderer`` running it.

    The app's one use of a private name of voila or jupyter_server (#47): voila keeps its pools in
    ``manager._pools`` (:data:`VOILA_POOLS`), and nothing public shows a waiting kernel without handing it out.
    ``get_pool_size`` counts them; ``notebook_data`` lists a notebook's preheated kernels, waiting or handed out
    alike; ``get_rendered_notebook`` hands the first to a visitor (logs it as used, stops its page for streaming,
    raises if it failed to start); ``shutdown_kernel`` takes one out of its pool, but raises instead when a pool
    holds a kernel that failed to start. Nor can a subclass keep a record of its own: voila makes its manager class at
    start, on top of the one a server configures (:func:`_kernels_class`), which never sees a kernel handed out.
    """
    return manager._pools.get(notebook, [])


async def renew_pools(manager: Any) -> int:
    """Replace the kernels waiting in voila's pools (:func:`voila_pool`) with new ones, and return how many: started
    once the compiled engine is ready (:mod:`combatkit.widgets.app.compiled`), the new ones run it. A kernel a
    visitor took meanwhile is left alone; a waiting one is retired (:func:`_retire`)."""
    renewed = 0
    for name in list(manager.notebook_data):  # every notebook whose kernels voila preheats
        pool = voila_pool(manager, name)
        for task in list(pool):
            try:
                waiting = await task
            except Exception:  # noqa: BLE001 (a kernel that failed to start: voila has said so already)
                continue
            if task in pool:  # still waiting for a visitor
                pool.remove(task)
                await _retire(manager, waiting)
                renewed += 1
        manager.fill_if_needed(delay=0, notebook_name=name)
    return renewed


async def _retire(manager: Any, waiting: dict) -> None:
    """A kernel taken out of its pool (``waiting``: what voila's pool task gave) shut down. It has nothing to save:
    its page's rendering (stopped in the cell that waits for the visitor) is cancelled and told to keep quiet
    (voila would log the kernel's death in that cell as a server error, with a traceback, for every one), and the
    kernel is killed."""
    renderer = waiting["renderer"]
    renderer.log = _RETIRED
    if getattr(renderer, "executor", None) is not None:  # made once its kernel has started
        renderer.executor.log = _RETIRED
    rendering = waiting["task"]
    if rendering.done() and not rendering.cancelled():
        rendering.exception()  # looked at: asyncio would log a failure nobody looked at as an error
    rendering.cancel()
    if waiting["kernel_id"] not in manager:  # it died, and the server's restarter took it off the list
        return
    try:
        await manager.shutdown_kernel(waiting["kernel_id"], now=True)
    except (KeyError, RuntimeError):  # it had died, or was gone (voila's own shutdown_all lets these pass too)
        pass


async def heal_pool(manager: Any, notebook: str | None) -> None:
    """Before voila hands a visitor of ``notebook`` a kernel from its pool (when it keeps pools): the ones that
    can no longer serve a page dropped (:func:`drop_dead`) and others started, which the visitor then waits for
    as for any kernel that is starting."""
    if notebook is None or not manager.get_pool_size(notebook):
        return
    dropped = await drop_dead(manager, notebook)
    if dropped:
        manager.log.warning("combatkit: dropped %d kernel(s) waiting for %s that could no longer serve a page; "
                            "starting new ones", dropped, notebook)
        manager.fill_if_needed(delay=0, notebook_name=notebook)


async def drop_dead(manager: Any, notebook: str) -> int:
    """Take out of ``notebook``'s pool every kernel that can no longer serve a visitor, and return how many: one
    that failed to start, whose process has died (killed, out of memory, or a port taken under it: see
    :func:`kernel_transport`), or whose page's rendering failed. Voila hands out the first kernel of a pool without
    asking, and its visitor got a page cut off before its first widget; kernels still starting are left to
    start."""
    pool = voila_pool(manager, notebook)
    dropped = 0
    for task in list(pool):
        if not task.done():
            continue
        if task.cancelled() or task.exception() is not None:
            pool.remove(task)
            dropped += 1
            continue
        waiting = task.result()
        rendering, kernel = waiting["task"], waiting["kernel_id"]
        failed = rendering.done() and (rendering.cancelled() or rendering.exception() is not None)
        if failed or kernel not in manager or not await ensure_async(manager.get_kernel(kernel).is_alive()):
            if task not in pool:  # another visitor took it while its process was asked after
                continue
            pool.remove(task)
            await _retire(manager, waiting)
            dropped += 1
    return dropped


async def renew_and_say(manager: Any, say: Callable[[str], None] = _say) -> None:
    """:func:`renew_pools`, and one line in the console on how it went (never a task's traceback)."""
    try:
        renewed = await renew_pools(manager)
    except Exception as error:  # noqa: BLE001
        say(f"engine: the kernels waiting for visitors were not restarted ({error!r}); pages opened once they "
            "are used up run the compiled engine")
    else:
        say(f"engine: {renewed} waiting kernels restarted on the compiled engine")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m combatkit.widgets.app.serve", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv), parser.prog)


def cell_timeout(seconds: int) -> Callable[[Any], int | None]:
    """The time limit of a dashboard cell (voila's ``VoilaExecutor.timeout_func``): ``seconds``, except
    for the cell that calls ``get_query_string()``, which has none.

    In a preheated kernel that cell waits for a visitor (voila passes it the page's query string
    then), which may be hours away; with a time limit, voila gave up on it after ``seconds`` and
    every later visitor got a page without its dashboard. The other cells keep the limit.
    """
    def timeout(cell: Any) -> int | None:
        code = (line.split("#", 1)[0] for line in cell.source.splitlines())  # a comment naming it does not count
        return None if any("get_query_string(" in line for line in code) else seconds

    return timeout


def _app_class(timeout: int = ServeSettings.timeout, lessons: Path | None = None,
               preheat_lessons: tuple[str, ...] = (), build: compiled.Build | None = None) -> type:
    """Voila, with the landing page's ``combatkit_landing()`` in its templates' globals, :func:`cell_timeout`
    as its cells' time limit, the ``lessons`` folder (if any) served under ``learn/``, and pages that
    set the ``_xsrf`` cookie.

    A voila page, when left, asks the server to shut its kernel down (a beacon carrying the ``_xsrf``
    cookie). Voila's page handler never sets that cookie; only the landing page does. A visitor who
    opened a shared link straight away, then followed a link to a lesson, got a refused request (403,
    a console error) and left a kernel running until culled; every page now sets it. A page whose kernel died
    (the template then says so) asks too, when reloaded or left: the kernel is already off the server's list,
    and the answer is that it is shut down, not a 404 (a console error).
    """
    from voila.app import Voila
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.tornado.handler import TornadoVoilaHandler

    class CombatkitPage(TornadoVoilaHandler):
        async def get(self, path: str | None = None) -> None:
            self.xsrf_token  # noqa: B018 (reading it sets the cookie, before the page starts streaming)
            await heal_pool(self.kernel_manager, self.notebook_path or path)
            await super().get(path)

    class CombatkitShutdown(VoilaShutdownKernelHandler):
        async def post(self, kernel_id: str) -> None:
            if kernel_id in self.kernel_manager:
                await super().post(kernel_id)
                return
            self.set_status(204)  # it died, and the server took it off its list: it is shut down, as asked
            self.finish()

    mine = {TornadoVoilaHandler: CombatkitPage, VoilaShutdownKernelHandler: CombatkitShutdown}

    class CombatkitVoila(Voila):
        def init_handlers(self) -> list:
            return [(route[0], mine.get(route[1], route[1]), *route[2:]) for route in super().init_handlers()]

        def init_settings(self) -> dict:
            folder = Path(self.root_dir)
            self.voila_configuration.multi_kernel_manager_class = _kernels_class(
                self.voila_configuration.multi_kernel_manager_class, lessons)
            settings = super().init_settings()
            # voila makes a plain file manager; renderers (preheated ones too) read it from here when they run
            self.contents_manager = settings["contents_manager"] = _contents_class()(
                parent=self, root_dir=str(folder), lessons=lessons)
            settings["voila_jinja2_env"].globals["combatkit_landing"] = lambda: landing(folder, lessons)
            self.config.VoilaExecutor.timeout_func = cell_timeout(timeout)  # read by each executor voila makes
            if hasattr(self.kernel_manager, "fill_if_needed"):  # voila fills the pools of its root's notebooks only
                for lesson in preheat_lessons:
                    self.kernel_manager.fill_if_needed(delay=0, notebook_name=f"{LEARN}/{lesson}")
                if build is not None:
                    self._watch_build(build)
            return settings

        def _watch_build(self, build: compiled.Build) -> None:
            """Once ``build`` is ready, restart the kernels waiting for a visitor on the compiled engine."""
            from tornado.ioloop import PeriodicCallback

            def check() -> None:
                if build.finished.is_set():
                    watch.stop()
                    if build.site is not None:  # the loop keeps a weak reference to a task only: kept here
                        self.combatkit_renewal = asyncio.ensure_future(renew_and_say(self.kernel_manager))

            watch = PeriodicCallback(check, 1000)
            watch.start()

    return CombatkitVoila


def _inside(path: str, folder: str) -> str | None:
    """``path`` (a URL path) relative to ``folder``, or None when it is not inside it.

    >>> _inside("learn/mana_teaching.ipynb", "learn"), _inside("/learn", "learn"), _inside("learning.ipynb", "learn")
    ('mana_teaching.ipynb', '', None)
    """
    path = path.strip("/")
    return path[len(folder):].lstrip("/") if path == folder or path.startswith(folder + "/") else None


def _contents_class() -> type:
    """jupyter_server's file manager (the one voila uses) for the dashboards folder at the root, with the
    lessons folder mounted under ``learn/`` (read only: voila never writes), and each notebook it loads
    marked for the template: ``show_code`` on a lesson, ``see_also`` on a notebook with a companion."""
    from jupyter_server.services.contents.largefilemanager import LargeFileManager

    class Files(LargeFileManager):
        def mark_trusted_cells(self, nb: Any, path: str = "") -> None:
            """As jupyter_server marks a notebook's cells, without its warning for each unsigned one: voila shows
            the outputs of its own run, and the served notebooks keep none (a test holds them to that), so trust
            changes nothing in them; the warning was ten lines in the console at every start."""
            self.notary.mark_cells(nb, self.notary.check_signature(nb))

    class CombatkitContents(Files):
        def __init__(self, *, lessons: Path | None = None, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.lessons = Files(parent=self.parent, root_dir=str(lessons)) if lessons else None
            self.lessons_dir = lessons

        def _lesson(self, path: str) -> str | None:
            return None if self.lessons is None else _inside(path, LEARN)

        def get(self, path: str, content: bool = True, type: str | None = None, format: str | None = None,
                **kwargs: Any) -> dict:
            inner = self._lesson(path)
            if inner is None:
                model = super().get(path, content=content, type=type, format=format, **kwargs)
            else:
                model = self.lessons.get(inner, content=content, type=type, format=format, **kwargs)
                model["path"] = f"{LEARN}/{model['path']}".rstrip("/")
                if model["type"] == "directory" and model.get("content"):
                    for child in model["content"]:
                        child["path"] = f"{LEARN}/{child['path']}"
            if model["type"] == "notebook" and model.get("content") is not None:
                self._mark(model["path"], model["content"].metadata, lesson=inner is not None)
            return model

        def _mark(self, path: str, metadata: dict, *, lesson: bool) -> None:
            marks = metadata.setdefault("combatkit", {})
            if lesson:
                marks.setdefault("show_code", True)
                if installed(self.lessons_dir):  # the lessons to change are a copy, made by `combatkit lessons`
                    marks["copy"] = f"combatkit lessons {LESSONS_COPY}"
                    marks["file"] = f"{LESSONS_COPY}/{_inside(path, LEARN)}"
                else:
                    marks["file"] = f"{self.lessons_dir.name}/{_inside(path, LEARN)}"
            served = landing(Path(self.root_dir), self.lessons_dir)
            card = served.card(path)
            companion = served.card(card.companion) if card and card.companion else None
            if companion:
                kind = "dashboard" if _inside(companion.path, LEARN) is None else "lesson"
                marks["see_also"] = {"path": companion.path, "title": companion.title, "kind": kind}

        def file_exists(self, path: str = "") -> bool:
            inner = self._lesson(path)
            return super().file_exists(path) if inner is None else self.lessons.file_exists(inner)

        def dir_exists(self, path: str) -> bool:
            inner = self._lesson(path)
            return super().dir_exists(path) if inner is None else self.lessons.dir_exists(inner)

        def is_hidden(self, path: str) -> bool:
            inner = self._lesson(path)
            return super().is_hidden(path) if inner is None else self.lessons.is_hidden(inner)

    return CombatkitContents


def _kernels_class(base: type, lessons: Path | None) -> type:
    """``base`` (voila's multi-kernel manager class), starting a lesson's kernel in the lessons folder
    (voila asks for ``learn/``, which is not a folder of the dashboards), with a culler that passes over a
    kernel already gone or going, and a server that kills its kernels when it stops.

    The culler lists the kernels, then checks them one by one, waiting for each one it shuts down. A
    kernel shut down meanwhile (its page left: voila's beacon; a visit that took a preheated kernel)
    was still on its list, and jupyter_server's check of it raised ``KeyError``, a traceback in the
    log. A kernel just started is listed before jupyter_server marks its last activity, and a check
    between the two raised ``TraitError``; it has not been idle, so it is passed over too. Which kernels
    are being shut down, the manager notes itself (``leaving``), as each shutdown passes through it: the
    server's own record of them is private to jupyter_client. When the server stops, each kernel got a
    shutdown request, and a preheated kernel, waiting for its visitor in the middle of a cell, answered
    with a traceback (``ZMQError``) as its sockets closed under it; a dashboard kernel has nothing to
    save, so they are killed instead.
    """

    class CombatkitKernels(base):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.leaving: set[str] = set()
            """The kernels being shut down."""

        async def cull_kernel_if_idle(self, kernel_id: str) -> None:
            if kernel_id not in self or kernel_id in self.leaving:  # gone, or being shut down
                return
            try:
                self.get_kernel(kernel_id).last_activity
            except TraitError:  # started, not yet marked: jupyter_server marks it once the start returns
                return
            await super().cull_kernel_if_idle(kernel_id)

        async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
            self.leaving.add(kernel_id)
            try:
                await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))
            finally:
                self.leaving.discard(kernel_id)

        async def shutdown_all(self, now: bool = False) -> None:
            self.leaving.update(self.list_kernel_ids())  # jupyter_client shuts them down without shutdown_kernel
            await super().shutdown_all(now=True)

        def cwd_for_path(self, path: str, **kwargs: Any) -> str:
            inner = None if lessons is None else _inside(path, LEARN)
            if inner is None:
                return super().cwd_for_path(path, **kwargs)
            folder = (lessons / inner).resolve()
            return str(folder if folder.is_dir() and folder.is_relative_to(lessons.resolve()) else lessons)

    return CombatkitKernels


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class RunningServer:
    """A dashboard server started by :func:`serving`."""

    url: str
    """Base URL, ``http://127.0.0.1:<port>``."""
    process: subprocess.Popen
    """The server process (leader of its process group); kernels are its children."""


@contextmanager
def serving(dashboards: Path | None = None, *, notebooks: Path | None = None, port: int | None = None,
            pool_size: int = ServeSettings.pool_size,
            preheat: tuple[str, ...] = ServeSettings.preheat, timeout: int = ServeSettings.timeout,
            cull_interval: int = ServeSettings.cull_interval, cull_idle_timeout: int = ServeSettings.cull_idle_timeout,
            log: Path | None = None, engine: str = "pure",
            start_timeout: float = 90) -> Iterator[RunningServer]:
    """Run this module in the background until the block ends; yields the running server.

    For tests, benchmarks and screenshot scripts: the server runs in its own process group
    (voila starts kernels as child processes, and they all stop together at the end), on a
    free port of 127.0.0.1 unless ``port`` is given, writing its log to ``log``. Its kernels run the pure-Python
    engine unless ``engine`` says ``auto`` (:mod:`combatkit.widgets.app.compiled`: a build in the background).

    The server is ready when it listens on its port itself and its tree answers there: not when some other
    server answers on it. A free port can be taken between :func:`free_port` and the server's start (test
    workers start servers side by side); the server then exits, and another free port is tried, up to
    :data:`PORT_TRIES` in all (once, with ``port`` given).
    """
    options = ["--no-browser", "--pool-size", str(pool_size), "--timeout", str(timeout),
               "--cull-interval", str(cull_interval), "--cull-idle-timeout", str(cull_idle_timeout),
               "--engine", engine, "--preheat", *preheat]
    if dashboards is not None:
        options += ["--dashboards", str(dashboards)]
    if notebooks is not None:
        options += ["--notebooks", str(notebooks)]
    deadline = time.monotonic() + start_timeout
    tries = 1 if port is not None else PORT_TRIES
    for attempt in range(tries):
        chosen = port or free_port()
        sink = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 (closed below)
        command = [sys.executable, "-m", "combatkit.widgets.app.serve", "--port", str(chosen), *options]
        server = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{chosen}"
        try:
            if _ready(server, base, chosen, deadline, start_timeout):
                yield RunningServer(base, server)
                return
            if attempt == tries - 1:
                raise RuntimeError(f"the dashboard server exited with code {server.returncode}; "
                                   f"see {log or 'its log'}")
        finally:
            _stop_group(server)
            if log:
                sink.close()


PORT_TRIES = 3
"""Free ports :func:`serving` tries before it gives up on a server that exits as it starts."""


def _ready(server: subprocess.Popen, base: str, port: int, deadline: float, start_timeout: float) -> bool:
    """Wait until ``server`` listens on ``port`` and its tree answers at ``base``: True; False once it has exited."""
    while True:
        if server.poll() is not None:
            return False
        if _listens(server.pid, port):
            try:
                with urllib.request.urlopen(f"{base}/voila/tree", timeout=2) as reply:
                    if reply.status == 200:
                        return True
            except OSError:
                pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"the dashboard server did not answer on {base} within {start_timeout:.0f} s")
        time.sleep(0.2)


def _listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself listens on TCP ``port``."""
    import psutil

    try:
        connections = psutil.Process(pid).net_connections(kind="tcp")
    except psutil.Error:
        return False
    return any(c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port for c in connections)


def _stop_group(server: subprocess.Popen) -> None:
    """Stop the server: SIGTERM to its process group (voila then shuts its kernels down), SIGKILL if it
    lingers. Kernels run in sessions of their own, so any that outlive the server are stopped by id."""
    import psutil

    try:
        kernels = psutil.Process(server.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        kernels = []
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    for kernel in kernels:
        try:
            kernel.kill()
        except psutil.NoSuchProcess:
            pass


if __name__ == "__main__":
    sys.exit(main())
