"""A dashboard's state in its URL: read a query string safely, write the current view back as a link.

A dashboard declares the keys its URL may carry, each bound to what it shows (a control, or a
value the view holds) with a type: a whole number in a range, a yes/no, one of a closed set of
choices, a short plain text, a short list of whole numbers. :func:`parse_query` reads a query
string against that whitelist: it never evaluates anything. A key it does not know, a value of
the wrong type or out of range, or a repeated key is named in a plain-language problem and left
out, and every other value of the link is still read, so a link with one bad value opens all it
can and says which value it dropped; a query that is not ``key=value`` pairs or is overlong is not
read at all. :func:`shareable` wraps a view with that message and a "copy link" control whose URL
carries only what the view applies: a value a control holds but the view refused ("Not
applied") never goes into the link or the address bar, so whoever opens it sees what the
sender saw. It also says under the link what the link cannot carry (an encounter too big for a link),
and offers the file instead.

An encounter that is not a shipped example as shipped (opened from a file, pasted in, edited) goes into the
link under one key (:func:`encounter_param`): its file as :func:`~combatkit.encounter_files.dumps_toml` writes
it, deflated and in URL-safe base64 (:func:`pack_encounter`), at most :data:`MAX_ENCOUNTER` characters. It is
read back by the file reader with all its checks (:func:`unpack_encounter`), its size bounded while it is
inflated, so a crafted link costs no more than :data:`MAX_ENCOUNTER_BYTES` of memory.

>>> from ipywidgets import IntText
>>> level = IntText(5)
>>> params = [control_param("level", level, low=1, high=20)]
>>> parse_query("level=7", params).values
{'level': 7}
>>> print(*parse_query("level=__import__('os')", params).problems)
level: must be a whole number 1..20, got "__import__('os')"
>>> level.value = 9
>>> build_query(current_state(params), params)
'level=9'
>>> parsed = parse_query("level=7&colour=red", params)
>>> parsed.values, parsed.problems
({'level': 7}, ['"colour" is not a setting of this dashboard (it knows level)'])
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import enum
import functools
import html
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

import anywidget
import ipywidgets as widgets
import traitlets

from combatkit.dice import Dice, DiceNotationError, Roller
from combatkit.encounter import Encounter
from combatkit.encounter_files import dumps_toml, loads_encounter
from combatkit.errors import error_words
from combatkit.widgets.messages import alert_html, bullets

__all__ = ["COPY_ON_CLICK_JS", "MAX_DICE", "MAX_ENCOUNTER", "MAX_ENCOUNTER_BYTES", "MAX_QUERY", "Applied", "CopyLink", "Param",
           "ParsedQuery", "bool_param", "build_query", "choice_param", "control_param", "current_state", "dice_param",
           "encounter_param", "int_list_param", "int_param", "options_params", "pack_encounter", "parse_query",
           "shareable", "text_param", "unpack_encounter"]

MAX_ENCOUNTER = 6000
"""Longest encounter a link carries, packed (:func:`pack_encounter`), in characters; a shipped example packs to
750..1,400. With the view's other settings and the page's address, a link then stays within about 8,000 characters,
which browsers, chat apps and web servers pass whole. A larger encounter is left out of the link, and the page says
so under it and offers its file."""
MAX_ENCOUNTER_BYTES = 65536
"""Most bytes an encounter in a link unpacks to (its TOML file): inflating stops there, so a link that would
unpack to more (a compression bomb) is refused having used no more memory than this."""
MAX_QUERY = MAX_ENCOUNTER + 2000
"""Longest query string read, in characters: an encounter and the view's other settings (anything longer is
refused)."""
MAX_FIELDS = 64
"""Most ``key=value`` pairs read."""
_TEXT = re.compile(r"[\w .,'()+\-/]{0,40}")
"""What a text value may hold: letters, digits and a little punctuation, at most 40 characters."""
MAX_DICE = 32
"""Most dice a link carries (the largest shipped example rolls 29 different dice under the six systems)."""
_DIE = re.compile(r"(?P<purpose>[\w :,'()\[\]>.\-]{1,80})~(?P<dice>[0-9A-Za-z+\-]{1,16})"
                  r"~(?P<value>-?[0-9]{1,6}(?:,-?[0-9]{1,6}){0,99}|seed)")
"""One die in a link: what the roll is for, its dice, and the number rolled or ``seed``, joined by ``~``."""


@dataclass(frozen=True)
class Param:
    """One key a dashboard's URL may carry."""

    key: str
    """The query-string key."""
    parse: Callable[[str], Any]
    """Reads the text of the URL; raises ValueError with the rule the text broke."""
    format: Callable[[Any], str]
    """Writes a value as the URL's text (the inverse of ``parse``)."""
    get: Callable[[], Any]
    """The value the view applies now: what it shows. A value a control holds that the view refused (it says
    "Not applied") is not it: the link keeps the last value the view applied."""
    set: Callable[[Any], None]
    """Shows a value read from a URL. It may refuse a value only the view can judge (a combatant's name
    depends on the encounter the link opens) by raising ValueError, leaving the view as it was:
    :func:`shareable` then names the problem and applies the link's other values."""
    default: Any = None
    """The value of the default view: left out of the link."""
    quoted: bool = True
    """Whether a problem with the link's text quotes it (``got "..."``); not for a packed value, whose text
    means nothing to a reader."""


@dataclass(frozen=True)
class ParsedQuery:
    """What :func:`parse_query` read."""

    values: dict[str, Any] = field(default_factory=dict)
    """Each key given that was read, and its value (a key with a problem is left out)."""
    problems: list[str] = field(default_factory=list)
    """What was wrong, one line each; empty when the whole query was read."""


def _shown(text: str) -> str:
    return '"' + (text if len(text) <= 60 else text[:57] + "...") + '"'


def parse_query(query: str | None, params: Sequence[Param]) -> ParsedQuery:
    """Read ``query`` (without its ``?``) against the whitelist ``params``."""
    query = (query or "").lstrip("?")
    if not query:
        return ParsedQuery()
    if len(query) > MAX_QUERY:
        return ParsedQuery(problems=[f"the link's settings are {len(query)} characters long; at most {MAX_QUERY} "
                                     "are read"])
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        return ParsedQuery(problems=["the link's settings are not key=value pairs joined by &"])
    known = {p.key: p for p in params}
    values: dict[str, Any] = {}
    problems: list[str] = []
    given = [key for key, _ in pairs]
    for key, text in pairs:
        param = known.get(key)
        if param is None:
            problems.append(f"{_shown(key)} is not a setting of this dashboard (it knows {', '.join(known)})")
        elif given.count(key) > 1:
            if f"{key}: given more than once" not in problems:
                problems.append(f"{key}: given more than once")
        else:
            try:
                values[key] = param.parse(text)
            except ValueError as error:
                problems.append(f"{key}: {error}, got {_shown(text)}" if param.quoted else f"{key}: {error}")
    return ParsedQuery(values=values, problems=problems)


def current_state(params: Sequence[Param]) -> dict[str, Any]:
    """What the view shows now, by key."""
    return {p.key: p.get() for p in params}


def build_query(values: dict[str, Any], params: Sequence[Param]) -> str:
    """The query string for ``values``; values of the default view are left out."""
    return urlencode([(p.key, p.format(values[p.key])) for p in params
                      if p.key in values and values[p.key] is not None and values[p.key] != p.default], safe=",/:;")


def apply_state(values: dict[str, Any], params: Sequence[Param]) -> list[str]:
    """Show ``values`` (as read by :func:`parse_query`), in the order of ``params``; a value a ``set`` refuses
    is left out and the others are still shown. Returns each refusal as a problem line (``[]`` when every
    value was shown)."""
    problems = []
    for param in params:
        if param.key in values:
            try:
                param.set(values[param.key])
            except ValueError as error:
                problems.append(f"{param.key}: {error}")
    return problems


def _round_trips(param: Param, value: Any) -> bool:
    """Whether ``value`` written as a link's text reads back under ``param``'s own whitelist."""
    if value is None:
        return True
    try:
        param.parse(param.format(value))
    except (ValueError, TypeError):
        return False
    return True


class Applied:
    """The values a view's controls held when the view last applied them: what a link carries for a
    control whose current value the view may have refused (see :func:`control_param`'s ``applied``).

    >>> from ipywidgets import IntText
    >>> ac, applied = IntText(6), Applied()
    >>> applied.commit([ac])
    >>> ac.value = -12  # typed, and refused by the view: not committed
    >>> applied.value(ac), ac.value
    (6, -12)
    """

    def __init__(self) -> None:
        self._values: dict[int, Any] = {}

    def commit(self, controls: Sequence[widgets.ValueWidget]) -> None:
        """Record what ``controls`` hold now: the view applied it."""
        for control in controls:
            self._values[id(control)] = control.value

    def value(self, control: widgets.ValueWidget) -> Any:
        """What ``control`` held when it was last applied (its value now, if never committed)."""
        return self._values.get(id(control), control.value)


# ------------------------------------------------------------ kinds of value

def _read_int(text: str, low: int, high: int) -> int:
    if not re.fullmatch(r"[+-]?\d{1,10}", text) or not low <= int(text) <= high:
        raise ValueError(f"must be a whole number {low}..{high}")
    return int(text)


def int_param(key: str, get: Callable[[], int], set: Callable[[int], None], *, low: int, high: int,
              default: int | None = None) -> Param:
    """A whole number from ``low`` to ``high``."""
    return Param(key, lambda text: _read_int(text, low, high), str, get, set, default)


def int_list_param(key: str, get: Callable[[], list[int]], set: Callable[[list[int]], None], *, low: int,
                   high: int, most: int, default: list[int] | None = None) -> Param:
    """Up to ``most`` whole numbers from ``low`` to ``high``, written ``3,7``."""
    def parse(text: str) -> list[int]:
        items = text.split(",")
        if len(items) > most:
            raise ValueError(f"at most {most} numbers")
        try:
            return [_read_int(item.strip(), low, high) for item in items]
        except ValueError:
            raise ValueError(f"must be whole numbers {low}..{high} separated by commas") from None

    return Param(key, parse, lambda values: ",".join(map(str, values)), get, set, default)


def bool_param(key: str, get: Callable[[], bool], set: Callable[[bool], None], *,
               default: bool | None = None) -> Param:
    """Yes or no, written ``1`` or ``0``."""
    def parse(text: str) -> bool:
        if text not in ("0", "1"):
            raise ValueError("must be 1 (yes) or 0 (no)")
        return text == "1"

    return Param(key, parse, lambda value: "1" if value else "0", get, set, default)


def _token(value: Any) -> str:
    return value.name.lower() if isinstance(value, enum.Enum) else str(value)


def choice_param(key: str, choices: Sequence[Any], get: Callable[[], Any], set: Callable[[Any], None], *,
                 default: Any = None) -> Param:
    """One of ``choices``, written as its name (an enum member's name in lower case)."""
    by_token = {_token(choice): choice for choice in choices}

    def parse(text: str) -> Any:
        if text not in by_token:
            names = list(by_token)
            raise ValueError("must be one of " + ", ".join(names[:12]) + (", ..." if len(names) > 12 else ""))
        return by_token[text]

    return Param(key, parse, _token, get, set, default)


def text_param(key: str, get: Callable[[], str], set: Callable[[str], None], *, default: str | None = None) -> Param:
    """A short plain text: letters, digits, spaces and ``.,'()+-/``, at most 40 characters."""
    def parse(text: str) -> str:
        if not _TEXT.fullmatch(text):
            raise ValueError("must be at most 40 letters, digits, spaces or .,'()+-/")
        return text

    return Param(key, parse, str, get, set, default)


def _write_die(value: Any) -> str:
    if value is None:
        return "seed"
    return str(value) if isinstance(value, int) else ",".join(map(str, value))


def dice_param(key: str, get: Callable[[], dict], set: Callable[[dict], None], *, most: int = MAX_DICE) -> Param:
    """Numbers rolled at the table over the encounter's own, by what each roll is for and its dice, as
    :attr:`~combatkit.widgets.views.dice_entry.DiceEntry.changes` holds them: ``{("initiative: party", "d10"): 7}``,
    a total, each die's face (``(2, 5)``) or None (not entered: rolled with the seed).

    Written ``what~dice~number``, joined by ``;``: what the roll is for (at most 80 letters, digits,
    spaces or ``:,-'>[]().``), its dice in standard notation, and a total (``7``), each die's face
    (``2,5``) or ``seed``. At most ``most`` of them; none (the default view) is left out of the link.
    Each dice is read by :meth:`combatkit.Dice.parse` and each number checked by its dice
    (:class:`combatkit.Roller`), so a link cannot enter a number its dice cannot roll.

    >>> dice = dice_param("dice", dict, print)
    >>> read = parse_query("dice=initiative:+party~d10~7;blows:+Ugluk~2d6~2,5;segment:+A~d10~seed", [dice]).values
    >>> read
    {'dice': {('initiative: party', 'd10'): 7, ('blows: Ugluk', '2d6'): (2, 5), ('segment: A', 'd10'): None}}
    >>> build_query(read, [dice])
    'dice=initiative:+party~d10~7;blows:+Ugluk~2d6~2,5;segment:+A~d10~seed'
    >>> print(*parse_query("dice=initiative:+party~d10~11", [dice]).problems)
    dice: initiative: party: d10 rolls 1..10, so 11 cannot have been rolled, got "initiative: party~d10~11"
    """
    def parse(text: str) -> dict[tuple[str, str], Any]:
        items = text.split(";") if text else []
        if len(items) > most:
            raise ValueError(f"at most {most} dice, {len(items)} given")
        entries: dict[tuple[str, str], Any] = {}
        for item in items:
            match = _DIE.fullmatch(item)
            if match is None:
                raise ValueError(f"{_shown(item)} is not what~dice~number (what the roll is for: at most 80 letters, "
                                 "digits, spaces or :,-'>[](). ; its dice: d10, 2d6; a total like 7, each die's face "
                                 "like 2,5, or seed)")
            purpose, notation, number = match.groups()
            try:
                dice = str(Dice.parse(notation))
            except DiceNotationError as error:
                raise ValueError(f"{purpose}: {error}") from None
            if (purpose, dice) in entries:
                raise ValueError(f"{purpose} ({dice}) is given twice")
            value = None
            if number != "seed":
                numbers = tuple(int(n) for n in number.split(","))
                value = numbers[0] if len(numbers) == 1 else numbers
                Roller(entered={purpose: value}).roll(dice, purpose)  # the dice's check: its error names the roll
            entries[(purpose, dice)] = value
        return entries

    return Param(key, parse, lambda entries: ";".join(f"{p}~{d}~{_write_die(v)}" for (p, d), v in entries.items()),
                 get, set, {})


_PACKED = re.compile(r"[A-Za-z0-9_-]*")
"""URL-safe base64 without its padding: what a packed encounter is written in."""


@functools.lru_cache(maxsize=8)
def pack_encounter(encounter: Encounter) -> str | None:
    """``encounter`` as a link carries it: its TOML file (:func:`~combatkit.encounter_files.dumps_toml`), raw
    deflate (RFC 1951), URL-safe base64 without padding (RFC 4648 §5). None when it is too big for a link (its
    file over :data:`MAX_ENCOUNTER_BYTES`, or packed over :data:`MAX_ENCOUNTER` characters): send the file.

    >>> from combatkit import load_example
    >>> packed = pack_encounter(load_example("ct9-spell-vs-sword"))
    >>> unpack_encounter(packed) == load_example("ct9-spell-vs-sword"), len(packed) < 1000
    (True, True)
    """
    text = dumps_toml(encounter).encode("utf-8")
    if len(text) > MAX_ENCOUNTER_BYTES:
        return None
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = base64.urlsafe_b64encode(deflate.compress(text) + deflate.flush()).decode("ascii").rstrip("=")
    return packed if len(packed) <= MAX_ENCOUNTER else None


def _inflate(data: bytes, most: int) -> bytes:
    """Raw deflate ``data`` inflated, refused once it passes ``most`` bytes: never more than that is held."""
    inflater = zlib.decompressobj(-15)
    try:
        text = inflater.decompress(data, most + 1)
    except zlib.error:
        raise ValueError("the encounter in this link is damaged: it is not deflate data") from None
    if len(text) > most:
        raise ValueError(f"the encounter in this link unpacks to more than {most:,} bytes, more than any encounter "
                         "a link carries: refused unread")
    if not inflater.eof or inflater.unused_data:
        raise ValueError("the encounter in this link is damaged: its deflate data is cut short or runs on")
    return text


@functools.lru_cache(maxsize=8)
def unpack_encounter(text: str) -> Encounter:
    """The encounter a link's ``text`` packs (:func:`pack_encounter`), read by the encounter file reader with all
    its checks (:func:`~combatkit.encounter_files.loads_encounter`). Raises ValueError saying what is wrong: too
    long, not URL-safe base64, not deflate, over :data:`MAX_ENCOUNTER_BYTES` unpacked (found while inflating,
    before more is held), not UTF-8, or a file the reader refuses (its field and value).

    >>> unpack_encounter("aGVsbG8")  # "hello": base64, but not deflate
    Traceback (most recent call last):
    ...
    ValueError: the encounter in this link is damaged: it is not deflate data
    """
    if len(text) > MAX_ENCOUNTER:
        raise ValueError(f"the encounter in this link is {len(text):,} characters long; a link carries at most "
                         f"{MAX_ENCOUNTER:,} (a larger one is sent as a file)")
    if not _PACKED.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("the encounter in this link is damaged: it is not URL-safe base64 (letters, digits, - "
                         "and _)")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error:
        raise ValueError("the encounter in this link is damaged: it is not URL-safe base64") from None
    try:
        toml = _inflate(data, MAX_ENCOUNTER_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the encounter in this link is not UTF-8 text") from None
    try:
        return loads_encounter(toml, "toml")
    except ValueError as error:
        raise ValueError(f"the encounter in this link cannot be read: {error_words(error)}") from None


def encounter_param(key: str, get: Callable[[], Encounter | None], set: Callable[[Encounter], None]) -> Param:
    """A whole encounter, packed (:func:`pack_encounter`); ``get`` returns the one the link carries, or None
    (none: a shipped example the link names, or one too big for a link). Read back by :func:`unpack_encounter`:
    a problem is named without quoting the packed text."""
    def write(encounter: Encounter) -> str:
        packed = pack_encounter(encounter)
        if packed is None:
            raise ValueError(f"{encounter.title!r} is too big for a link")
        return packed

    return Param(key, unpack_encounter, write, get, set, quoted=False)


def control_param(key: str, control: widgets.ValueWidget, *, low: int = -(2**31), high: int = 2**31 - 1,
                  applied: Applied | None = None) -> Param:
    """A key bound to ``control``; its kind follows the control's, its default is the control's value now.
    With ``applied``, the link carries what the control held when the view last applied it, not a value
    it refused."""
    def set_value(value: Any) -> None:
        control.value = value

    def get_value() -> Any:
        return control.value if applied is None else applied.value(control)

    default = control.value
    if isinstance(control, widgets.Checkbox):
        return bool_param(key, get_value, set_value, default=default)
    if isinstance(control, (widgets.IntText, widgets.BoundedIntText, widgets.IntSlider)):
        return int_param(key, get_value, set_value, low=low, high=high, default=default)
    if isinstance(control, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons)):
        choices = [item[1] if isinstance(item, tuple) else item for item in control.options]
        choices = [value for value in choices if value is not None]
        return choice_param(key, choices, get_value, set_value, default=default)
    if isinstance(control, widgets.Text):
        return text_param(key, get_value, set_value, default=default)
    raise TypeError(f"no URL kind for a {type(control).__name__}")


def options_params(get: Callable[[], Any], set: Callable[[Any], None]) -> list[Param]:
    """One key per field of a frozen options dataclass (yes/no, enum or whole-number fields), named as
    the field; ``get`` returns the options in force, ``set`` puts new ones in force."""
    params = []
    for item in dataclasses.fields(get()):
        default = getattr(get(), item.name)

        def read(name: str = item.name) -> Any:
            return getattr(get(), name)

        def write(value: Any, name: str = item.name) -> None:
            set(dataclasses.replace(get(), **{name: value}))

        if isinstance(default, bool):
            params.append(bool_param(item.name, read, write, default=default))
        elif isinstance(default, enum.Enum):
            params.append(choice_param(item.name, list(type(default)), read, write, default=default))
        elif isinstance(default, int):
            params.append(int_param(item.name, read, write, low=0, high=100, default=default))
        else:
            raise TypeError(f"no URL kind for option {item.name} = {default!r}")
    return params


# ------------------------------------------------------------ the page

COPY_ON_CLICK_JS = """
function copyOnClick(button, box, note, before = () => {}) {
  button.addEventListener("click", async () => {
    before();
    try {
      await navigator.clipboard.writeText(box.value);
      note.textContent = "Link copied.";
    } catch (error) {
      box.focus();
      box.select();
      note.textContent = "Press Ctrl+C to copy the selected link.";
    }
  });
}
"""
"""The JavaScript a link's Copy button runs (``copyOnClick(button, box, note, before)``): the link in ``box`` to the
clipboard, or, where the page may not write it (no secure context), the link selected for Ctrl+C; ``note`` says
which. Each copy-link widget's module begins with it."""

_COPY_LINK_ESM = COPY_ON_CLICK_JS + """
function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "jupyter-button widget-button ck-copy-link";
  button.textContent = "Copy link";
  button.title = "Copy a link that opens exactly this view";
  const box = document.createElement("input");
  box.className = "widget-input ck-link-url";
  box.setAttribute("aria-label", "The link to this view");
  box.readOnly = true;
  box.style.width = "min(70vw, 760px)";
  box.style.margin = "0 8px";
  const note = document.createElement("span");
  note.className = "ck-link-note";
  const caveat = document.createElement("span");
  caveat.className = "ck-link-caveat";
  caveat.style.color = "#7e5109";
  caveat.style.flexBasis = "100%";
  caveat.style.marginTop = "2px";
  const text = document.createElement("span");
  const offer = document.createElement("span");
  offer.className = "ck-link-offer";
  offer.style.marginLeft = "6px";
  caveat.append(text, offer);
  const warn = () => {
    text.textContent = model.get("caveat");
    offer.innerHTML = model.get("offer");
    caveat.style.display = model.get("caveat") ? "" : "none";
  };
  model.on("change:caveat", warn);
  model.on("change:offer", warn);
  warn();
  const link = () => {
    const url = new URL(window.location.href);
    url.search = model.get("query");
    url.hash = "";
    return url.toString();
  };
  const show = () => {
    box.value = link();
    note.textContent = "";
    window.history.replaceState(window.history.state, "", box.value);
  };
  model.on("change:query", show);
  show();
  copyOnClick(button, box, note, () => { box.value = link(); });
  const row = document.createElement("div");  // the widget's layout owns el's own style
  row.style.display = "flex";
  row.style.flexWrap = "wrap";
  row.style.alignItems = "center";
  row.append(button, box, note, caveat);
  el.append(row);
}
export default { render };
"""


class CopyLink(anywidget.AnyWidget):
    """A "Copy link" button and the link it copies: this page's address with ``query`` as its query string.

    The page's address bar follows ``query`` too, so a reload, a bookmark or a link copied from
    the address bar also reopens the view. ``caveat``, when not empty, is shown under the link
    (``.ck-link-caveat``): what the link does not carry; ``offer`` after it (``.ck-link-offer``): a link to
    the file that carries it.
    """

    _esm = _COPY_LINK_ESM
    query = traitlets.Unicode("").tag(sync=True)
    """The current view's query string, without ``?``."""
    caveat = traitlets.Unicode("").tag(sync=True)
    """What the link cannot reproduce of the view, in a sentence; ``""``: nothing."""
    offer = traitlets.Unicode("").tag(sync=True)
    """HTML the view built (its text escaped): a download link to what the link cannot carry; ``""``: none."""


def _message_html(problems: Sequence[str], applied: Sequence[str]) -> str:
    if not applied:
        return alert_html("<b>This link's settings could not be used, so the dashboard shows its default view.</b>"
                          + bullets(problems))
    return alert_html(f"<b>Part of this link could not be used.</b> Applied: {html.escape(', '.join(applied))}; "
                      "left out:" + bullets(problems))


def _value_widgets(widget: widgets.Widget) -> list[widgets.ValueWidget]:
    found, stack = [], [widget]
    while stack:
        item = stack.pop()
        if isinstance(item, widgets.ValueWidget):
            found.append(item)
        stack.extend(getattr(item, "children", ()))
    return found


def shareable(view: widgets.Widget, query: str | None) -> widgets.VBox:
    """``view`` opened at what ``query`` asks for, under a "Copy link" control.

    ``view`` has ``url_params()``: the :class:`Param` list of its URL. A value the whitelist rejects,
    or one a :attr:`Param.set` refuses, is left out and named above the view; the link's other values
    are applied. The link (and the address bar) is written from what the view applies
    (:attr:`Param.get`), and a value that would not read back under the whitelist keeps the last one
    that did, so a link never holds what the page refused. ``view`` may also have
    ``url_caveat() -> str``: what a link cannot carry of what it shows now, in a sentence (``""``:
    nothing; e.g. an encounter too big for a link), read each time the link is updated and shown
    under it, and ``url_offer() -> str``: HTML of a link that saves what the link cannot carry (its file),
    shown after that sentence.
    """
    params = view.url_params()
    parsed = parse_query(query, params)
    refused = apply_state(parsed.values, params)
    problems = [*parsed.problems, *refused]
    applied = [key for key in parsed.values if not any(line.startswith(f"{key}: ") for line in refused)]
    message = widgets.HTML(_message_html(problems, applied) if problems else "",
                           layout=widgets.Layout(display=None if problems else "none"))
    message.add_class("ck-url-message")
    link = CopyLink()
    link.add_class("ck-link")
    caveat = getattr(view, "url_caveat", lambda: "")
    offer = getattr(view, "url_offer", lambda: "")
    watched: set[int] = set()
    written: dict[str, Any] = {}

    def follow(_change: Any = None) -> None:
        state = current_state(params)
        for param in params:
            if _round_trips(param, state[param.key]):
                written[param.key] = state[param.key]
            else:  # the page refuses it too: keep what the link last held
                state[param.key] = written.get(param.key, param.default)
        link.query = build_query(state, params)
        link.caveat = caveat()
        link.offer = offer() if link.caveat else ""
        for control in _value_widgets(view):  # controls a view creates later (e.g. one per side) too
            if id(control) not in watched:
                watched.add(id(control))
                control.observe(follow, "value")

    follow()
    return widgets.VBox([message, link, view])
