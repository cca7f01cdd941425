"""Charts that render with no network: altair's JupyterChart with its JavaScript bundled locally.

``alt.JupyterChart`` loads vega from a CDN by default, which fails offline and behind
firewalls. :func:`enable_offline_charts` builds the self-contained bundle once with
vl-convert (about 1.5 s), caches it on disk keyed by the altair and vl-convert
versions, and reuses it in every later kernel (about 0.06 s).

Served by :mod:`combatkit.widgets.app.serve`, the bundle is not even sent to the page: the server
writes it once where voila serves its template's static files from (:func:`bundle_data`) and names
it in ``COMBATKIT_CHART_BUNDLE``; each chart's module is then a three-line loader that imports it
from there, so the browser fetches it once and caches it, instead of receiving ~1 MB over the
kernel's websocket per chart.

Both copies live in the user's cache folder (``$COMBATKIT_CACHE``, else ``$XDG_CACHE_HOME/combatkit``,
else ``~/.cache/combatkit``), never in the installation: ``pip uninstall combatkit`` leaves nothing
behind in site-packages (#45), and an installation that is read-only still serves the bundle. Deleting
the folder costs one rebuild (about 1.5 s, at the next server start or first chart).

Every chart gets vega-embed's actions menu with "Save as SVG" and "Save as PNG" only (they
work offline: the image is drawn in the page).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import altair as alt
import anywidget

__all__ = ["BUNDLE_ENV", "EMBED_OPTIONS", "ChartSizer", "bundle_data", "bundle_loader", "bundle_path", "chart_view",
           "enable_offline_charts", "write_bundle"]

BUNDLE_ENV = "COMBATKIT_CHART_BUNDLE"
"""Names the bundle's file among the voila template's static files (``/voila/static/``), for kernels started by the
server."""
EMBED_OPTIONS = {"renderer": "svg", "actions": {"export": True, "source": False, "compiled": False, "editor": False}}
"""vega-embed options of every chart: SVG marks (tests count them) and an export-only actions menu."""


def _cache_dir() -> Path:
    base = os.environ.get("COMBATKIT_CACHE") or os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "combatkit"


def bundle_path() -> Path:
    """Where the JupyterChart bundle for the installed altair and vl-convert is cached, in the user's cache folder."""
    import vl_convert

    key = hashlib.sha256(f"{alt.__version__}|{vl_convert.__version__}".encode()).hexdigest()[:16]
    return _cache_dir() / f"jupyterchart-{key}.js"


def bundle_data() -> Path:
    """A Jupyter data folder in the user's cache folder, for the server to put on ``JUPYTER_PATH``: voila serves
    the files of ``voila/templates/<template>/static`` in every such folder as ``/voila/static/``, so the bundle
    written there is served without being written into the installation."""
    return _cache_dir() / "jupyter"


def bundle_loader(filename: str) -> str:
    """A chart module that imports the bundle ``filename`` from voila's static files, wherever the
    page is served (the base URL comes from the page's own configuration).

    The module is loaded at once: it starts the bundle's import and awaits it only in ``render`` (altair's
    module has ``render`` alone). anywidget (0.11) gives a model 2 s to load its module, then rejects it for good
    ("[anywidget] Failed to initialize model.") and drops every later message from the kernel: awaited at the
    module's top, the 0.9 MB bundle took longer on a cold first visit to a busy machine, and the chart then never
    redrew (#45, ``tests/browser/test_chart_bundle.py``)."""
    return (
        'const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);\n'
        "const base = new URL(config.baseUrl || \"/\", window.location.href);\n"
        f'const bundle = import(new URL("voila/static/{filename}?v={Path(filename).stem}", base).href);\n'
        "export default { render: async (context) => (await bundle).default.render(context) };\n"
    )


def write_bundle(folder: Path) -> str:
    """Write the bundle into ``folder`` (once per altair and vl-convert version); returns its file name."""
    enable_offline_charts()
    path = folder / bundle_path().name
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(alt.JupyterChart._esm, encoding="utf-8")
        tmp.replace(path)
    return path.name


def enable_offline_charts() -> None:
    """Make every JupyterChart load its JavaScript from a local bundle (built once, cached)."""
    cls = alt.JupyterChart
    if getattr(cls, "_is_offline", False):
        return
    if os.environ.get(BUNDLE_ENV):
        cls._esm = bundle_loader(os.environ[BUNDLE_ENV])
        cls._is_offline = True
        return
    path = bundle_path()
    if path.is_file():
        cls._esm = path.read_text(encoding="utf-8")
        cls._is_offline = True
        return
    cls.enable_offline()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(cls._esm, encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only home still renders; it just rebuilds the bundle next time


def chart_view(chart: alt.TopLevelMixin, **kwargs) -> alt.JupyterChart:
    """A JupyterChart for ``chart`` that renders offline (in JupyterLab and Voila), with
    :data:`EMBED_OPTIONS` unless ``embed_options`` are given. Shown on its own in a notebook (not inside
    a view), it brings a :class:`ChartSizer` along, so a container-wide chart is as wide as its cell."""
    enable_offline_charts()
    return _SizedChart(chart, **{"embed_options": EMBED_OPTIONS, **kwargs})


class _SizedChart(alt.JupyterChart):
    """A JupyterChart that, displayed as a cell's output, is shown with a :class:`ChartSizer` (inside a view,
    the view shows one)."""

    def _repr_mimebundle_(self, **kwargs):  # type: ignore[no-untyped-def]
        import ipywidgets as widgets

        return widgets.VBox([ChartSizer(), self])._repr_mimebundle_(**kwargs)


_SIZER_ESM = """
function render({ el }) {
  el.style.display = "none";
  if (window.__combatkitChartSizer) return;
  window.__combatkitChartSizer = true;
  const widths = new WeakMap();
  let pending = false;
  const resized = (entries) => {
    let changed = false;
    for (const entry of entries) {
      const width = Math.round(entry.contentRect.width);
      if (widths.get(entry.target) !== width) { widths.set(entry.target, width); changed = true; }
    }
    if (changed && !pending) {
      pending = true;
      requestAnimationFrame(() => { pending = false; window.dispatchEvent(new Event("resize")); });
    }
  };
  const sizes = new ResizeObserver(resized);
  const seen = new WeakSet();
  let scanning = false;
  const scan = () => {  // vega-embed marks a widget's own element: look again whenever the page changes
    scanning = false;
    document.querySelectorAll(".vega-embed").forEach((e) => { if (!seen.has(e)) { seen.add(e); sizes.observe(e); } });
  };
  scan();
  new MutationObserver(() => {
    if (!scanning) { scanning = true; requestAnimationFrame(scan); }
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
}
export default { render };
"""


class ChartSizer(anywidget.AnyWidget):
    """Invisible; keeps every chart of the page as wide as its container.

    A chart with ``width="container"`` measures its container when it is first drawn and again only when
    the window is resized: drawn before its widget is in the page (or inside a closed accordion), it would
    stay 0 px wide. This widget, once per page, watches every chart's container and tells the charts to
    measure again when one changes size. Every view with a container-wide chart shows one.
    """

    _esm = _SIZER_ESM
