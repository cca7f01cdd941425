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
