"""First visits: time from navigation to the first drawn chart, for every dashboard and lesson. Prints
numbers, asserts nothing.

    python benchmarks/first_chart.py [--runs 5] [--pages NAME ...] [--pool-size N] [--preheat NOTEBOOK ...]

Starts the dashboard server with the settings of ``make dashboards`` (or the preheat options given) and
opens each page in a fresh chromium context, one page at a time on an idle machine: before each visit it
waits until every kernel pool is full and no kernel uses the CPU, so each number is a first visit as a
lone visitor sees it. Timed from ``page.goto`` to the first chart's SVG marks being visible
(encounter prep draws none until Run is pressed: its view). Leaving the page shuts its kernel down (voila's beacon), as a
visitor's browser does. Pages are visited in turn, run after run, so a busy moment of the machine hits
every page. Ends with the memory of the kernels waiting for visitors (RSS and USS), the memory plan.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import psutil

from combatkit.widgets.app.landing import LEARN
from combatkit.widgets.app.serve import ServeSettings, dashboards_dir, lessons_dir, serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
FIRST_CHART = "svg.marks:visible"
"""vega-embed's SVG root: the first chart on the page, drawn (not one in a closed tab)."""
NO_CHART_YET = {"encounter_prep.ipynb": ".ck-prep"}
"""Pages that draw no chart until asked (Run), and what shows when they have rendered."""


def kernels(server) -> list[psutil.Process]:
    found = []
    for k in psutil.Process(server.process.pid).children(recursive=True):
        try:
            if "kernel" in " ".join(k.cmdline()[1:4]):
                found.append(k)
        except psutil.Error:  # a kernel that just ended
            pass
    return found


def wait_until_idle(server, log: Path, pools: int, timeout: float = 180) -> None:
    """Until every preheated pool has been filled at least once since the last visit took its kernel and
    the kernels have used under 5% of a core for 1.5 s."""
    deadline = time.monotonic() + timeout
    while log.read_text(errors="replace").count("is filled with") < pools:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the kernel pools were not filled within {timeout:.0f} s")
        time.sleep(0.2)
    quiet = 0
    while quiet < 5 and time.monotonic() < deadline:
        running = kernels(server)
        for k in running:
            try:
                k.cpu_percent(None)
            except psutil.NoSuchProcess:
                pass
        time.sleep(0.3)
        busy = 0.0
        for k in running:
            try:
                busy += k.cpu_percent(None)
            except psutil.NoSuchProcess:
                pass
        quiet = quiet + 1 if busy < 5 else 0


def settle(server, log: Path) -> int:
    """Wait until the pools voila fills at start are full and idle; returns how many there are."""
    start = time.monotonic()
    filled, since = -1, time.monotonic()
    while time.monotonic() - since < 5:
        now = log.read_text(errors="replace").count("is filled with")
        if now != filled:
            filled, since = now, time.monotonic()
        time.sleep(0.5)
    wait_until_idle(server, log, filled)
    print(f"{filled} kernel pools: the last filled {since - start:.0f} s after the server answered, all idle "
          f"(their notebooks run up to the visitor) after {time.monotonic() - start - 1.5:.0f} s", flush=True)
    return filled


def first_chart(browser, url: str, selector: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.locator(selector).first.wait_for(state="visible", timeout=90_000)
    elapsed = time.perf_counter() - start
    page.close(run_before_unload=True)  # voila's beacon shuts the page's kernel down, as leaving does
    context.close()
    return elapsed


def memory(server) -> tuple[int, float, float]:
    """Kernels alive, their total RSS and total USS (MiB)."""
    rss = uss = 0.0
    alive = kernels(server)
    for k in alive:
        try:
            info = k.memory_full_info()
        except psutil.Error:
            continue
        rss, uss = rss + info.rss / 2**20, uss + info.uss / 2**20
    return len(alive), rss, uss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="visits of each page (default 5)")
    parser.add_argument("--pages", nargs="*", default=[], help="only pages whose path contains one of these")
    parser.add_argument("--pool-size", type=int, default=ServeSettings.pool_size)
    parser.add_argument("--preheat", nargs="*", default=None, metavar="NOTEBOOK",
                        help="as combatkit serve --preheat (default: its default)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"skipped: {CHROMIUM} is not installed")
        return 0
    from playwright.sync_api import sync_playwright

    pages = [p.name for p in sorted(dashboards_dir().glob("*.ipynb"))]
    pages += [f"{LEARN}/{p.name}" for p in sorted(lessons_dir().glob("*.ipynb"))]
    if args.pages:
        pages = [p for p in pages if any(word in p for word in args.pages)]
    options = {} if args.preheat is None else {"preheat": tuple(args.preheat)}
    log = Path("artifacts") / "voila-first-chart.log"
    log.parent.mkdir(exist_ok=True)
    load = os.getloadavg()[0]
    with sync_playwright() as p, serving(pool_size=args.pool_size, log=log, **options) as server:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        pools = settle(server, log)  # the pools voila fills at start
        times: dict[str, list[float]] = {page: [] for page in pages}
        for _ in range(args.runs):
            for page in pages:
                wait_until_idle(server, log, pools)
                before = log.read_text(errors="replace").count("Using pre-heated kernel")
                selector = NO_CHART_YET.get(page, FIRST_CHART)
                times[page].append(first_chart(browser, f"{server.url}/voila/render/{page}", selector))
                pools += log.read_text(errors="replace").count("Using pre-heated kernel") - before  # refills to come
        wait_until_idle(server, log, pools)
        alive, rss, uss = memory(server)
        browser.close()
    print(f"time from navigation to the first chart, median of {args.runs} first visits "
          f"({psutil.cpu_count()} CPUs, one page at a time; load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after):")
    for page, values in times.items():
        verdict = "ok" if statistics.median(values) <= 3.0 else "MISSED"
        note = "  (no chart before Run: the view)" if page in NO_CHART_YET else ""
        print(f"    {page:<40} {statistics.median(values):5.2f} s  (target <= 3 s: {verdict})   "
              + " ".join(f"{t:.2f}" for t in values) + note)
    every = [statistics.median(v) for v in times.values()]
    print(f"    slowest page's median {max(every):.2f} s, fastest {min(every):.2f} s")
    print(f"kernels waiting for visitors: {alive}, RSS {rss:.0f} MiB in all ({rss / max(alive, 1):.0f} MiB each), "
          f"USS {uss:.0f} MiB in all ({uss / max(alive, 1):.0f} MiB each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
