"""Load: many people open dashboards at once. Prints numbers, asserts nothing.

    python benchmarks/load.py [--sessions 20] [--timeout 300]

Starts the dashboard server on 127.0.0.1 (production settings, one preheated kernel per
dashboard), then opens ``--sessions`` pages in Debian's chromium all at once, spread over the
three committed dashboards, each with its own browser context (own cache, own kernel), and
reports how many rendered, the time from navigation to the rendered dashboard (median, p90,
max), and the memory of the kernels serving them (RSS each, and the server's). Bounded: each
page gets ``--timeout`` seconds, and everything stops with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

from combatkit.widgets.serve import serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RENDERED = {  # a dashboard, and what shows once it has rendered: its chart's marks
    "phase1_timeline.ipynb?seed=3": ".ck-chart svg.marks g.points_marks path",
    "mana.ipynb?class=wizard&level=9": ".ck-mana-pool .ck-chart svg.marks",
    "criticals.ipynb?rules=000-II": ".ck-outcome-chart svg.marks",
}


async def session(browser, url: str, selector: str, timeout: float) -> float | None:
    """Seconds from navigation to ``selector`` visible on a fresh page, or None if it never showed."""
    context = await browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = await context.new_page()
        start = time.perf_counter()
        await page.goto(url, timeout=timeout * 1000)
        await page.locator(selector).first.wait_for(state="visible", timeout=timeout * 1000)
        elapsed = time.perf_counter() - start
        await page.wait_for_timeout(1000)  # keep the page (and its kernel) open while the others load
        return elapsed
    except Exception as error:  # a page that fails is counted, whatever failed
        print(f"    failed: {url}: {type(error).__name__}: {str(error).splitlines()[0]}", flush=True)
        return None


async def run(base: str, sessions: int, timeout: float, server_pid: int) -> None:
    from playwright.async_api import async_playwright

    pages = list(RENDERED.items())
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        start = time.perf_counter()
        times = await asyncio.gather(*(
            session(browser, f"{base}/voila/render/{pages[n % len(pages)][0]}", pages[n % len(pages)][1], timeout)
            for n in range(sessions)))
        wall = time.perf_counter() - start
        kernels = [k for k in psutil.Process(server_pid).children(recursive=True)
                   if "ipykernel_launcher" in " ".join(k.cmdline())]
        rss = sorted(k.memory_info().rss / 2**20 for k in kernels)
        server_rss = psutil.Process(server_pid).memory_info().rss / 2**20
        await browser.close()
    done = sorted(t for t in times if t is not None)
    print(f"{len(done)}/{sessions} sessions rendered ({sessions - len(done)} failed) in {wall:.1f} s of wall time")
    if done:
        p90 = statistics.quantiles(done, n=10)[-1] if len(done) > 1 else done[0]
        print(f"time to rendered: median {statistics.median(done):.1f} s, p90 {p90:.1f} s, "
              f"min {done[0]:.1f} s, max {done[-1]:.1f} s")
    if rss:
        print(f"kernels alive: {len(rss)} (sessions plus preheated spares); RSS per kernel: median "
              f"{statistics.median(rss):.0f} MiB, max {rss[-1]:.0f} MiB, total {sum(rss):.0f} MiB")
    print(f"voila server RSS: {server_rss:.0f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20, help="pages opened at once (default 20, at most 40)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds each page may take (default 300)")
    args = parser.parse_args()
    sessions = max(1, min(args.sessions, 40))
    if not Path(CHROMIUM).exists():
        print(f"load benchmark skipped: {CHROMIUM} is not installed")
        return 0
    with tempfile.TemporaryDirectory() as tmp, serving(log=Path(tmp) / "voila.log") as server:
        time.sleep(20)  # let the preheated kernels (one per dashboard) finish starting
        print(f"{sessions} concurrent sessions on {server.url}, {psutil.cpu_count()} CPUs", flush=True)
        asyncio.run(run(server.url, sessions, args.timeout, server.process.pid))
    return 0


if __name__ == "__main__":
    sys.exit(main())
