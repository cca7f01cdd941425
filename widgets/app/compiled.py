"""The engine the dashboards' kernels run: compiled where it can be, pure Python until then (#18).

The compiled build of the engine (``setup.py``, "A compiled build" in docs/at-scale.md) plays every fight as the
pure-Python package does, about twice as fast: encounter prep's six systems at ±2% take some 7.5 s instead of 15-18 s
on one 2-core machine, 11-14 s instead of 24-26 s on a slower one. ``combatkit serve`` (what ``make dashboards`` runs)
serves it without being asked, where it can:

* a build for this very source (a digest of the package's files, :func:`source_digest`) is ready: kernels import
  the engine from it (:func:`kernel_environ`: it goes first on their ``PYTHONPATH``);
* else, in a checkout with a C compiler, the Python headers and mypyc at hand, it is built in the background at the
  lowest priority (2.5-4.5 minutes of one core, once per version of the source; :class:`Build`) while the server
  runs pure Python, and kernels started after it is ready run it: the server then restarts the kernels waiting
  for a visitor (:func:`combatkit.widgets.app.serve.renew_pools`). A page already open stays pure Python until it is
  opened again;
* else (an installed package, no compiler, a build that failed, ``--engine pure``) everything stays pure Python,
  and the console says why in one line.

Builds live in the environment (``<sys.prefix>/combatkit-compiled/<digest>``); a new one removes the older ones.
Nothing is built into the checkout: the build runs on a copy of its files (:func:`source_tree`).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["BUILD", "ENGINES", "Build", "builds_home", "checkout_root", "kernel_environ", "ready_site", "source_digest",
           "source_tree", "start", "unbuildable"]

ENGINES = ("auto", "pure")
"""``combatkit serve --engine``: ``auto`` serves the compiled engine as above, ``pure`` never builds nor uses it."""

SOURCES = ("combatkit", "widgets", "setup.py", "pyproject.toml")
"""What a build's digest reads in a checkout: the package's source (the engine and this layer) and how it is built."""

STALE_AFTER = 3600
"""Seconds after which a build folder left unfinished (a server stopped mid-build) is removed."""

BUILD = ("import sys; from setuptools import build_meta; "
          "print(build_meta.build_wheel(sys.argv[1]))")
"""Builds the wheel into the folder given with the running environment's setuptools: no build isolation, so no
network (the tests build the wheels they check with it too)."""


def checkout_root() -> Path | None:
    """The checkout the running combatkit is imported from (``pip install -e .``), or None (an installed wheel)."""
    import combatkit

    root = Path(combatkit.__file__).resolve().parent.parent
    return root if (root / "setup.py").is_file() and (root / "widgets" / "app" / "compiled.py").is_file() else None


def source_digest(root: Path) -> str:
    """A digest of the files of ``root`` a build is made from (:data:`SOURCES`) and of this Python: a build is
    used only for the very source and interpreter it was made from."""
    digest = hashlib.sha256(f"{sys.implementation.cache_tag} {sysconfig.get_platform()}".encode())
    for name in SOURCES:
        top = root / name
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file()
                                                   and "__pycache__" not in p.parts and p.suffix != ".pyc")
        for path in files:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def builds_home() -> Path:
    """Where builds are kept: in the environment, beside its packages."""
    return Path(sys.prefix) / "combatkit-compiled"


def ready_site(home: Path, digest: str) -> Path | None:
    """The folder of the finished build ``digest`` under ``home``, to put on a kernel's path; None if there is none."""
    site = home / digest / "site"
    return site if (site / "combatkit" / "__init__.py").is_file() else None


def kernel_environ(environ: dict[str, str], site: Path) -> dict[str, str]:
    """``environ`` with the build ``site`` first on ``PYTHONPATH``: a kernel (and its Monte Carlo workers) imports
    combatkit from it, ahead of the checkout an editable install points to."""
    rest = [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(site)]
    return {**environ, "PYTHONPATH": os.pathsep.join([str(site), *rest])}


def already_compiled() -> bool:
    """Whether the running combatkit is itself a compiled build (its wheel installed)."""
    spec = importlib.util.find_spec("combatkit.fight")
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def unbuildable() -> str | None:
    """Why the compiled engine cannot be built here, in a few words; None when it can."""
    if checkout_root() is None:
        return "combatkit is installed, not a checkout: there is no source to build"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    if importlib.util.find_spec("mypyc") is None:
        return "no mypyc (pip install mypy)"
    return None


def source_tree(root: Path, into: Path) -> Path:
    """A copy of the files a clone of the checkout ``root`` has (tracked, or new and not ignored), to build from
    without writing ``build/`` or ``*.egg-info`` into the checkout."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=root,
                                capture_output=True, text=True)
    except FileNotFoundError:  # no git on this machine
        listed = subprocess.CompletedProcess([], 1)
    if listed.returncode != 0:  # not a git checkout
        shutil.copytree(root, into, ignore=shutil.ignore_patterns(".venv", "build", "*.egg-info", "__pycache__"))
        return into
    for name in filter(None, listed.stdout.split("\0")):
        if (root / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, into / name)
    return into


class Build:
    """The compiled engine for the source ``digest`` of ``root``, built in a thread of its own into ``home``.

    ``command`` builds the wheel into the folder it is given last (default: setuptools with ``COMBATKIT_COMPILE=1``,
    at the lowest priority); ``done`` is called with the finished site, or with None and the log of a failure.
    """

    def __init__(self, root: Path, home: Path, digest: str, done: Callable[[Path | None, Path], None],
                 command: Sequence[str] | None = None) -> None:
        self.root, self.home, self.digest, self.done = root, home, digest, done
        nice = ["nice", "-n", "19"] if shutil.which("nice") else []
        self.command = list(command) if command is not None else [*nice, sys.executable, "-c", BUILD]
        self.log = home / f"{digest}.log"
        self.thread = threading.Thread(target=self._run, name="combatkit compiled build", daemon=True)
        self.site: Path | None = None
        """The finished build's folder, once it is ready."""
        self.finished = threading.Event()
        """Set when the build is over, ready (:attr:`site`) or failed."""

    def start(self) -> Build:
        self.home.mkdir(parents=True, exist_ok=True)
        _clear_stale(self.home)
        self.thread.start()
        return self

    def _run(self) -> None:
        work = Path(tempfile.mkdtemp(prefix=f"{self.digest}.building-", dir=self.home))
        try:
            source = source_tree(self.root, work / "source")
            env = {**os.environ, "COMBATKIT_COMPILE": "1"}
            with open(self.log, "w") as log:
                built = subprocess.run([*self.command, str(work)], cwd=source, env=env, stdout=subprocess.PIPE,
                                       stderr=log, text=True)
                log.write(built.stdout)
            wheels = sorted(work.glob("*.whl"))
            if built.returncode != 0 or not wheels:
                self.done(None, self.log)
                return
            zipfile.ZipFile(wheels[0]).extractall(work / "site")
            shutil.rmtree(work / "source")
            final = self.home / self.digest
            try:
                os.replace(work, final)
            except OSError:  # another server finished the same build first: use that one
                pass
            site = self.site = ready_site(self.home, self.digest)
            if site is not None:
                for old in self.home.iterdir():  # builds of older sources are never used again
                    if old.is_dir() and old.name != self.digest and ".building-" not in old.name:
                        shutil.rmtree(old, ignore_errors=True)
                    elif old.suffix == ".log" and old.stem != self.digest:
                        old.unlink(missing_ok=True)
            self.done(site, self.log)
        except OSError as error:
            with open(self.log, "a") as log:
                log.write(f"\n{error}\n")
            self.done(None, self.log)
        finally:
            shutil.rmtree(work, ignore_errors=True)
            self.finished.set()


def _clear_stale(home: Path) -> None:
    """Remove build folders left unfinished over :data:`STALE_AFTER` seconds ago (a server stopped mid-build)."""
    for entry in home.glob("*.building-*"):
        if time.time() - entry.stat().st_mtime > STALE_AFTER:
            shutil.rmtree(entry, ignore_errors=True)


def start(engine: str, say: Callable[[str], None] = print) -> Build | None:
    """Choose the dashboards' engine (:data:`ENGINES`) as the server starts; say which in one line. With a ready
    build, the server's environment (which its kernels inherit) points to it at once; with none, a build starts
    and points to it when it is done. Returns the build under way, if any."""
    if engine == "pure":
        say("engine: pure Python (--engine pure)")
        return None
    if already_compiled():
        say("engine: compiled (the compiled wheel is installed)")
        return None
    reason = unbuildable()
    root = checkout_root()
    if reason is not None or root is None:
        say(f"engine: pure Python ({reason}); docs/at-scale.md, 'A compiled build', says how to make prep about "
            "twice as fast")
        return None
    home, digest = builds_home(), source_digest(root)
    site = ready_site(home, digest)
    if site is not None:
        os.environ.update(kernel_environ(dict(os.environ), site))
        say(f"engine: compiled (built for this source, {site})")
        return None

    def done(site: Path | None, log: Path) -> None:
        if site is None:
            say(f"engine: the compiled build failed (see {log}); the dashboards stay pure Python")
            return
        os.environ.update(kernel_environ(dict(os.environ), site))
        say("engine: compiled, for the pages opened from now on (encounter prep about twice as fast)")

    try:
        build = Build(root, home, digest, done).start()
    except OSError as error:  # an environment this user cannot write to
        say(f"engine: pure Python (the compiled engine cannot be kept in {home}: {error.strerror or error})")
        return None
    say("engine: pure Python for now; compiling the engine in the background, once for this version of the source "
        "(a few minutes of one core at low priority): pages opened after that run it. --engine pure skips this")
    return build
