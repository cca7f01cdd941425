"""Views read typed data, not the engine's prose (#47): no view or chart splits, cuts or searches an engine sentence.

The engine gives a view what it would otherwise take out of words: a clock's unit and its note, a period's name,
number and step, a span's short form (``Span.what``), a roll's subject, a timeline's explanation as rows
(``Timeline.why_rows``), a matchup's odds as fields (``Matchup``), a system's short title, the combatant an encounter
file's error is about (``EncounterFileError.combatant``). A page that parsed the words broke the day a message was
reworded; this test reads the source of ``widgets/views`` and ``widgets/charts`` (the mana view is another's) and
fails on any of these, applied to engine text:

* a string method that takes words apart or looks into them (``split``, ``partition``, ``startswith``, ``find``,
  ``removeprefix``...);
* a regular expression run over it;
* an ``in`` search for a piece of text in it;
* an engine phrase written out to look for (``"--- round "``, a roll key's head such as ``"initiative: "``; a key
  built in an f-string is built, not read);
* a matchup's odds read by the words of its keys (``odds["a first"]``) rather than by field.

Engine text is what an engine object says in words (its ``unit``, ``title``, ``purpose``, ``action``, ``label``,
``note``, ``message``, ``rule``, ``cause``, ``why``, an error's ``field`` path; what ``why()``, ``why_line()``,
``describe()`` return; an exception's words), a name so called, and whatever a view makes of it: a name assigned
from it, a loop over it, a local function's parameter it is passed to, what a local function returns of it. The
scan is of the syntax tree (docstrings and their examples aside) and needs no list of exceptions: a view that must
read words apart reads them from the engine's own typed fields instead.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from combatkit.resolution import ROLL_KEYS
from combatkit.systems import SYSTEMS
from combatkit.odds import Order

ROOT = Path(__file__).resolve().parents[1]
SCANNED = sorted(p for folder in ("widgets/views", "widgets/charts") for p in (ROOT / folder).glob("*.py")
                 if p.relative_to(ROOT).as_posix() != "widgets/views/mana.py")

ENGINE_WORDS = frozenset({"unit", "title", "short_title", "purpose", "action", "label", "note", "message", "rule",
                          "cause", "why", "field"})
"""Attributes (and names) that hold an engine object's words."""
ENGINE_CALLS = frozenset({"why", "why_line", "describe", "line", "words", "said"})
"""Methods whose answer is the engine's words."""
TEXT_METHODS = frozenset({"split", "rsplit", "partition", "rpartition", "startswith", "endswith", "find", "rfind",
                          "index", "rindex", "removeprefix", "removesuffix"})
"""String methods that take words apart or look into them."""
REGEX = frozenset({"match", "search", "fullmatch", "split", "sub", "subn", "findall", "finditer"})
"""What a regular expression (``re.X`` or a compiled pattern's ``X``) runs over its text with."""
CARRIERS = frozenset({"str", "list", "tuple", "sorted", "reversed", "iter", "next", "set", "frozenset"})
"""Built-ins whose answer carries the text they are given."""


def engine_phrases() -> frozenset[str]:
    """The phrases only an engine sentence or key has: a fight's round heading, and the head of every roll key any
    system (or a resolved round) calls a roll by (``"initiative: "``, ``"to hit: "``...)."""
    forms = [*ROLL_KEYS, *(form for system in SYSTEMS.values() for form in system.roll_keys)]
    heads = {form.split("<", 1)[0] for form in forms}
    return frozenset({"--- round ", *(head for head in heads if head.endswith(": "))})


PHRASES = engine_phrases()
MATCHUP_KEYS = frozenset({*(o.value for o in Order), "a spell interrupted", "b spell interrupted"})
"""The words a matchup's odds are keyed by when read as a mapping; a view reads its fields."""


@dataclass(frozen=True)
class Finding:
    line: int
    what: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}"


def _prose(tree: ast.AST) -> set[int]:
    """The ids of the string constants of ``tree`` that are no code's operands: docstrings (of a module, a class,
    a function or an attribute), prose for people, examples included; and the literal parts of f-strings, which
    build words (a key made by hand is made, not read)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.add(id(node.value))
        elif isinstance(node, ast.JoinedStr):
            out.update(id(v) for v in node.values)
    return out


class _Scan:
    """One module's scan: which names hold engine text (flow-insensitive, to a fixed point), then what is done
    with it."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.scope: dict[int, ast.AST] = {}
        """Each node's innermost enclosing function (or the module)."""
        self.parent: dict[int, ast.AST] = {}
        """Each function's enclosing function (or the module)."""
        self.functions: dict[tuple[int, str], ast.FunctionDef | ast.AsyncFunctionDef] = {}
        """Local functions, by the scope they are defined in and their name."""
        self.tainted: set[tuple[int, str]] = set()
        self.returning: set[int] = set()
        """Local functions that return engine text."""
        self._index(tree, tree)
        self._spread()

    def _index(self, node: ast.AST, scope: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            self.scope[id(child)] = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                self.parent[id(child)] = scope
                if not isinstance(child, ast.Lambda):
                    self.functions[(id(scope), child.name)] = child
                self._index(child, child)
            else:
                self._index(child, scope)

    def _chain(self, node: ast.AST) -> Iterator[ast.AST]:
        scope = self.scope.get(id(node), self.tree)
        while True:
            yield scope
            if scope is self.tree:
                return
            scope = self.parent[id(scope)]

    def _function(self, name: str, at: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        return next((self.functions[(id(s), name)] for s in self._chain(at) if (id(s), name) in self.functions), None)

    def is_engine(self, node: ast.AST | None) -> bool:
        """Whether ``node`` is (or carries) engine text."""
        if node is None:
            return False
        if isinstance(node, ast.Attribute):
            return node.attr in ENGINE_WORDS
        if isinstance(node, ast.Name):
            return node.id in ENGINE_WORDS or any((id(s), node.id) in self.tainted for s in self._chain(node))
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                return func.attr in ENGINE_CALLS or self.is_engine(func.value)
            if isinstance(func, ast.Name):
                called = self._function(func.id, node)
                if called is not None:
                    return id(called) in self.returning
                return func.id in CARRIERS and any(self.is_engine(a) for a in node.args)
            return False
        if isinstance(node, (ast.Subscript, ast.Starred)):
            return self.is_engine(node.value)
        if isinstance(node, ast.IfExp):
            return self.is_engine(node.body) or self.is_engine(node.orelse)
        if isinstance(node, ast.BoolOp):
            return any(self.is_engine(v) for v in node.values)
        if isinstance(node, ast.BinOp):
            return self.is_engine(node.left) or self.is_engine(node.right)
        if isinstance(node, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and self.is_engine(v.value) for v in node.values)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(self.is_engine(e) for e in node.elts)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self.is_engine(node.elt)
        if isinstance(node, ast.NamedExpr):
            return self.is_engine(node.value)
        return False

    def _taint(self, target: ast.AST) -> bool:
        changed = False
        for name in ast.walk(target):
            if isinstance(name, ast.Name):
                key = (id(self.scope.get(id(name), self.tree)), name.id)
                if key not in self.tainted:
                    self.tainted.add(key)
                    changed = True
        return changed

    def _spread(self) -> None:
        changed = True
        while changed:
            changed = False
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Assign) and self.is_engine(node.value):
                    changed |= any([self._taint(t) for t in node.targets])
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and self.is_engine(node.value):
                    changed |= self._taint(node.target)
                elif isinstance(node, (ast.For, ast.comprehension)) and self.is_engine(node.iter):
                    changed |= self._taint(node.target)
                elif isinstance(node, ast.ExceptHandler) and node.name:  # an exception's words are the engine's
                    key = (id(self.scope.get(id(node), self.tree)), node.name)
                    if key not in self.tainted:
                        self.tainted.add(key)
                        changed = True
                elif isinstance(node, ast.Return) and self.is_engine(node.value):
                    function = self.scope.get(id(node))
                    if function is not None and function is not self.tree and id(function) not in self.returning:
                        self.returning.add(id(function))
                        changed = True
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    called = self._function(node.func.id, node)
                    if called is None:
                        continue
                    params = [*called.args.posonlyargs, *called.args.args]
                    given = [(p, a) for p, a in zip(params, node.args)]
                    named = {p.arg: p for p in [*params, *called.args.kwonlyargs]}
                    given += [(named[k.arg], k.value) for k in node.keywords if k.arg in named]
                    for param, arg in given:
                        key = (id(called), param.arg)
                        if key not in self.tainted and self.is_engine(arg):
                            self.tainted.add(key)
                            changed = True

    def findings(self) -> list[Finding]:
        out = []
        prose = _prose(self.tree)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                func = node.func
                if func.attr in TEXT_METHODS and self.is_engine(func.value):
                    out.append(Finding(node.lineno, f"{ast.unparse(node)}: {func.attr} of engine text"))
                elif func.attr in REGEX and any(self.is_engine(a) for a in node.args):
                    out.append(Finding(node.lineno, f"{ast.unparse(node)}: a regular expression over engine text"))
                elif func.attr == "get" and node.args and _matchup_key(node.args[0]):
                    out.append(Finding(node.lineno, f"{ast.unparse(node)}: odds read by their words"))
            elif isinstance(node, ast.Compare):
                for op, right in zip(node.ops, node.comparators):
                    if isinstance(op, (ast.In, ast.NotIn)) and _text(node.left) and self.is_engine(right):
                        out.append(Finding(node.lineno, f"{ast.unparse(node)}: a search in engine text"))
                    if isinstance(op, (ast.In, ast.NotIn)) and _matchup_key(node.left):
                        out.append(Finding(node.lineno, f"{ast.unparse(node)}: odds read by their words"))
            elif isinstance(node, ast.Subscript) and _matchup_key(node.slice):
                out.append(Finding(node.lineno, f"{ast.unparse(node)}: odds read by their words"))
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
                  and (found := next((p for p in sorted(PHRASES) if p in node.value), None))):
                out.append(Finding(node.lineno, f"{node.value!r}: the engine's phrase {found!r} written out"))
        return sorted(out, key=lambda f: f.line)


def _text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def _matchup_key(node: ast.AST) -> bool:
    """A matchup mapping's key written out: ``"a first"``, ``f"{who} blow {n} @ {t}"``."""
    if isinstance(node, ast.Constant):
        return node.value in MATCHUP_KEYS
    return isinstance(node, ast.JoinedStr) and any(
        isinstance(v, ast.Constant) and (" blow " in v.value or "spell interrupted" in v.value) for v in node.values)


def scan(source: str) -> list[Finding]:
    """What ``source`` does to engine text that a view must not."""
    return _Scan(ast.parse(source)).findings()


# ----------------------------------------------------------------- the views and charts


@pytest.mark.parametrize("path", SCANNED, ids=[p.relative_to(ROOT).as_posix() for p in SCANNED])
def test_no_view_or_chart_takes_engine_words_apart(path):
    found = scan(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} reads engine prose; read the engine's typed fields instead:\n" + \
        "\n".join(map(str, found))


def test_every_view_and_chart_is_scanned():
    names = {p.relative_to(ROOT).as_posix() for p in SCANNED}
    assert {"widgets/views/compare.py", "widgets/views/timeline.py", "widgets/views/prep.py",
            "widgets/views/options_view.py", "widgets/views/editor.py", "widgets/charts/timeline.py",
            "widgets/charts/compare.py"} <= names
    assert "widgets/views/mana.py" not in names
    assert {"--- round ", "initiative: ", "to hit: ", "segment: "} <= PHRASES


# ----------------------------------------------------------------- the scanner itself: each spot #47 found


BAD = {
    "a clock's unit cut at its parenthesis": '''
def _unit(clock):
    return clock.unit.split(" (")[0]
''',
    "a system's title cut, through a helper that returns it": '''
def _system_title(name):
    return SYSTEMS[name].title

def names(group):
    return " and ".join(_system_title(s).split(" (")[0] for s in group)
''',
    "a roll's purpose parsed by a helper it is passed to": '''
def _subject(purpose):
    rest = purpose.partition(": ")[2]
    return rest.split(" -> ")[0]

def mine(timeline, names):
    return [r for r in timeline.rolls if _subject(r.purpose) in names]
''',
    "a roll key's head written out and cut off": '''
def spare(rolls, sides):
    return [k for k in rolls if k.startswith("initiative: ") and k[12:] not in sides]
''',
    "why() lines split, through a nested function": '''
def _why_html(timeline):
    lines = timeline.why()
    notes, actions = lines[: len(timeline.notes)], lines[len(timeline.notes):]

    def action(text):
        when, _, rest = text.partition(": ")
        return when

    return "".join(action(a) for a in actions)
''',
    "a fight's round headings searched for": '''
def _why_html(fight):
    *lines, outcome = fight.why()
    for line in lines:
        if line.startswith("--- round "):
            yield line
''',
    "a span's action cut by a regular expression": '''
import re

def short_label(action):
    text, _, status = action.partition(": ")
    return re.sub(r"\\s*\\([^)]*\\)", "", text.split(" -> ")[0]).strip()

def frame(spans):
    return [short_label(s.action if s.done else f"{s.action}: RUINED") for s in spans]
''',
    "period labels parsed": '''
def merged(clock):
    return [p.label.split(": ")[0] for p in clock.periods]

def short(label, prefix):
    return label[len(prefix) + 1:] if label.startswith(prefix + " ") else label.split(" ")[0]
''',
    "a word looked for in a span's why": '''
def lost(span):
    return "ruined" in span.why
''',
    "an error's words searched for the roll": '''
def refuse(error, purpose):
    message = str(error)
    return message if message.startswith(purpose) else purpose + ": " + message
''',
    "a declaration's note searched by a compiled pattern": '''
import re
WORD = re.compile("potion")

def drinks(d):
    return WORD.search(d.note) is not None
''',
    "an error's field path parsed for the combatant": '''
import re

def who(error, names):
    match = re.match(r"combatants\\[(\\d+)\\]", error.field)
    return names[int(match[1])] if match else ""
''',
    "odds read by the words of their keys": '''
def panel(p):
    return p["a first"], p.get("simultaneous"), "a spell interrupted" in p, p[f"{who} blow {n} @ {t}"]
''',
}


@pytest.mark.parametrize("snippet", list(BAD.values()), ids=list(BAD))
def test_the_scan_catches_each_way_a_view_read_engine_words(snippet):
    assert scan(snippet)


GOOD = '''
import re
from combatkit.dice import roll_key

def fine(timeline, clock, roll, sides, text, odds, description, system, error):
    """A docstring may show "--- round 1" and clock.unit.split(" (") in an example."""
    rows = timeline.why_rows()
    bands = [p.band for p in clock.periods]
    mine = [r for r in timeline.rolls if r.subject in sides]
    key = roll_key("initiative", sides[0])
    numbers = [int(n) for n in re.split(r"[,\\s]+", text.strip())]  # what the user typed
    words = " ".join(description.split())  # an encounter's description, the user's own
    first = odds.a_first + odds.chance(order)
    lines = timeline.why()
    notes = lines[: len(timeline.notes)]  # a slice of the list of lines, not of a line
    who = sides[error.combatant] if error.combatant is not None else ""
    return rows, bands, mine, key, numbers, words, first, notes, system.short_title, f"{clock.unit}s", who
'''


def test_the_scan_lets_typed_reading_and_user_text_be():
    assert scan(GOOD) == []
