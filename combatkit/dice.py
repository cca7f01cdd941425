"""Dice: standard notation, an injected RNG, and numbers a referee rolled at the table.

Every random draw in combatkit goes through a :class:`Roller`. A roller is built
from a seed (or a ``random.Random``) *and/or* a mapping of values the referee
entered, keyed by what the roll is for. An entered value always wins, so the same
engine can referee a real table and replay a seeded simulation:

>>> roller = Roller(seed=7, entered={"initiative: party": 3})
>>> roller.roll("d10", "initiative: party").total
3
>>> roller.roll("d10", "initiative: orcs").entered
False

Same seed and same inputs give the same rolls, always:

>>> [Roller(seed=1).roll("3d4+1", "x").total for _ in range(2)]
[7, 7]
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Final

import icepool
from mypy_extensions import mypyc_attr

__all__ = [
    "MAX_EXACT_TOTALS",
    "Dice",
    "DiceNotationError",
    "EnteredRollError",
    "ExactOddsError",
    "MissingRollError",
    "Roll",
    "Roller",
    "UnknownRollError",
    "check_entered",
    "count_keys",
    "key_parts",
    "roll_key",
    "sum_of",
]

_NOTATION: Final = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_MAX_COUNT: Final = 100
_MAX_SIDES: Final = 1000
_MAX_MODIFIER: Final = 1000
MAX_EXACT_TOTALS: Final = 1000
"""The most different totals of dice whose exact distribution combatkit works out (10d100 has 991,
100d10 has 901): each takes icepool well under a second. Larger dice are rolled, never enumerated."""


class DiceNotationError(ValueError):
    """A dice string that is not standard notation (``d10``, ``2d6``, ``3d4+1``), or dice outside
    the range combatkit rolls: 1..100 dice of 2..1000 sides, a modifier of -1000..+1000."""


class ExactOddsError(ValueError):
    """Dice with more totals than :data:`MAX_EXACT_TOTALS`: their exact distribution is refused
    (it would take icepool seconds to minutes); roll them instead (``simulate``)."""


class EnteredRollError(ValueError):
    """A number entered by the referee that the named dice cannot roll."""


class MissingRollError(ValueError):
    """A roll was needed, no number was entered for it, and the roller has no RNG."""


class UnknownRollError(EnteredRollError):
    """A number entered for a roll that was never asked for: a misspelled key, or another system's roll."""


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` sides plus ``modifier``: ``Dice(3, 4, 1)`` is 3d4+1."""

    count: int
    """How many dice are rolled, 1..100."""
    sides: int
    """Faces on each die, 2..1000."""
    modifier: int = 0
    """Added to the sum of the faces, -1000..+1000."""

    def __post_init__(self) -> None:
        for name in ("count", "sides", "modifier"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise DiceNotationError(f"dice {name} is a whole number, got {value!r}")
        if not 1 <= self.count <= _MAX_COUNT:
            raise DiceNotationError(f"dice count must be 1..{_MAX_COUNT}, got {self.count} in {self}")
        if not 2 <= self.sides <= _MAX_SIDES:
            raise DiceNotationError(f"a die needs 2..{_MAX_SIDES} sides, got d{self.sides}")
        if not -_MAX_MODIFIER <= self.modifier <= _MAX_MODIFIER:
            raise DiceNotationError(f"a dice modifier is -{_MAX_MODIFIER}..+{_MAX_MODIFIER}, got {self.modifier:+d}")

    @classmethod
    def parse(cls, text: str | Dice) -> Dice:
        """Read standard notation.

        >>> Dice.parse("3d4+1")
        Dice(count=3, sides=4, modifier=1)
        >>> Dice.parse("d12")
        Dice(count=1, sides=12, modifier=0)
        >>> Dice.parse("2x6")
        Traceback (most recent call last):
        ...
        combatkit.dice.DiceNotationError: '2x6' is not dice notation: write NdS or NdS+M, e.g. d10, 2d6, 3d4+1
        """
        if isinstance(text, Dice):
            return text
        if not isinstance(text, str):
            raise DiceNotationError(f"dice notation must be a string like '2d6', got {text!r}")
        return _parsed(text)

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{count}d{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    @property
    def totals(self) -> int:
        """How many different totals the dice can roll: 11 for 2d6."""
        return self.count * (self.sides - 1) + 1

    def check_exact(self) -> None:
        """Refuse (:class:`ExactOddsError`) dice with more than :data:`MAX_EXACT_TOTALS` totals.

        >>> Dice.parse("100d1000").check_exact()
        Traceback (most recent call last):
        ...
        combatkit.dice.ExactOddsError: 100d1000 rolls 99901 different totals; exact odds are worked out for dice \
of at most 1000 (10d100, 100d10): roll them instead (combatkit exact odds)
        """
        if self.totals > MAX_EXACT_TOTALS:
            raise ExactOddsError(f"{self} rolls {self.totals} different totals; exact odds are worked out for dice "
                                 f"of at most {MAX_EXACT_TOTALS} (10d100, 100d10): roll them instead "
                                 f"(combatkit exact odds)")

    def die(self) -> icepool.Die:
        """The total as an icepool die, for dice of at most :data:`MAX_EXACT_TOTALS` totals."""
        self.check_exact()
        return sum_of(icepool.d(self.sides), self.count) + self.modifier

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of every total (icepool), for dice of at most :data:`MAX_EXACT_TOTALS` totals;
        larger dice raise :class:`ExactOddsError`. 10d100 takes about 0.1 s.

        >>> Dice.parse("2d6").distribution()[7]
        Fraction(1, 6)
        """
        total = self.die()
        denominator = total.denominator()
        return {int(outcome): Fraction(quantity, denominator) for outcome, quantity in total.items()}


def sum_of(die: icepool.Die, count: int) -> icepool.Die:
    """The sum of ``count`` rolls of ``die`` (1 or more), by doubling: about log2(count) additions of
    icepool dice instead of ``count`` (100d10 in 0.05 s rather than 0.12 s).

    >>> sum_of(icepool.d(6), 3).equals(Dice(3, 6).die())
    True
    """
    total, power = None, die
    while count:
        if count & 1:
            total = power if total is None else total + power
        count >>= 1
        if count:
            power = power + power
    return total


@lru_cache(maxsize=1024)
def _parsed(text: str) -> Dice:
    """``text`` read as standard notation (:meth:`Dice.parse`), once per string: the fast path reads the same few
    dice (a weapon's damage, an options object's referee dice) tens of thousands of times, and a :class:`Dice` is
    immutable, so one value serves every caller. Bounded; a refused string raises each time (exceptions are not
    cached)."""
    match = _NOTATION.match(text)
    if not match:
        raise DiceNotationError(
            f"{text!r} is not dice notation: write NdS or NdS+M, e.g. d10, 2d6, 3d4+1"
        )
    count_text, sides_text, sign, mod_text = match.groups()
    for digits, what in ((count_text, "dice count"), (sides_text, "number of sides"), (mod_text, "modifier")):
        if digits and len(digits.lstrip("0")) > 6:  # past every limit; int() refuses 4300 digits and more
            raise DiceNotationError(f"{text[:40]!r}{'...' if len(text) > 40 else ''}: a {what} of "
                                    f"{len(digits)} digits is out of range (1..{_MAX_COUNT} dice of "
                                    f"2..{_MAX_SIDES} sides, a modifier of -{_MAX_MODIFIER}..+{_MAX_MODIFIER})")
    count = int(count_text) if count_text else 1
    modifier = int(mod_text or 0) * (-1 if sign == "-" else 1)
    return Dice(count, int(sides_text), modifier)


@dataclass(frozen=True)
class Roll:
    """One roll: what was rolled, for what, the faces and the total."""

    dice: Dice
    """The dice rolled."""
    purpose: str
    """What the roll decides, e.g. ``"initiative: party"``; also the key for entered values."""
    total: int
    """Sum of the faces plus the modifier."""
    faces: tuple[int, ...] | None
    """Each die's face, or None when the referee entered only a total."""
    entered: bool
    """True when the number came from the table, not from the RNG."""

    def __init__(self, dice: Dice, purpose: str, total: int, faces: tuple[int, ...] | None, entered: bool) -> None:
        # Written out (tests/test_resolution.py holds it to the fields): the compiled build runs the __init__ a
        # dataclass makes as Python, and a fight makes dozens of these (#18).
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "purpose", purpose)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "entered", entered)

    def __str__(self) -> str:
        how = "entered by the referee" if self.entered else "rolled"
        faces = f" {list(self.faces)}" if self.faces and len(self.faces) > 1 else ""
        return f"{self.purpose}: {self.dice} {how} = {self.total}{faces}"

    @property
    def what(self) -> str:
        """What the roll decides, of its :attr:`purpose` (:func:`roll_key`'s ``what``): ``"initiative"``."""
        return key_parts(self.purpose)[0]

    @property
    def subject(self) -> str:
        """Whom (or which side) the roll is for, of its :attr:`purpose` (:func:`roll_key`'s ``subject``):
        ``"party"`` for ``"initiative: party, cycle 2"``, ``"Ugluk"`` for ``"to hit: Ugluk -> Mira, phase 3"``;
        ``""`` for a roll called for no one.

        >>> Roll(Dice(1, 10), "segment: Ugluk, step 1", 4, (4,), entered=False).subject
        'Ugluk'
        """
        return key_parts(self.purpose)[1]


def roll_key(what: str, subject: str = "", detail: str = "") -> str:
    """The key a roll is called by, and a number rolled at the table is entered under: what it decides, whom it is
    for and, where one figure rolls it more than once, which one. :attr:`Roll.what` and :attr:`Roll.subject` read
    a key back, whether it was made here or written as these are (a roll's key is the referee's, in files and
    links: its words do not change).

    >>> roll_key("initiative", "party"), roll_key("segment", "Ugluk", "step 1")
    ('initiative: party', 'segment: Ugluk, step 1')
    """
    key = f"{what}: {subject}" if subject else what
    return f"{key}, {detail}" if detail else key


_SUBJECT_ENDS: Final = (" -> ", ", ", " [")
"""What may follow a subject in a roll's key: the target of a blow, a detail, a fight's round (:meth:`Roller.by_count`)."""


def key_parts(key: str) -> tuple[str, str]:
    """``(what, subject)`` of a roll's key, the inverse of :func:`roll_key`: what comes before the first ``": "``,
    then whom it is for, up to a target, a detail or a fight's round (:data:`_SUBJECT_ENDS`). The one reader of a
    key's words: a view asks it (or a :class:`Roll`'s :attr:`~Roll.what` and :attr:`~Roll.subject`), and never
    takes a key apart itself.

    >>> key_parts("to hit: Ugluk -> Mira, phase 3"), key_parts("initiative: party [round 2]")
    (('to hit', 'Ugluk'), ('initiative', 'party'))
    """
    what, colon, rest = key.partition(": ")
    if not colon:
        return key, ""
    ends = [i for i in (rest.find(end) for end in _SUBJECT_ENDS) if i >= 0]
    return what, rest[:min(ends)] if ends else rest


Entered = int | Sequence[int]


_RANDOM: Final = random.Random
_BITS: Final = tuple(n.bit_length() for n in range(_MAX_SIDES + 1))
"""The bits that hold each number of sides a die may have (``int.bit_length`` is a Python call in the compiled
build)."""


def face(rng: random.Random, sides: int) -> int:
    """One die of ``sides`` faces: the very number ``rng.randint(1, sides)`` gives, drawn the way
    :class:`random.Random` draws it (the fewest bits that hold ``sides``, drawn again while too high), without
    its three Python calls a die, the most made in a fight. Only for a :class:`random.Random` itself: a subclass
    may draw otherwise, and gets ``randint`` (``tests/test_dice.py`` holds the two together)."""
    if type(rng) is not _RANDOM:
        return rng.randint(1, sides)
    bits = _BITS[sides] if sides <= _MAX_SIDES else sides.bit_length()
    r = rng.getrandbits(bits)
    while r >= sides:
        r = rng.getrandbits(bits)
    return 1 + r


def _faces(rng: random.Random, spec: Dice) -> tuple[int, ...]:
    """The face of each of ``spec``'s dice, drawn from ``rng`` in order (:func:`face`)."""
    return tuple([face(rng, spec.sides) for _ in range(spec.count)])


@mypyc_attr(allow_interpreted_subclasses=True)  # a seventh system, a dashboard's roller
@dataclass
class Roller:
    """Source of every roll: referee-entered numbers first, then the injected RNG. A roll entered still takes
    its draw from the RNG (:meth:`from_table`): entering one number leaves every other seeded roll as it was.

    ``entered`` maps a roll's purpose to a total (``{"initiative: orcs": 7}``) or to
    the faces of each die (``{"blows: Ariadne": (2, 5)}`` for 2d6).
    """

    seed: int | None = None
    entered: Mapping[str, Entered] = field(default_factory=dict)
    rng: random.Random | None = None
    log: list[Roll] = field(default_factory=list)
    counted: dict[str, int] = field(default_factory=dict, repr=False)
    """How many rolls so far were called ``<what> [round <r>, ...]``, by ``<what> [round <r>``, while numbers are
    entered (:meth:`by_count`)."""

    def __post_init__(self) -> None:
        if self.rng is None and self.seed is not None:
            self.rng = random.Random(self.seed)
        self.entered = dict(self.entered)

    def roll(self, dice: str | Dice, purpose: str) -> Roll:
        """Roll ``dice`` for ``purpose`` (the key a referee's number is entered under)."""
        spec = Dice.parse(dice)
        counted = self.by_count(purpose) if self.entered else None
        if purpose in self.entered:
            result = self.from_table(spec, purpose, self.entered[purpose])
        elif counted is not None:
            result = self.from_table(spec, purpose, self.entered[counted])
        elif self.rng is not None:
            rng = self.rng
            if spec.count == 1:  # most rolls: no generator resumed, no sum() called (#18)
                one = face(rng, spec.sides)
                result = Roll(spec, purpose, one + spec.modifier, (one,), entered=False)
            else:
                faces = _faces(rng, spec)
                result = Roll(spec, purpose, sum(faces) + spec.modifier, faces, entered=False)
        else:
            raise MissingRollError(
                f"no number entered for {purpose!r} ({spec}) and no seed to roll it: "
                f"enter what was rolled at the table or give a seed"
            )
        self.log.append(result)
        return result

    def roll_total(self, dice: str | Dice, purpose: str, classify: Callable[[int], Hashable] | None = None) -> Roll:
        """Roll ``dice`` for ``purpose`` when the round reads only the total, or only ``classify(total)``.

        Rolled or entered, this is :meth:`roll`: ``classify`` changes nothing. It tells an
        enumerating roller (exact odds, :meth:`~combatkit.systems.base.TimingSystem.odds`) which
        totals lead to the same round, so that it runs the round once per class of totals, not
        once per face: a to-hit d20 matters only as a hit or a miss.

        >>> Roller(entered={"to hit: Ann": 12}).roll_total("d20", "to hit: Ann", classify=lambda t: t >= 11).total
        12
        """
        return self.roll(dice, purpose)

    def by_count(self, purpose: str) -> str | None:
        """The key a number was entered under for ``purpose`` by its count in the round, if any.

        A roll a fight resolves is called with its round and its tick (``attack roll: Brienne [round 3, tick 9]``),
        and the tick depends on the round's initiative, which the referee cannot know before the round is placed.
        So it is also found by its count: ``<what> [round <r>, #<n>]`` is the n-th roll so called in round r, and
        ``<what> [round <r>]`` the first (#46). Two attacks on one count share a tick, but never a count.

        >>> table = Roller(seed=1, entered={"attack roll: Brienne [round 3, #2]": 20, "damage: Brienne [round 3]": 8})
        >>> [table.roll("d20", f"attack roll: Brienne [round 3, tick {t}]").total for t in (4, 9)][1]
        20
        >>> table.roll("d8", "damage: Brienne [round 3, tick 9]").total
        8
        """
        if not purpose.endswith("]"):
            return None
        cut = purpose.find(" [round ")
        if cut < 0:
            return None
        comma = purpose.find(",", cut)
        if comma < 0:
            return None  # the key names its round alone already
        head = purpose[:comma]  # "<what> [round <r>"
        n = self.counted.get(head, 0) + 1
        self.counted[head] = n
        for key in (f"{head}, #{n}]", f"{head}]") if n == 1 else (f"{head}, #{n}]",):
            if key in self.entered:
                return key
        return None

    def from_table(self, spec: Dice, purpose: str, value: Entered) -> Roll:
        """The roll of ``spec`` for ``purpose`` that the referee entered as ``value`` (checked against the dice;
        not logged). With a seed, the draw the seed would have made for it is taken all the same and set aside,
        so a number entered never moves another roll: every later seeded roll is the one the seed gives with
        nothing entered (#45). Entered rolls are few, so this costs a simulation with nothing entered nothing.

        >>> seeded = Roller(seed=7)
        >>> seeded.roll("d10", "initiative: party").total, seeded.roll("d10", "initiative: orcs").total
        (6, 3)
        >>> table = Roller(seed=7, entered={"initiative: party": 9})
        >>> table.roll("d10", "initiative: party").total, table.roll("d10", "initiative: orcs").total
        (9, 3)
        """
        if self.rng is not None:
            _faces(self.rng, spec)
        return self._from_entry(spec, purpose, value)

    @staticmethod
    def _from_entry(spec: Dice, purpose: str, value: Entered) -> Roll:
        given: object = value  # whatever was entered: the compiled build (setup.py) read a str here as a bool
        if isinstance(given, (bool, str)) or not isinstance(given, (int, Sequence)):
            raise EnteredRollError(f"{purpose}: the entered roll must be a whole number, got {given!r}")
        if isinstance(value, int):
            if not spec.minimum <= value <= spec.maximum:
                raise EnteredRollError(
                    f"{purpose}: {spec} rolls {spec.minimum}..{spec.maximum}, "
                    f"so {value} cannot have been rolled"
                )
            return Roll(spec, purpose, value, (value - spec.modifier,) if spec.count == 1 else None, entered=True)
        faces = tuple(value)
        if len(faces) != spec.count or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= spec.sides for f in faces
        ):
            raise EnteredRollError(
                f"{purpose}: {spec} needs {spec.count} face(s) of 1..{spec.sides}, got {list(faces)}"
            )
        return Roll(spec, purpose, sum(faces) + spec.modifier, faces, entered=True)



def count_keys(purposes: Iterable[str]) -> list[str]:
    """The key each of a round's resolved rolls, called ``purposes`` in the order rolled, is entered under: by its
    count in the round (:meth:`Roller.by_count`), or as it is called when it names no tick.

    >>> count_keys(["attack roll: Kell [round 2, tick 4]", "damage: Kell [round 2, tick 4]",
    ...             "attack roll: Kell [round 2, tick 9]", "DEX check (stopping): Kell"])
    ['attack roll: Kell [round 2, #1]', 'damage: Kell [round 2, #1]', 'attack roll: Kell [round 2, #2]', \
'DEX check (stopping): Kell']
    """
    seen: dict[str, int] = {}
    keys = []
    for purpose in purposes:
        cut = purpose.find(" [round ") if purpose.endswith("]") else -1
        comma = purpose.find(",", cut) if cut >= 0 else -1
        if comma < 0:
            keys.append(purpose)
            continue
        head = purpose[:comma]
        seen[head] = seen.get(head, 0) + 1
        keys.append(f"{head}, #{seen[head]}]")
    return keys


def check_entered(entered: Mapping[str, Entered], asked: Iterable[str], where: str, forms: Sequence[str] = (),
                  words: Mapping[str, Sequence[str]] | None = None) -> None:
    """Refuse a number entered under a key that no roll of ``where`` is called, naming the ones that are.

    A key is known if a roll ``asked`` for it, or if it has one of the ``forms`` of the rolls
    ``where`` can ask for (``"initiative: <side>"``), where a ``<word>`` stands for one of
    ``words[word]`` (``<tag>`` for one of them and what follows) or, if ``words`` has no such
    entry, for any text. A misspelled key would otherwise be ignored and its die rolled:

    >>> check_entered({"initative: orcs": 3}, ["initiative: party", "initiative: orcs"], "this round",
    ...               ["initiative: <side>"], {"side": ["party", "orcs"]})
    Traceback (most recent call last):
    ...
    combatkit.dice.UnknownRollError: this round asks for no roll called 'initative: orcs' (did you mean \
'initiative: orcs'?), so the number entered for it would be ignored. Its rolls are called 'initiative: <side>' \
(<side>: party, orcs). This time it asked for 'initiative: party', 'initiative: orcs'.
    """
    known = list(dict.fromkeys(asked))
    words = words or {}
    patterns = [_form_pattern(form, words) for form in forms]
    unknown = [key for key in entered if key not in set(known) and not any(p.fullmatch(key) for p in patterns)]
    if not unknown:
        return
    key = unknown[0]
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    named = sorted({w for form in forms for w in re.findall(r"<([^<>]+)>", form) if w in words})
    called = ""
    if forms:
        glossary = "; ".join(f"<{w}>: {', '.join(words[w])}" for w in named)
        called = f" Its rolls are called {', '.join(repr(f) for f in forms)}" + (f" ({glossary})" if glossary else "") + "."
    listed = ", ".join(repr(k) for k in known) if known else "nothing"
    raise UnknownRollError(f"{where} asks for no roll called {key!r}{hint}, so the number entered for it would be "
                           f"ignored.{called} This time it asked for {listed}.")


def matches_form(key: str, forms: Sequence[str], words: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Whether a roll key has one of the ``forms`` (see :func:`check_entered`).

    >>> matches_form("initiative: orcs", ["initiative: <side>"], {"side": ["party", "orcs"]})
    True
    """
    return any(_form_pattern(form, words or {}).fullmatch(key) for form in forms)


def _form_pattern(form: str, words: Mapping[str, Sequence[str]]) -> re.Pattern[str]:
    """The regular expression of a roll key's form (see :func:`check_entered`)."""
    out = []
    for i, part in enumerate(re.split(r"<([^<>]+)>", form)):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in words:
            choices = "|".join(re.escape(w) for w in words[part]) or "(?!)"
            out.append(f"(?:{choices})" + (".*" if part == "tag" else ""))
        else:
            out.append(".+")
    return re.compile("".join(out))
