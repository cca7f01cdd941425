"""The README is the front door and ``docs/`` the rooms (#47): a short README that links every page of ``docs/``,
relative links that lead to a file and a heading that exist, a quick start that runs and prints what it shows, and an
example system in docs/architecture.md that registers and plays. The counts of pages, dashboards and lessons in the
README and the docs are the tree's (#45 item 11)."""

import contextlib
import importlib.util
import io
import re
import sys
from pathlib import Path

import pytest

from combatkit import find_system, load_example
from combatkit.fight import run_fight
from combatkit.systems import SYSTEMS

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = len(list((ROOT / "dashboards").glob("*.ipynb")))
LESSONS = len(list((ROOT / "notebooks").glob("*.ipynb")))
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS, *sorted((ROOT / "benchmarks").glob("*.md"))]
"""Every page of prose the project keeps: the README, docs/ and the benchmarks' record."""
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _prose(page: Path) -> str:
    """The page without its fenced code blocks."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens, a repeated
    one numbered."""
    anchors: set[str] = set()
    for line in _prose(page).splitlines():
        if line.startswith("#"):
            slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
            anchor, n = slug, 1
            while anchor in anchors:
                anchor, n = f"{slug}-{n}", n + 1
            anchors.add(anchor)
    return anchors


def test_the_readme_is_a_front_page_that_links_every_page_of_the_docs():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    linked = {(ROOT / target.split("#")[0]).resolve() for target in LINK.findall(_prose(README))}
    assert DOCS and [page.name for page in DOCS if page.resolve() not in linked] == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading(page):
    for target in LINK.findall(_prose(page)):
        if re.match(r"[a-z]+:", target):
            continue  # https://..., mailto:...
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        assert destination.exists(), f"{target}: no such file"
        if anchor:
            assert anchor in _anchors(destination), f"{target}: no such heading in {destination.name}"


def test_the_quick_start_runs_and_prints_what_it_shows():
    code, shown = re.search(r"## Quick start.*?```python\n(.*?)```\s*```\n(.*?)```", README.read_text(encoding="utf-8"),
                            re.S).groups()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md: Quick start", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert [line for line in shown.splitlines() if line != "..." and line not in lines] == []


def test_the_example_system_of_the_architecture_page_registers_and_plays(tmp_path):
    code = re.search(r"## How to add a timing system.*?```python\n(.*?)```",
                     (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"), re.S).group(1)
    (tmp_path / "toy_from_the_docs.py").write_text(code, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("toy_from_the_docs", tmp_path / "toy_from_the_docs.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclass looks itself up there
    try:
        spec.loader.exec_module(module)
        toy = find_system("seventh system")
        assert toy is module.TOY and [s.name for s in toy.switches()] == ["losers_last"]
        encounter = load_example("fighter-and-mage-vs-orc-archer")
        assert any(line.endswith("[toy §2]") for line in toy.schedule(encounter).why())
        fight = run_fight(encounter, "toy", seed=1)
        assert fight.row() == run_fight(encounter, "toy", seed=1, explain=False).row()
    finally:
        SYSTEMS.pop("toy", None)
        sys.modules.pop("toy_from_the_docs", None)


def test_the_memory_plan_counts_every_page():
    text = (ROOT / "docs" / "at-scale.md").read_text(encoding="utf-8")
    pages, dashboards, lessons = map(int, re.search(
        r"each of the (\d+) pages \((\d+) dashboards, (\d+) lessons\)", text).groups())
    assert (pages, dashboards, lessons) == (DASHBOARDS + LESSONS, DASHBOARDS, LESSONS)


def test_every_count_of_dashboards_and_lessons_is_the_tree_s():
    counts = [(page.name, number, what) for page in [README, *DOCS]
              for number, what in re.findall(r"(\d+) (dashboards|lessons)\b", page.read_text(encoding="utf-8"))]
    assert counts, "the README and the docs count the dashboards and lessons"
    for name, number, what in counts:
        assert int(number) == {"dashboards": DASHBOARDS, "lessons": LESSONS}[what], f"{name}: {number} {what}"
