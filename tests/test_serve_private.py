"""The app uses no private name of voila, jupyter_server or any other package it serves with (#47), but one:
serve.voila_pool reads voila's kernel pools, and these tests fail as soon as voila moves from the version it was
written for."""

import ast
import asyncio
import importlib.metadata
from pathlib import Path

import pytest

from combatkit.widgets.app import serve

APP = Path(serve.__file__).resolve().parent
ALLOWED = "voila_pool"
"""The one function of the app that may read a private name of another package."""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_names(tree: ast.AST) -> set[str]:
    """The names a module of the app defines: its functions, classes and methods, and what it assigns."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return names


def _private_uses(tree: ast.AST, ours: set[str]) -> list[tuple[int, str]]:
    """Where ``tree`` reads a private name it does not define (``ours``): an attribute, a name given to
    ``getattr``/``hasattr``, an import from a private module or of a private name; none inside :data:`ALLOWED`."""
    allowed = {id(node) for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
               and function.name == ALLOWED for node in ast.walk(function)}
    found = []
    for node in ast.walk(tree):
        if id(node) in allowed:
            continue
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in ours:
            found.append((node.lineno, f".{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and _private(str(node.args[1].value))
              and node.args[1].value not in ours):
            found.append((node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            names = [alias.name for alias in node.names] if isinstance(node, ast.ImportFrom) else []
            if any(_private(part) for module in modules for part in module.split(".")) or any(map(_private, names)):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_app_reads_no_private_name_of_another_package_but_in_voila_pool():
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(APP.glob("*.py"))}
    ours = set().union(*map(_own_names, trees.values()))
    found = [f"{path.name}:{line}: {use}" for path, tree in trees.items() for line, use in _private_uses(tree, ours)]
    assert found == [], f"private names read outside serve.{ALLOWED} (#47): {found}"


def test_the_scan_finds_a_private_name_read_outside_voila_pool():
    tree = ast.parse("def heal(manager):\n    return manager._pools, getattr(manager, '_kernels', {})\n"
                     "from voila._version import x\nfrom jupyter_server.utils import _private\n"
                     "def voila_pool(manager):\n    return manager._pools\n")
    assert [use for _, use in _private_uses(tree, _own_names(tree))] == [
        "._pools", "getattr(..., '_kernels')", "from voila._version import x",
        "from jupyter_server.utils import _private"]


def test_voila_is_the_version_voila_pool_was_written_for():
    installed = importlib.metadata.version("voila")
    assert installed == serve.VOILA_POOLS, (
        f"serve.voila_pool reads voila {serve.VOILA_POOLS}'s kernel pools, a private attribute (manager._pools), and "
        f"voila {installed} is installed. Check in its voila_kernel_manager.py that the pools are still kept there, "
        f"as lists of tasks giving a dict of kernel_id, task and renderer (or that a public way has come), then "
        f"move serve.VOILA_POOLS and voila's pin in pyproject.toml to it")


def test_voilas_kernel_manager_keeps_its_pools_where_voila_pool_reads_them(tmp_path):
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.app import Voila
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    kernels = serve._kernels_class(AsyncMappingKernelManager, None)
    manager = voila_kernel_manager_factory(kernels, True, 0)(parent=Voila(root_dir=str(tmp_path)))

    async def fill() -> list:
        manager.fill_if_needed(delay=0, notebook_name="page.ipynb")  # a pool of no kernels: none is started
        return serve.voila_pool(manager, "page.ipynb")

    try:
        pool = asyncio.run(fill())
    except AttributeError as error:
        pytest.fail(f"serve.voila_pool: voila {importlib.metadata.version('voila')} keeps its kernel pools no "
                    f"longer in manager._pools ({error})")
    assert pool == [] and pool is manager._pools["page.ipynb"], "serve.voila_pool: not the pool voila fills"
    assert serve.voila_pool(manager, "other.ipynb") == [] and manager.get_pool_size("page.ipynb") == 0
