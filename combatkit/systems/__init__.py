"""Timing systems, one module each, found through :func:`find_system` by id or alias."""

from combatkit.systems.base import SYSTEMS, Switch, TimingSystem, find_system, register
from combatkit.systems.five_phase import FIVE_PHASE, FivePhaseOptions
from combatkit.systems.phase1 import PHASE1, Phase1Options
from combatkit.systems.phase2 import PHASE2, Phase2Options
from combatkit.systems.segments import SEGMENTS, SegmentsOptions
from combatkit.systems.short_form import SHORT_FORM, ShortFormOptions
from combatkit.systems import short_form_fast  # the short form's fast path, speed only: it registers itself
from combatkit.systems.strike_speed import STRIKE_SPEED, StrikeSpeedOptions

__all__ = [
    "FIVE_PHASE", "PHASE1", "PHASE2", "SEGMENTS", "SHORT_FORM", "STRIKE_SPEED", "SYSTEMS", "FivePhaseOptions",
    "Phase1Options", "Phase2Options", "SegmentsOptions", "ShortFormOptions", "StrikeSpeedOptions",
    "Switch", "TimingSystem", "find_system", "register",
]  # fmt: skip
