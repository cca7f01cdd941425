"""Print, as shell ``export`` lines, what combatkit's dashboards need under Jupyter Server and voila's server
extension, as on Binder (``binder/start`` evaluates them before every launch).

``combatkit serve`` runs a voila of its own and sets this up itself (:func:`combatkit.widgets.app.serve.run`); Binder
runs Jupyter Server, where voila is an extension serving ``/voila/render/<path>`` under the server's base URL
(``/user/<name>/`` on mybinder.org). The same pieces, for that server:

* ``JUPYTER_PATH``: the package's Jupyter data folder first (:data:`~combatkit.widgets.app.serve.TEMPLATE_ROOT`: the
  ``combatkit`` voila template, voila's ``lab`` without its CDN links; the dashboards' kernel spec), then the one in
  the user's cache that holds the charts' JavaScript bundle;
* ``COMBATKIT_CHART_BUNDLE``: that bundle, written there once (about 1.5 s: ``binder/postBuild`` builds it into the
  image), which voila serves as ``voila/static/<name>`` and each chart imports from the page's own base URL
  (:mod:`combatkit.widgets.charts.render`), instead of receiving ~1 MB over its kernel's websocket; where the cache
  cannot be written, it is left unset and each chart carries the bundle itself, as under ``combatkit serve``;
* ``JUPYTER_CONFIG_PATH``: ``binder/jupyter`` first. Its ``voila.json`` (read by voila's extension) gives the
  settings of a shared link: the ``combatkit`` template, which a link cannot change; no tracebacks and no code in a
  page; of the environment's lab extensions, only voila's widget manager (voila keeps the one for the installed
  ipywidgets), the widgets' own and anywidget (Binder's others can throw in a voila page). Its
  ``jupyter_server_config.json`` gives each cell a time limit (voila has none) and a longer wait for its outputs,
  culls the kernels of closed pages, and names no MathJax (neither its URL nor its configuration: voila's page
  fetches it from a CDN unless both are unset), as ``combatkit serve``'s voila names none; no dashboard writes math.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from combatkit.widgets.app.serve import bundle_static, jupyter_environ
from combatkit.widgets.charts.render import BUNDLE_ENV, bundle_data, write_bundle


def _paths(*lists: str) -> str:
    """Search paths joined, in order, each folder once."""
    return os.pathsep.join(dict.fromkeys(p for listed in lists for p in listed.split(os.pathsep) if p))


def environment() -> dict[str, str]:
    """The variables to set, the chart bundle written where voila serves it (once per altair and vl-convert)."""
    os.environ.pop(BUNDLE_ENV, None)  # set by an earlier launch: the bundle is written, not a loader of it
    config = str(Path(__file__).resolve().parent / "jupyter")
    found = {"JUPYTER_CONFIG_PATH": _paths(config, os.environ.get("JUPYTER_CONFIG_PATH", ""))}
    try:
        found[BUNDLE_ENV] = write_bundle(bundle_static())
        found["JUPYTER_PATH"] = _paths(str(bundle_data()), os.environ.get("JUPYTER_PATH", ""))
    except OSError:
        found["JUPYTER_PATH"] = os.environ.get("JUPYTER_PATH", "")
    return jupyter_environ(found)


if __name__ == "__main__":
    found = environment()
    for name, value in found.items():
        print(f"export {name}={shlex.quote(value)}")
    if BUNDLE_ENV not in found:
        print(f"unset {BUNDLE_ENV}")
