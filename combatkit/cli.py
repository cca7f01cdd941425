"""The ``combatkit`` command: serve the dashboards and lessons, copy the lessons to change them.

    combatkit serve [--port N] [--host ADDRESS] [--no-browser] ...
    combatkit lessons [FOLDER]
    combatkit --version

Installed with the package (``[project.scripts]``); ``python -m combatkit`` is the same command. Only
``serve`` needs the interactive layer (``pip install "combatkit[ui]"``): the engine, and this module, import
no ipywidgets, altair or voila, so ``combatkit --help`` answers at once wherever combatkit is installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["main", "parser"]

UI_MISSING = "combatkit {command} needs the dashboards' libraries: pip install \"combatkit[ui]\""


def _version() -> str:
    try:
        return version("combatkit")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    """The command line, with a sub-command per task, as Jupyter's own tools have."""
    from combatkit.widgets.app import serve  # standard library only until it serves

    top = argparse.ArgumentParser(
        prog="combatkit",
        description="Who acts when inside an old-school combat round, and why: serve combatkit's dashboards "
                    "and lessons in a browser, or copy the lessons to change and run them in JupyterLab.",
        epilog="'combatkit COMMAND --help' describes a command. The engine is a Python library: "
               "from combatkit import find_system, load_example.")
    top.add_argument("--version", action="version", version=f"combatkit {_version()}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    served = commands.add_parser(
        "serve", help="serve every dashboard and lesson on http://127.0.0.1:8866/ (what 'make dashboards' serves)",
        description=serve.__doc__.split("\n\n")[0] + " Stop it with Ctrl+C.")
    serve.add_arguments(served)
    copied = commands.add_parser(
        "lessons", help=f"copy the lessons (teaching notebooks) into FOLDER (default {serve.LESSONS_COPY}) to open "
                        "them in JupyterLab",
        description="Copy combatkit's lessons into FOLDER, to change and run them in JupyterLab. A lesson "
                    "already there is kept, not overwritten.")
    copied.add_argument("folder", nargs="?", type=Path, default=Path(serve.LESSONS_COPY), metavar="FOLDER")
    return top


def _copy_lessons(folder: Path) -> int:
    from combatkit.widgets.app.serve import lessons_dir

    try:
        lessons = lessons_dir()
    except FileNotFoundError as error:
        print(f"combatkit lessons: {error}", file=sys.stderr)
        return 2
    if lessons is None:
        print("combatkit lessons: this installation has no lessons", file=sys.stderr)
        return 2
    folder.mkdir(parents=True, exist_ok=True)
    kept = []
    for notebook in sorted(lessons.glob("*.ipynb")):
        target = folder / notebook.name
        if target.exists():
            kept.append(notebook.name)
        else:
            shutil.copyfile(notebook, target)
    if kept:
        print(f"kept your copies of {', '.join(kept)}")
    print(f"lessons in {folder}: open them with\n    jupyter lab {folder}")
    return 0


def main(argv: list[str] | None = None) -> int:
    command = parser()
    args = command.parse_args(argv)
    if args.command is None:
        command.print_help()
        return 0
    if args.command == "lessons":
        return _copy_lessons(args.folder)
    if importlib.util.find_spec("voila") is None:
        print(UI_MISSING.format(command=args.command), file=sys.stderr)
        return 2
    from combatkit.widgets.app import serve

    return serve.run(args, "combatkit serve")


if __name__ == "__main__":
    sys.exit(main())
