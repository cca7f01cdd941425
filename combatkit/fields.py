"""Each field of an encounter declared once: its name in a file, its label, its range and the rule behind it.

A value type's field carries a :class:`FieldSpec` in its dataclass metadata (``field(metadata=spec(...))``)
and its doc is the docstring written under it (STYLE.md). Everything that reads, writes, checks or shows
the field derives from that one declaration: the value type's own check (:func:`check`), the encounter
file reader and writer (:mod:`combatkit.encounter_files`), the encounter editor's controls and the prep page's
table (:mod:`combatkit.widgets`). A range changed here is changed everywhere.

>>> from combatkit.model import Combatant
>>> mv = field_specs(Combatant)["movement"]
>>> mv.file, mv.label, mv.words(), mv.rule
('mv', 'MV', 'MV is 0..240', '000 Table 3')
"""

from __future__ import annotations

import ast
import enum
import inspect
import sys
import textwrap
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, dataclass, fields
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from combatkit.errors import RulesError, is_whole

__all__ = ["Declared", "FieldSpec", "check", "declared", "default_of", "field_docs", "field_specs", "spec"]

_KEY = "combatkit"


@dataclass(frozen=True)
class FieldSpec:
    """How one field of a value type is written in a file, shown in a form and checked."""

    file: str
    """Its name in an encounter file (``"mv"``)."""
    label: str
    """What a form or a table calls it (``"MV"``)."""
    low: int | None = None
    """Lowest whole number it takes (None: no bound, or not a number)."""
    high: int | None = None
    """Highest (None: no bound)."""
    rule: str = "encounter"
    """The rule its range comes from, cited (``"000 Table 3"``)."""
    said: str = ""
    """The range in words when ``low..high`` does not say it (``"hit points are 0 or more"``); default: ``"<label> is low..high"``."""
    form: str = ""
    """The encounter editor's control for it, by attribute (``"mv"``: ``editor.mv``; a weapon's and a spell's
    are prefixed, ``editor.weapon_sf``); empty: not in the editor's panels."""
    roster: int = 0
    """Its column in encounter prep's compact table of combatants (1 first); 0: not a column."""
    valid: Callable[[str], str] | None = None
    """What is wrong with a text value, in words, or ``""`` (a damage field: dice notation it cannot read)."""

    def words(self) -> str:
        """The range in words, for a message: ``"MV is 0..240"``, ``"hit points are 0 or more"``."""
        if self.said:
            return self.said
        if self.low is not None and self.high is not None:
            return f"{self.label} is {self.low}..{self.high}"
        if self.low is not None:
            return f"{self.label} is {self.low} or more"
        return f"{self.label} is at most {self.high}"

    def cited(self) -> str:
        """The range in words with its rule, for a file's message: ``"MV is 0..240 (000 Table 3)"``."""
        return f"{self.words()} ({self.rule})" if self.rule != "encounter" else self.words()

    @property
    def bounded(self) -> bool:
        """Whether it is a whole number in a range."""
        return self.low is not None or self.high is not None

    def fits(self, value: Any) -> bool:
        """Whether a number ``value`` (whole, or a fraction: ``3/2`` attacks a round) is in range (other values are
        not this spec's to judge)."""
        if not (is_whole(value) or isinstance(value, (Fraction, float))):
            return True
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def tooltip(self, doc: str) -> str:
        """What a form says of the field on hover: its doc, its range and the rule."""
        bounds = f" {self.words()}." if self.bounded else ""
        return f"{doc}{bounds} ({self.rule})" if self.rule != "encounter" else f"{doc}{bounds}"


def spec(file: str, label: str | None = None, low: int | None = None, high: int | None = None, *,
         rule: str = "encounter", said: str = "", form: str = "", roster: int = 0,
         valid: Callable[[str], str] | None = None) -> Mapping[str, Any]:
    """The metadata of a dataclass field declared once: ``field(default=12, metadata=spec("mv", "MV", 0, 240))``."""
    return MappingProxyType({_KEY: FieldSpec(file, label or file, low, high, rule, said, form, roster, valid)})


@cache
def field_specs(cls: type) -> Mapping[str, FieldSpec]:
    """The declared fields of a value type, by attribute name, in field order."""
    return MappingProxyType({f.name: f.metadata[_KEY] for f in fields(cls) if _KEY in f.metadata})


def default_of(f: Field) -> Any:
    """A dataclass field's default (MISSING when it has none)."""
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


def check(obj: Any, who: str, skip: Callable[[str], bool] = lambda name: False) -> None:
    """Refuse a value out of its declared range or of the wrong kind, naming ``who``, the field and the value:
    ``RulesError("000 Table 3", "Mira: MV is 0..240, got 400")``; a field for which ``skip(name)`` holds, or
    left None when None is its default, is not checked. A field that takes a fraction (``3/2`` attacks a round) is
    more than 0 and within its bounds.

    >>> from combatkit.model import Weapon
    >>> Weapon("sword", 2.5)
    Traceback (most recent call last):
    ...
    combatkit.errors.RulesError: sword: SF is a whole number, got 2.5 (000 §1 E)
    """
    for name, s, none_ok, rational in _checked(obj.__class__):
        value = getattr(obj, name)
        if (value is None and none_ok) or skip(name):
            continue
        if isinstance(value, str) and s.valid is not None:  # text it reads ("1 round", a name, dice)
            problem = s.valid(value)
            if problem:
                raise RulesError(s.rule, f"{who}, {s.label}: {problem}")
        elif rational:
            if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
                raise RulesError(s.rule, f"{who}: {s.label} is a number like 1, 2 or Fraction(3, 2), got {value!r}")
            if not (value > 0 and s.fits(value)):
                raise RulesError(s.rule, f"{who}: {s.words()}, got {value}")
        elif s.bounded and (not is_whole(value)):
            raise RulesError(s.rule, f"{who}: {s.label} is a whole number, got {value!r}")
        elif not s.fits(value):
            raise RulesError(s.rule, f"{who}: {s.words()}, got {value!r}")


@cache
def _checked(cls: type) -> tuple[tuple[str, FieldSpec, bool, bool], ...]:
    """The declared fields of ``cls`` to check: name, spec, whether None is its default (and so allowed), and whether
    it takes a fraction (:data:`~fractions.Fraction` among its types: attacks per round, a rate of fire)."""
    hints = type_hints(cls)
    return tuple((f.name, f.metadata[_KEY], f.default is None, Fraction in typing.get_args(hints[f.name]) or
                  hints[f.name] is Fraction) for f in fields(cls) if _KEY in f.metadata)


@cache
def field_docs(cls: type) -> Mapping[str, str]:
    """The docstring written under each field of a class (as STYLE.md asks), by field name, on one line;
    none when its source cannot be read (a class made by ``exec``)."""
    body = _class_body(cls)
    if body is None:
        return {}
    docs = {}
    for item, after in zip(body, body[1:], strict=False):
        if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[item.target.id] = " ".join(after.value.value.split())
    return MappingProxyType(docs)


@cache
def type_hints(cls: type) -> Mapping[str, Any]:
    """``typing.get_type_hints(cls)``; for a class of a compiled module (``setup.py``), whose annotations the
    build keeps only as classes (``frozenset`` for ``frozenset[str]``), each field's annotation as its source
    writes it, read as ``typing`` reads one."""
    if _source_file(cls) is None:
        return typing.get_type_hints(cls)
    body = _class_body(cls) or []
    namespace = dict(vars(sys.modules[cls.__module__]))
    # evaluated as typing.get_type_hints evaluates a string annotation, in the module's names; the class's own
    # fields only (no options class inherits any)
    return {node.target.id: eval(ast.unparse(node.annotation), namespace)
            for node in body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}


def _source_file(cls: type) -> Path | None:
    """The ``.py`` source of ``cls``'s module when that module is compiled (``setup.py``), else None."""
    module = sys.modules.get(cls.__module__)
    built = Path(getattr(module, "__file__", None) or "")
    if not built.name or built.suffix == ".py":
        return None
    source = built.with_name(built.name.split(".")[0] + ".py")
    return source if source.is_file() else None


def _class_body(cls: type) -> list[ast.stmt] | None:
    """The statements of ``cls``'s body in its source: from ``inspect``, or, for a class of a compiled module
    (``setup.py``), from the module's ``.py`` file, which ships beside it; None when neither can be read."""
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body  # type: ignore[attr-defined]
    except (OSError, TypeError):
        pass
    source = _source_file(cls)
    if source is None:
        return None
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return node.body
    return None


@dataclass(frozen=True)
class Declared:
    """One declared field as a form or a table shows it: its spec, default, doc and the kind of control it needs."""

    name: str
    """The attribute (``"movement"``)."""
    spec: FieldSpec
    """Its declaration."""
    default: Any
    """Its default (MISSING when a value must be given)."""
    doc: str
    """The docstring under it, on one line."""
    kind: str
    """``"text"``, ``"number"`` (a whole number), ``"flag"``, ``"choice"`` (one of an enum's values),
    ``"fraction"`` (more than 0: ``3/2``) or ``"number text"`` (a whole number or words: ``1 round``)."""
    choice: type[enum.Enum] | None = None
    """The enum of a choice."""

    @property
    def choices(self) -> tuple[str, ...]:
        """The values of a choice."""
        return tuple(e.value for e in self.choice) if self.choice else ()

    @property
    def shown(self) -> Any:
        """The default as a control shows it: an enum's value, text for a number text, ``""`` for none."""
        if self.default is MISSING or self.default is None:
            return ""
        if isinstance(self.default, enum.Enum):
            return self.default.value
        return str(self.default) if self.kind in ("fraction", "number text") else self.default


def declared(*classes: type) -> tuple[Declared, ...]:
    """The declared fields of ``classes``, in order (a combatant and its abilities, written in one table of a
    file, are ``declared(Combatant, Abilities)``).

    >>> from combatkit.model import Spell
    >>> [(d.name, d.kind) for d in declared(Spell)][:3]
    [('name', 'text'), ('level', 'number'), ('casting_time', 'number text')]
    """
    out = []
    for cls in classes:
        hints, docs, specs = type_hints(cls), field_docs(cls), field_specs(cls)
        for f in fields(cls):
            if f.name not in specs:
                continue
            kinds = {k for k in typing.get_args(hints[f.name]) if k is not type(None)} or {hints[f.name]}
            choice = next((k for k in kinds if isinstance(k, type) and issubclass(k, enum.Enum)), None)
            kind = ("choice" if choice else "flag" if kinds == {bool} else "number" if kinds == {int}
                    else "text" if kinds == {str} else "fraction" if Fraction in kinds else "number text")
            out.append(Declared(f.name, specs[f.name], default_of(f), docs.get(f.name, ""), kind, choice))
    return tuple(out)


def field_table(*classes: type) -> str:
    """The declared fields of ``classes`` as a Markdown table: how docs/encounter-format.md documents an encounter file's
    fields (:func:`combatkit.model.readme_tables`; tests/test_fields.py holds docs/encounter-format.md to them)."""
    rows = ["| field | takes | default | rule | what it is |", "| --- | --- | --- | --- | --- |"]
    for d in declared(*classes):
        s = d.spec
        takes = (f'more than 0{f", at most {s.high}" if s.high is not None else ""}: 1, 2, "3/2"' if d.kind == "fraction"
                 else s.said or _bounds(s) if s.bounded
                 else " / ".join(d.choices) if d.choices else {"flag": "true / false"}.get(d.kind, "text"))
        default = "(required)" if d.default is MISSING else "" if d.default is None else d.shown
        default = str(default).lower() if d.kind == "flag" else default
        rows.append(f"| `{s.file}` | {takes} | {default} | {s.rule if s.rule != 'encounter' else ''} | "
                    f"{d.doc.replace('|', '/')} |")
    return "\n".join(rows)


def _bounds(s: FieldSpec) -> str:
    if s.low is not None and s.high is not None:
        return f"{s.low}..{s.high}"
    return f"{s.low} or more" if s.low is not None else f"at most {s.high}"
