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

from hypothesis import HealthCheck, settings

CI_EXAMPLES = 100
"""Examples of a generated-input test that names no count of its own, under the ``ci`` profile."""

settings.register_profile("ci", derandomize=True, database=None, max_examples=CI_EXAMPLES, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", derandomize=False, max_examples=int(os.environ.get("FUZZ_EXAMPLES", "2000")),
                          deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_finish(session):
    """Start building the compiled wheel (tests/compiled_build.py) when a test of it is to run: it builds on the
    core the rest of the suite leaves idle, at the lowest priority, and is ready when its test's turn comes. Not in
    a worker of ``pytest -n`` (``make test``): each worker collects every test, and only the one given
    test_compiled.py is to build; it builds when that module's first test asks, its core idle meanwhile."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if any(item.path.name == "test_compiled.py" for item in session.items):
        from tests import compiled_build

        compiled_build.start()


def pytest_sessionfinish(session):
    from tests import compiled_build

    compiled_build.clean()
