"""Timing systems, one module each, found through :func:`find_system` by id or alias."""

from combatkit.systems.base import SYSTEMS, TimingSystem, find_system, register
from combatkit.systems.phase1 import PHASE1, Phase1Options
from combatkit.systems.phase2 import PHASE2, Phase2Options
from combatkit.systems.segments import SEGMENTS, SegmentsOptions

__all__ = [
    "PHASE1", "PHASE2", "SEGMENTS", "SYSTEMS", "Phase1Options", "Phase2Options", "SegmentsOptions",
    "TimingSystem", "find_system", "register",
]  # fmt: skip
