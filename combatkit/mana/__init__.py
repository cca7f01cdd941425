"""The mana engine: 000 §5, Combat II Supplemental Magic Rules.

* :mod:`~combatkit.mana.tables`: the seed's base-mana table and the PH tables under it,
  with the printed table and the stated rule side by side (:func:`base_mana_comparison`).
* :mod:`~combatkit.mana.pools`: Mana System I (points) and II (slots), Wisdom bonus
  spells, specialists, Starting Mana, casting, innate spells.
* :mod:`~combatkit.mana.recovery`: recovery rates, "how long until full?" and a day
  planner that returns the pools over time.
* :mod:`~combatkit.mana.learning`: research time, the memorized list and forgetting.

The ``explain_*`` functions tell a result in sentences that cite the rule (:class:`Note`),
for a teaching view to show as they are.

>>> from combatkit.mana import Caster, CasterClass, mana_state, time_to_full
>>> options = ManaOptions(constitution=ConstitutionRule.STARTING)
>>> mage = mana_state(Caster(CasterClass.WIZARD, 3, constitution=18), options)
>>> mage.points, time_to_full(mage.emptied()).study_minutes
(6, 60)
"""

from combatkit.mana.learning import (
    EXEMPT_SPELLS,
    ExemptScope,
    KnownSpell,
    Learned,
    Repertoire,
    cast_known,
    forget_candidates,
    learn,
    research_days,
    set_exempt,
)
from combatkit.mana.pools import (
    BaseManaSource,
    BonusMethod,
    Caster,
    ConstitutionRule,
    Explanation,
    InnateSpell,
    ManaOptions,
    ManaState,
    ManaSystem,
    Note,
    Pool,
    PoolKind,
    RecoveryRate,
    Spend,
    base_mana,
    cast,
    cast_innate,
    explain_base_mana,
    explain_pools,
    innate_state,
    mana_state,
    starting_mana,
)
from combatkit.mana.recovery import (
    DAY,
    Cast,
    DayPlan,
    Minute,
    PlanEvent,
    PlanNote,
    PoolRecovery,
    PoolSample,
    Recovery,
    RecoveryEstimate,
    Rest,
    Study,
    cast_refusal,
    duration_text,
    explain_pool_recovery,
    explain_recovery,
    minutes_per_point,
    plan_day,
    recovery_minutes,
    time_to_full,
)
from combatkit.mana.tables import (
    MAX_CASTER_LEVEL,
    BaseManaRow,
    CasterClass,
    IntelligenceLimits,
    ProgressionRow,
    base_mana_comparison,
    computed_base_mana,
    intelligence_limits,
    ordinal,
    printed_base_mana,
    progression,
    wisdom_bonus_spells,
)

__all__ = [
    "DAY", "EXEMPT_SPELLS", "MAX_CASTER_LEVEL", "BaseManaRow", "BaseManaSource", "BonusMethod", "Cast", "Caster",
    "CasterClass", "ConstitutionRule", "DayPlan", "ExemptScope", "Explanation", "InnateSpell", "IntelligenceLimits",
    "KnownSpell", "Learned", "ManaOptions", "ManaState", "ManaSystem", "Minute", "Note", "PlanEvent", "PlanNote",
    "Pool", "PoolKind", "PoolRecovery", "PoolSample", "ProgressionRow", "Recovery", "RecoveryEstimate",
    "RecoveryRate", "Repertoire", "Rest", "Spend", "Study", "base_mana", "base_mana_comparison", "cast",
    "cast_innate", "cast_known", "cast_refusal", "computed_base_mana", "duration_text", "explain_base_mana",
    "explain_pool_recovery", "explain_pools", "explain_recovery", "forget_candidates", "innate_state",
    "intelligence_limits", "learn", "mana_state", "minutes_per_point", "ordinal", "plan_day", "printed_base_mana",
    "progression", "recovery_minutes", "research_days", "set_exempt", "starting_mana", "time_to_full",
    "wisdom_bonus_spells",
]  # fmt: skip
