"""combatkit: who acts when inside an old-school combat round, and why.

The engine is standard library only (plus icepool for exact odds); the widgets
live in :mod:`combatkit.widgets` and are imported only when asked for.

>>> from combatkit import Roller, find_system, load_example
>>> timeline = find_system("phase1").schedule(load_example("orc-closes-on-longbowman"), Roller(seed=1))
>>> timeline.spans[0].actor
'Aldric'
"""

from combatkit.dice import Dice, Roll, Roller
from combatkit.encounter import Encounter, Hit
from combatkit.encounter_files import (
    dumps_toml,
    encounter_from_dict,
    encounter_to_dict,
    example_encounters,
    load_encounter,
    load_example,
    loads_encounter,
    save_encounter,
)
from combatkit.errors import (
    DiceNotationError,
    EncounterFileError,
    EnteredRollError,
    IllegalActionError,
    MissingRollError,
    RulesError,
)
from combatkit.kinds import ActionKind, Length, Maneuver, Size, WeaponKind
from combatkit.model import ONE_ROUND, Abilities, Combatant, Declaration, EffectKind, Save, Spell, SpellEffect, Weapon
from combatkit.systems import SYSTEMS, Phase1Options, find_system
from combatkit.timeline import Clock, Period, Span, SpanKind, Status, Timeline, Track

__all__ = [
    "ONE_ROUND", "SYSTEMS", "Abilities", "ActionKind", "Clock", "Combatant", "Declaration", "Dice",
    "DiceNotationError", "EffectKind", "Encounter", "EncounterFileError", "EnteredRollError", "Hit", "IllegalActionError",
    "Length", "Maneuver", "MissingRollError", "Period", "Phase1Options", "Roll", "Roller", "RulesError", "Save", "Size", "Span", "SpanKind",
    "Spell", "SpellEffect", "Status", "Timeline", "Track", "Weapon", "WeaponKind", "dumps_toml", "encounter_from_dict", "encounter_to_dict",
    "example_encounters", "find_system", "load_encounter", "load_example", "loads_encounter", "save_encounter",
]  # fmt: skip
__version__ = "0.1.0"
