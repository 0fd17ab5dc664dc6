"""Hypothesis settings for the property tests of hostile input (imported by those tests only).

``tests/conftest.py`` is shared, so the profiles live here and are applied per test with
``@settings(parent=...)`` rather than loaded globally:

* ``hostile`` (the default): 200 examples per property, no per-example deadline, and
  derandomized, so CI runs the same examples every time and a failure reproduces;
* ``fuzz``: a long randomized run, ``LESSONCHECK_FUZZ_EXAMPLES`` examples per property (default
  20 000), selected with ``LESSONCHECK_HYPOTHESIS_PROFILE=fuzz`` (see docs/security.md).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

__all__ = ["PROFILE"]

_SLOW_INPUTS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "hostile",
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=_SLOW_INPUTS,
    print_blob=True,
)
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("LESSONCHECK_FUZZ_EXAMPLES", "20000")),
    deadline=None,
    derandomize=False,
    suppress_health_check=_SLOW_INPUTS,
    print_blob=True,
)

PROFILE = settings.get_profile(os.environ.get("LESSONCHECK_HYPOTHESIS_PROFILE", "hostile"))
"""The settings every property test here runs with."""
