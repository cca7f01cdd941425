"""Hypothesis profiles for the whole suite.

``ci`` is loaded unless ``HYPOTHESIS_PROFILE`` names another: derandomized (every run tries the same
examples, so a red build is the code's, not the dice's), no example database, no deadline (a shared
2-core machine is slow in bursts) and a failing example printed with its reproduction blob. Tests
that set ``@settings(max_examples=...)`` keep their own count and inherit the rest, derandomization
included; tests that set none run :data:`CI_EXAMPLES`.

``fuzz`` (``HYPOTHESIS_PROFILE=fuzz``, ``make fuzz``) is the long random run: a new sample every
time, many more examples, failures kept in ``.hypothesis/`` so the next run tries them first.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

CI_EXAMPLES = 100
"""Examples of a generated-input test that names no count of its own, under the ``ci`` profile."""

settings.register_profile("ci", derandomize=True, database=None, max_examples=CI_EXAMPLES, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", derandomize=False, max_examples=int(os.environ.get("FUZZ_EXAMPLES", "2000")),
                          deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionstart(session):
    """Under ``pytest -n`` (``make test``), in the controller: name the folder the compiled wheel
    (tests/compiled_build.py) is to be built in, for the workers it is about to start."""
    if session.config.pluginmanager.has_plugin("dsession"):
        from tests import compiled_build

        compiled_build.plan()


def pytest_collection_finish(session):
    """Start building the compiled wheel when a test of it is to run, in a suite run in one process: it builds on
    the core the tests leave idle, at the lowest priority, and is ready when its test's turn comes. A worker of
    ``pytest -n`` never builds it: the controller does (:func:`pytest_xdist_node_collection_finished`)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if any(item.path.name == "test_compiled.py" for item in session.items):
        from tests import compiled_build

        compiled_build.start()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """Under ``pytest -n``, in the controller, once the first worker has collected: start building the compiled
    wheel if a test of it is to run, beside the workers and at their priority, so that it is ready when
    test_compiled.py's turn comes instead of keeping one core busy at the end of the run."""
    if any(i.startswith("tests/test_compiled.py::") for i in ids):
        from tests import compiled_build

        compiled_build.start(nice=False)


def pytest_sessionfinish(session):
    from tests import compiled_build

    compiled_build.clean()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A notebook that a browser test of this session opens in voila (tests/test_notebooks.py: ``opened_by``) is
    not run a second time with nbclient, where chromium is at hand for that test; after ``-m`` and ``-k`` have
    deselected (``trylast``), so that a run without the browser tests runs every notebook with nbclient."""
    browser = {item.path.name for item in items if item.path.parent.name == "browser"}
    if not browser:  # none collected, or playwright is not installed (each browser module skips itself)
        return
    from tests.browser.conftest import CHROMIUM
    from tests.test_notebooks import opened_by

    if not os.path.exists(CHROMIUM):
        return
    for item in items:
        path = item.callspec.params.get("path") if hasattr(item, "callspec") else None
        module = opened_by(path) if getattr(item, "originalname", None) == "test_runs" and path is not None else None
        if module in browser:
            item.add_marker(pytest.mark.skip(reason=f"run in voila by tests/browser/{module}"))
