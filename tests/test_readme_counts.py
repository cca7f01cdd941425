"""The README's counts of pages, dashboards and lessons are the tree's (#45 item 11)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = len(list((ROOT / "dashboards").glob("*.ipynb")))
LESSONS = len(list((ROOT / "notebooks").glob("*.ipynb")))


def test_the_memory_plan_counts_every_page():
    readme = (ROOT / "README.md").read_text()
    pages, dashboards, lessons = map(int, re.search(
        r"each of the (\d+) pages \((\d+) dashboards, (\d+) lessons\)", readme).groups())
    assert (pages, dashboards, lessons) == (DASHBOARDS + LESSONS, DASHBOARDS, LESSONS)


def test_every_count_of_dashboards_and_lessons_is_the_tree_s():
    readme = (ROOT / "README.md").read_text()
    counts = re.findall(r"(\d+) (dashboards|lessons)\b", readme)
    assert counts, "the README counts its dashboards and lessons"
    for number, what in counts:
        assert int(number) == {"dashboards": DASHBOARDS, "lessons": LESSONS}[what], f"{number} {what}"
