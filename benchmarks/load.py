"""Load: many people open dashboards at once. Prints numbers, asserts nothing.

    python benchmarks/load.py [--sessions 20] [--browsers 2] [--timeout 240]

Starts the dashboard server on 127.0.0.1 with its production settings (those of
``make dashboards``) and opens ``--sessions`` sessions all at once, spread over six
dashboards (each with a preheated kernel, as every page has), then reports
whether all rendered, the time from the request to the rendered dashboard (median, p90,
max) and the memory each session holds (its kernel's RSS), and the server's.

A session is what a viewer's browser does to the server. ``--browsers`` of them are real
pages in Debian's chromium (a fresh context each), timed until the dashboard's chart is
drawn. The others are protocol clients, because twenty chromium pages on the same two
cores as the server measure chromium more than the server: each fetches the page (voila
runs the notebook in a kernel of its own), opens that kernel's websocket as the page
does, asks for every widget's state the way the widgets manager does when a page loads
(``jupyter.widget.control`` / ``request_states``) and is timed until the state of every
widget the page displays has arrived: all the page needs to draw. Sessions stay open
until every one has rendered or failed, so the kernels are measured while all are alive.
Bounded: each session gets ``--timeout`` seconds, and everything stops with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import re
import statistics
import struct
import sys
import tempfile
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import psutil
from tornado.websocket import websocket_connect

from combatkit.widgets.app.serve import ServeSettings, dashboards_dir, lessons_dir, serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DASHBOARDS = {  # a dashboard and a link into it, and what shows in a browser once it has rendered
    "phase1_timeline.ipynb?seed=3": ".ck-chart svg.marks g.points_marks path",
    "mana.ipynb?class=wizard&level=9": ".ck-mana-pool .ck-chart svg.marks",
    "criticals.ipynb?rules=000-II": ".ck-outcome-chart svg.marks",
    "compare_systems.ipynb?seed=2": ".ck-panel-five_phase .ck-panel-chart svg.marks",
    "segments_timeline.ipynb?seed=4": ".ck-chart svg.marks",
    "encounter_prep.ipynb?fights=50": ".ck-prep",
}
_VIEW = re.compile(r'application/vnd\.jupyter\.widget-view\+json": \{"model_id": "([0-9a-f]+)"')
_KERNEL = re.compile(r'"kernelId": "([0-9a-f-]+)"')


@dataclass
class Session:
    """One viewer: what it opened, how, and how it went."""

    link: str
    browser: bool
    seconds: float | None = None
    """From the request to rendered; None if it never rendered."""
    problem: str = ""


def _message(session_id: str, msg_type: str, content: dict) -> str:
    """A shell message in the kernel websocket's JSON form, in version 1 of the widgets' control protocol."""
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session_id, "username": "load",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "version": "5.3"}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {"version": "1.0.0"}, "content": content,
                       "channel": "shell", "buffers": []})


def _read(frame: str | bytes) -> dict:
    """A message from the kernel websocket: JSON text, or a binary frame (a message with buffers) whose
    first part, after the count and offsets of its parts, is the message's JSON."""
    if isinstance(frame, str):
        return json.loads(frame)
    count = struct.unpack("!I", frame[:4])[0]
    offsets = [*struct.unpack(f"!{count}I", frame[4:4 + 4 * count]), len(frame)]
    return json.loads(frame[offsets[0]:offsets[1]])


async def protocol_session(base: str, session: Session, timeout: float, hold: asyncio.Event) -> None:
    """Fetch the page, then ask its kernel for every widget's state, as the page's widgets manager does."""
    start = time.perf_counter()
    try:
        page = await asyncio.to_thread(lambda: urllib.request.urlopen(f"{base}/voila/render/{session.link}",
                                                                      timeout=timeout).read().decode())
        kernel, views = _KERNEL.search(page), set(_VIEW.findall(page))
        if kernel is None or not views:
            raise RuntimeError(f"the page ({len(page)} characters) holds {'no' if kernel is None else 'a'} kernel and "
                               f"{len(views)} widgets: the notebook did not run (see voila's log)")
        session_id = uuid.uuid4().hex
        socket = await websocket_connect(f"{base.replace('http', 'ws', 1)}/api/kernels/{kernel[1]}/channels"
                                         f"?session_id={session_id}",
                                         connect_timeout=max(1.0, start + timeout - time.perf_counter()))
        comm = uuid.uuid4().hex
        await socket.write_message(_message(session_id, "comm_open", {
            "comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}))
        await socket.write_message(_message(session_id, "comm_msg", {
            "comm_id": comm, "data": {"method": "request_states"}}))
        deadline = start + timeout
        while True:
            text = await asyncio.wait_for(socket.read_message(), max(0.1, deadline - time.perf_counter()))
            if text is None:
                raise RuntimeError("the kernel's websocket closed")
            data = _read(text).get("content", {}).get("data", {})
            if data.get("method") == "update_states":
                missing = views - set(data.get("states", {}))
                if missing:
                    raise RuntimeError(f"{len(missing)} displayed widgets have no state")
                session.seconds = time.perf_counter() - start
                break
        await hold.wait()
        socket.close()
    except Exception as error:  # a session that fails is counted, whatever failed
        session.problem = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


async def browser_session(browser, base: str, session: Session, timeout: float, hold: asyncio.Event) -> None:
    """A fresh chromium context opens the page; rendered once the dashboard's chart shows."""
    context = await browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = await context.new_page()
        start = time.perf_counter()
        await page.goto(f"{base}/voila/render/{session.link}", timeout=timeout * 1000)
        await page.locator(DASHBOARDS[session.link]).first.wait_for(state="visible", timeout=timeout * 1000)
        session.seconds = time.perf_counter() - start
        await hold.wait()
    except Exception as error:
        session.problem = f"{type(error).__name__}: {str(error).splitlines()[0]}"
    finally:
        await context.close()


def _kernels(server_pid: int) -> list[psutil.Process]:
    return [k for k in psutil.Process(server_pid).children(recursive=True)
            if "kernel" in " ".join(k.cmdline()[1:4])]


async def run(base: str, sessions: list[Session], timeout: float, server_pid: int) -> None:
    # a thread per session for its page request (and for tornado's resolver): all requests go out at once
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=len(sessions) + 4))
    hold = asyncio.Event()
    browsers = [s for s in sessions if s.browser]
    playwright = browser = None
    if browsers:
        from playwright.async_api import async_playwright

        playwright = await async_playwright().start()
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
    start = time.perf_counter()
    tasks = [asyncio.ensure_future(browser_session(browser, base, s, timeout, hold) if s.browser
                                   else protocol_session(base, s, timeout, hold)) for s in sessions]
    while not all(s.seconds is not None or s.problem for s in sessions):
        await asyncio.sleep(0.2)
    wall = time.perf_counter() - start
    kernels = _kernels(server_pid)
    rss = sorted(k.memory_info().rss / 2**20 for k in kernels)
    server_rss = psutil.Process(server_pid).memory_info().rss / 2**20
    hold.set()
    await asyncio.gather(*tasks)
    if browser is not None:
        await browser.close()
        await playwright.stop()
    report(sessions, wall, rss, server_rss)


def _times(values: list[float]) -> str:
    values = sorted(values)
    p90 = statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]
    return f"median {statistics.median(values):.1f} s, p90 {p90:.1f} s, max {values[-1]:.1f} s"


def report(sessions: list[Session], wall: float, rss: list[float], server_rss: float) -> None:
    done = [s for s in sessions if s.seconds is not None]
    verdict = "all rendered" if len(done) == len(sessions) else f"{len(sessions) - len(done)} FAILED"
    print(f"{len(done)}/{len(sessions)} sessions rendered ({verdict}); the last after {wall:.1f} s")
    for kind, browser in (("protocol clients", False), ("chromium pages", True)):
        mine = [s for s in sessions if s.browser is browser]
        times = [s.seconds for s in mine if s.seconds is not None]
        if mine:
            print(f"  {kind}: {len(times)}/{len(mine)} rendered" + (f"; time to rendered {_times(times)}" if times
                                                                   else ""))
    for link in DASHBOARDS:
        times = [s.seconds for s in sessions if s.link == link and s.seconds is not None]
        if times:
            print(f"  {link.split('?')[0]:28} {len(times)} rendered, {_times(times)}")
    for s in sessions:
        if s.problem:
            print(f"  failed: {'chromium' if s.browser else 'protocol'} {s.link}: {s.problem}")
    if rss:
        print(f"memory: {len(rss)} kernels alive (one per session, plus preheated spares); RSS per kernel median "
              f"{statistics.median(rss):.0f} MiB, max {rss[-1]:.0f} MiB, total {sum(rss):.0f} MiB; "
              f"voila server {server_rss:.0f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20, help="sessions opened at once (default 20, at most 40)")
    parser.add_argument("--browsers", type=int, default=2,
                        help="how many of them are chromium pages (default 2; the rest are protocol clients)")
    parser.add_argument("--timeout", type=float, default=240, help="seconds each session may take (default 240)")
    parser.add_argument("--log", type=Path, help="keep voila's log in this file (default: a temporary one)")
    args = parser.parse_args()
    count = max(1, min(args.sessions, 40))
    browsers = max(0, min(args.browsers, count)) if Path(CHROMIUM).exists() else 0
    if args.browsers and not browsers:
        print(f"{CHROMIUM} is not installed: protocol clients only")
    links = list(DASHBOARDS)
    sessions = [Session(links[n % len(links)], browser=n < browsers) for n in range(count)]
    settings = ServeSettings()
    with tempfile.TemporaryDirectory() as tmp, serving(log=args.log or Path(tmp) / "voila.log") as server:
        log = args.log or Path(tmp) / "voila.log"
        pages = len(list(dashboards_dir().glob("*.ipynb"))) + len(list(lessons_dir().glob("*.ipynb")))
        deadline = time.monotonic() + 300  # every page's kernel waits ready, as on a server that has been up a while
        while log.read_text(errors="replace").count("is filled with") < pages and time.monotonic() < deadline:
            time.sleep(1)
        time.sleep(10)  # and has run its notebook up to get_query_string()
        print(f"{count} concurrent sessions ({browsers} in chromium) on {server.url}, {psutil.cpu_count()} CPUs; "
              f"preheated: {', '.join(settings.preheat) or 'every dashboard and lesson'} (pool {settings.pool_size}); "
              f"cell time limit {settings.timeout} s", flush=True)
        asyncio.run(run(server.url, sessions, args.timeout, server.process.pid))
        problems = [line for line in (args.log or Path(tmp) / "voila.log").read_text().splitlines() if "ERROR" in line]
        if problems:
            print(f"voila logged {len(problems)} errors, first: {problems[0][:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
