"""Timing systems, one module each, found through :func:`find_system`."""

from combatkit.systems.base import SYSTEMS, TimingSystem, find_system, register
from combatkit.systems.phase1 import PHASE1, Phase1Options

__all__ = ["PHASE1", "SYSTEMS", "Phase1Options", "TimingSystem", "find_system", "register"]
