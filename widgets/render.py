"""Charts that render with no network: altair's JupyterChart with its JavaScript bundled locally.

``alt.JupyterChart`` loads vega from a CDN by default, which fails offline and behind
firewalls. :func:`enable_offline_charts` builds the self-contained bundle once with
vl-convert (about 1.5 s), caches it on disk keyed by the altair and vl-convert
versions, and reuses it in every later kernel (about 0.06 s).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import altair as alt

__all__ = ["bundle_path", "chart_view", "enable_offline_charts"]


def _cache_dir() -> Path:
    base = os.environ.get("COMBATKIT_CACHE") or os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "combatkit"


def bundle_path() -> Path:
    """Where the JupyterChart bundle for the installed altair and vl-convert lives."""
    import vl_convert

    key = hashlib.sha256(f"{alt.__version__}|{vl_convert.__version__}".encode()).hexdigest()[:16]
    return _cache_dir() / f"jupyterchart-{key}.js"


def enable_offline_charts() -> None:
    """Make every JupyterChart load its JavaScript from a local bundle (built once, cached)."""
    cls = alt.JupyterChart
    if getattr(cls, "_is_offline", False):
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
    """A JupyterChart for ``chart`` that renders offline (in JupyterLab and Voila)."""
    enable_offline_charts()
    return alt.JupyterChart(chart, **kwargs)
