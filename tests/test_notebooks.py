"""Every notebook in notebooks/ and dashboards/ runs top to bottom, and is stored clean.

A notebook runs here with nbclient, unless the browser test that opens it in voila (:func:`opened_by`) is in this
session with chromium at hand: voila then runs it, and tests/browser/conftest.py fails its page on a cell that
raised or a traceback shown, as :func:`test_runs` would (tests/conftest.py, ``pytest_collection_modifyitems``). Each
notebook is so run once in a full run, not twice (``make test``: some 110 s of test time)."""

import functools
import os
import re
from pathlib import Path
from unittest.mock import patch

import nbformat
import pytest
from nbclient import NotebookClient

from combatkit.widgets.app import serve

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("dashboards/*.ipynb")])
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def run(path: Path) -> nbformat.NotebookNode:
    """Execute ``path`` in the kernel it gets in use: a teaching notebook in the environment's own
    ``python3``, a dashboard in the one the dashboard server gives it (:mod:`combatkit.widgets.app.kernel`)."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    served = serve.jupyter_environ(dict(os.environ)) if path.parent.name == "dashboards" else {}
    with patch.dict(os.environ, served):
        client.execute()
    return notebook


@functools.cache
def executed(path: Path) -> nbformat.NotebookNode:
    """``path`` run once a session (:func:`run`), for the tests that read what it shows."""
    return run(path)


def opened_by(path: Path) -> str | None:
    """The browser test module that opens notebook ``path`` in voila (tests/browser): every lesson from the landing
    page, each dashboard in its own; None for a notebook none opens."""
    if path.parent.name == "notebooks":
        return "test_learn.py"
    own = {"compare_systems": "test_dashboard_compare.py", "criticals": "test_dashboard_criticals.py",
           "encounter_prep": "test_dashboard_prep.py", "mana": "test_dashboard_mana.py",
           "phase1_timeline": "test_dashboard_phase1.py", "table": "test_dashboard_table.py",
           "table_players": "test_table_players.py"}
    systems = {"phase2_timeline", "segments_timeline", "five_phase_timeline", "short_form_timeline",
               "strike_speed_timeline"}
    return own.get(path.stem) or ("test_dashboard_systems.py" if path.stem in systems else None)


def outputs(notebook: nbformat.NotebookNode) -> list[dict]:
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]


def test_there_are_notebooks_and_dashboards():
    assert {p.parent.name for p in NOTEBOOKS} == {"notebooks", "dashboards"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_imports_code_rather_than_defining_it(path):
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert not any(line.lstrip().startswith(("def ", "class ")) for line in cell.source.splitlines())


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_runs(path):
    notebook = executed(path)  # nbclient raises on a cell error; this also catches errors shown without raising
    assert not [o for o in outputs(notebook) if o.output_type == "error"]
    assert not [o for o in outputs(notebook) if o.output_type == "stream" and "Traceback" in o.text]


@pytest.mark.notebook
def test_teaching_notebook_shows_the_seed_examples():
    notebook = run(ROOT / "notebooks" / "phase1_teaching.ipynb")
    printed = "".join(o.get("text", "") for o in outputs(notebook) if o.output_type == "stream")
    assert "Grishnak short sword -> Aldric" in printed and "Simultaneous with Aldric" in printed
    assert "Velanna is hit at half-segment 10 while casting: the spell is ruined." in printed
    assert "Mira: DEX 17 gives Reaction Adjustment +2" in printed
    charts = [o for o in outputs(notebook) if WIDGET_VIEW in o.get("data", {})]
    assert len(charts) == 4  # three rounds, then the explorer


@pytest.mark.notebook
def test_dashboard_has_parameters_and_reads_the_query_string(monkeypatch):
    path = ROOT / "dashboards" / "phase1_timeline.ipynb"
    cells = nbformat.read(path, as_version=4).cells
    assert [c for c in cells if "parameters" in c.metadata.get("tags", [])]
    monkeypatch.setitem(os.environ, "QUERY_STRING", "example=ct9-spell-vs-sword")  # as voila sets it
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("print(explorer.example.value, explorer.heading.value)"))
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    shown = [o for o in outputs(notebook) if WIDGET_VIEW in o.get("data", {})]
    printed = notebook.cells[-1].outputs[0]["text"]
    assert len(shown) == 1 and printed.startswith("ct9-spell-vs-sword") and "A CT 9 spell against a sword" in printed


# ---------------------------------------------------------------- lessons show tables and sentences (#45 item 11)

LESSONS = sorted(ROOT.glob("notebooks/*.ipynb"))
_PYTHON_VALUE = re.compile(r"^\s*[\[({]|[\[(]\(|\[['\"]|\{['\"]|\b[A-Z]\w+\(\w+=")
"""A Python value's repr: a list, tuple or dict (``[(``, ``['``, ``{'``), or a dataclass's (``Refinement(system=``)."""


def python_values(notebook: nbformat.NotebookNode) -> list[str]:
    """What a lesson shows as Python wrote it rather than as a reader reads: a result or a printed line that is a
    list, tuple or dict, or a pandas table with its index column (``combatkit.widgets.views.tables`` shows one without)."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            data = output.get("data", {})
            if WIDGET_VIEW in data or "text/markdown" in data:
                continue
            if "text/html" in data:
                if 'class="dataframe' in data["text/html"] and "ck-table" not in data["text/html"]:
                    found.append(f"a table with its index: {cell.source[-60:]!r}")
            elif output.output_type == "execute_result" and _PYTHON_VALUE.search(data.get("text/plain", "")):
                found.append(f"{data['text/plain'][:60]!r} from {cell.source[-60:]!r}")
            elif output.output_type == "stream":
                found += [f"printed {line[:60]!r}" for line in output.text.splitlines() if _PYTHON_VALUE.search(line)]
    return found


@pytest.mark.notebook
@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_a_lesson_shows_tables_and_sentences_not_python_values(path):
    assert python_values(executed(path)) == []
