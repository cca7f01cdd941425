"""UI benchmarks: print numbers next to their targets, assert nothing (machines are noisy).

    python benchmarks/ui.py [--runs N]

1. Python: a control change in TimelineExplorer to the new chart spec (target <= 30 ms); a timeline widget and
   the six-system comparison opened afresh in a kernel that has drawn one already, as a lesson's later cells and
   tests open them (target <= 1 s). With no event loop running, the comparison works its exact odds out before it
   is shown (in a dashboard they are worked out in threads, up to a few seconds before the page is sent). The
   comparison switched down its example list, each example new to the kernel (target <= 1 s).
2. Browser: a control change in the served dashboard to the redrawn SVG (target <= 150 ms).
3. Time from navigation to a rendered dashboard, as a ratio to a bare voila notebook served
   by the same server in the same run (target <= 1.3x).
4. Memory (RSS) of a dashboard kernel (target <= 200 MiB).

Needs Debian's chromium at /usr/bin/chromium for 2-4.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from combatkit.widgets.app.serve import MAIN_DASHBOARD, dashboards_dir, serving
from combatkit.widgets.views.timeline import TimelineExplorer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BARE = "bare.ipynb"
EXAMPLE = "fighter-and-mage-vs-orc-archer"
POINTS = {"attack": 4, "misc": 3}  # chart points with Brienne's phase 2 attack, and without it


def report(name: str, value: float, unit: str, target: float, extra: str = "") -> None:
    verdict = "ok" if value <= target else "MISSED"
    print(f"{name:<48} {value:8.1f} {unit:<4} (target <= {target:g} {unit}: {verdict}){extra}", flush=True)


def python_redraw(runs: int) -> None:
    explorer = TimelineExplorer(EXAMPLE)
    action = explorer.phases[1].action  # Brienne, phase 2
    times = []
    for i in range(runs):
        before = explorer.chart.spec
        start = time.perf_counter()
        action.value = "misc" if i % 2 == 0 else "attack"
        json.dumps(explorer.chart.spec)  # what the kernel then encodes for the front end
        times.append((time.perf_counter() - start) * 1e3)
        assert explorer.chart.spec is not before
    report("python: control change -> new chart spec (median)", statistics.median(times), "ms", 30,
           f"  p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, n={runs}")


def python_open(runs: int) -> None:
    from combatkit.widgets.views.compare import SystemComparison
    from combatkit.widgets.views.system_timeline import SystemTimeline

    for name, make in (("TimelineExplorer", lambda: TimelineExplorer(EXAMPLE)),
                       ("SystemTimeline (five-phase)", lambda: SystemTimeline("five_phase")),
                       ("SystemComparison (with its odds)", lambda: SystemComparison(EXAMPLE))):
        make()  # the first one in a kernel builds each chart's shape once (cached)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            make()
            times.append(time.perf_counter() - start)
        report(f"python: {name} opens (median)", statistics.median(times) * 1e3, "ms", 1000,
               f"  max {max(times) * 1e3:.0f} ms, n={runs}")


def python_switch() -> None:
    """The comparison's example list, as a visitor goes down it: each example new to the kernel (its six panels'
    chart shapes not drawn yet). Timed is the change of the list until the six panels and the heading are set;
    the exact odds go on in threads after it, as in a dashboard (an event loop runs)."""
    import asyncio

    from combatkit.widgets.views.compare import SystemComparison
    from combatkit.widgets.views.encounter_picker import example_options

    async def down_the_list() -> list[float]:
        comparison = SystemComparison()
        times = []
        for _, name in example_options():
            start = time.perf_counter()
            comparison.picker.open_example(name)
            times.append(time.perf_counter() - start)
            while comparison.jobs.pending:  # its odds done before the next, so that they do not share a core
                await asyncio.sleep(0.02)
        return times

    times = asyncio.run(down_the_list())
    report("python: comparison switches to a new example (median)", statistics.median(times) * 1e3, "ms", 1000,
           f"  max {max(times) * 1e3:.0f} ms, n={len(times)}")


def notebook(*sources: str) -> nbformat.NotebookNode:
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources],
                                    metadata={"kernelspec": kernel})


# The baseline the target names, then two that show where a dashboard's extra time goes:
# any widget at all (voila's widget manager, a kernel connection), and one chart (the vega bundle).
BASELINES = {
    BARE: (notebook('print("bare notebook ready")'), ".jp-OutputArea-output pre", 1),
    "one_widget.ipynb": (notebook('import ipywidgets\nipywidgets.HTML("one widget").add_class("ck-one")'),
                         ".ck-one", 1),
    "one_chart.ipynb": (notebook("import altair as alt\nfrom combatkit.widgets.charts.render import chart_view\n"
                                 'chart_view(alt.Chart(alt.Data(values=[{"a": 1}])).mark_point().encode(x="a:Q"),'
                                 ' embed_options={"renderer": "svg"}).add_class("ck-one")'),
                        ".ck-one svg.marks g.mark-symbol path", 1),
}


def pool_fills(log: Path, notebook: str) -> int:
    return log.read_text(errors="replace").count(f"Kernel pool of {notebook} is filled")


def wait_for_pool(server, log: Path, notebook: str, count: int, timeout: float = 90) -> None:
    """Wait until ``notebook``'s preheated pool has been filled ``count`` times (voila logs each fill when
    the kernel is up) and every kernel is idle again, i.e. the spare has run the notebook up to
    ``get_query_string()`` and waits for a visitor."""
    import psutil

    deadline = time.monotonic() + timeout
    while pool_fills(log, notebook) < count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the kernel pool of {notebook} was not refilled within {timeout:.0f} s")
        time.sleep(0.1)
    quiet = 0
    while quiet < 3 and time.monotonic() < deadline:
        kernels = [k for k in psutil.Process(server.process.pid).children(recursive=True)
                   if "kernel" in " ".join(k.cmdline()[1:4])]
        for k in kernels:
            k.cpu_percent(None)
        time.sleep(0.3)
        busy = sum(k.cpu_percent(None) for k in kernels)
        quiet = quiet + 1 if busy < 5 else 0


def time_to_render(browser, url: str, selector: str, count: int) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.locator(selector).nth(count - 1).wait_for(state="visible", timeout=90_000)
    elapsed = time.perf_counter() - start
    context.close()
    return elapsed


REDRAW_JS = """async ([value, expected]) => {
    const select = document.querySelector('.ck-phase-2 .ck-action select');
    const chart = document.querySelector('.ck-chart');
    const count = () => chart.querySelectorAll('svg g.points_marks path').length;
    return await new Promise(resolve => {
        const start = performance.now();
        const observer = new MutationObserver(() => {
            if (count() === expected) {
                observer.disconnect();
                requestAnimationFrame(() => resolve(performance.now() - start));
            }
        });
        observer.observe(chart, {childList: true, subtree: true});
        select.value = value;
        select.dispatchEvent(new Event('change', {bubbles: true}));
    });
}"""


def browser_redraw(page, url: str, runs: int) -> None:
    page.goto(url)
    page.locator(".ck-chart svg g.points_marks path").nth(POINTS["attack"] - 1).wait_for(timeout=90_000)
    times = [page.evaluate(REDRAW_JS, [value, POINTS[value]]) for value in (["misc", "attack"] * runs)[:runs]]
    report("browser: control change -> redrawn SVG (median)", statistics.median(times), "ms", 150,
           f"  p90 {statistics.quantiles(times, n=10)[-1]:.0f} ms, n={runs}")


def kernel_memory(server) -> None:
    """RSS of each dashboard kernel: the one that served the open page (after the redraws) and the
    preheated spare, which voila started last."""
    import psutil

    kernels = sorted((k for k in psutil.Process(server.process.pid).children(recursive=True)
                      if "kernel" in " ".join(k.cmdline()[1:4])), key=lambda k: k.create_time())
    for n, kernel in enumerate(kernels):
        role = "preheated spare" if n == len(kernels) - 1 else "served the page"
        info = kernel.memory_full_info()
        report(f"memory: dashboard kernel RSS ({role})", info.rss / 2**20, "MiB", 200,
               f"  USS {info.uss / 2**20:.0f} MiB (not shared with other processes)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads of each notebook (default 5)")
    args = parser.parse_args()

    python_redraw(runs=60)
    python_open(runs=5)
    python_switch()
    if not Path(CHROMIUM).exists():
        print(f"browser benchmarks skipped: {CHROMIUM} is not installed")
        return 0
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        folder = Path(tmp) / "served"
        folder.mkdir()
        shutil.copy(dashboards_dir() / MAIN_DASHBOARD, folder / MAIN_DASHBOARD)
        pages = {MAIN_DASHBOARD: (".ck-chart svg g.points_marks path", POINTS["attack"])}
        for name, (nb, selector, count) in BASELINES.items():
            nbformat.write(nb, folder / name)
            pages[name] = (selector, count)
        log = Path(tmp) / "voila.log"
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        with serving(folder, preheat=(), log=log) as server:  # every notebook here gets a waiting kernel
            loads: dict[str, list[float]] = {name: [] for name in pages}
            for _ in range(args.runs):  # interleaved, so a busy moment on the machine hits every notebook
                for name, (selector, count) in pages.items():
                    wait_for_pool(server, log, name, count=1 + len(loads[name]))  # a preheated kernel is waiting
                    loads[name].append(time_to_render(browser, f"{server.url}/voila/render/{name}", selector, count))
        medians = {name: statistics.median(times) for name, times in loads.items()}
        print(f"time from navigation to visible content, median of {args.runs} cold page loads (preheated kernels):")
        for name, times in loads.items():
            print(f"    {name:<24} {medians[name]:5.2f} s   {' '.join(f'{t:.2f}' for t in times)}")
        report("page load: dashboard / bare voila notebook", medians[MAIN_DASHBOARD] / medians[BARE], "x", 1.3)
        for name in ("one_widget.ipynb", "one_chart.ipynb"):
            print(f"    dashboard / {name:<20} {medians[MAIN_DASHBOARD] / medians[name]:5.2f} x")

        alone = Path(tmp) / "dashboard"
        alone.mkdir()
        shutil.copy(dashboards_dir() / MAIN_DASHBOARD, alone / MAIN_DASHBOARD)
        log = Path(tmp) / "voila-dashboard.log"
        with serving(alone, preheat=(), log=log) as server:  # only this dashboard: every kernel is one of its kernels
            wait_for_pool(server, log, MAIN_DASHBOARD, count=1)
            context = browser.new_context(viewport={"width": 1280, "height": 1400})
            page = context.new_page()
            browser_redraw(page, f"{server.url}/voila/render/{MAIN_DASHBOARD}", runs=20)
            wait_for_pool(server, log, MAIN_DASHBOARD, count=2)
            kernel_memory(server)
            context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
