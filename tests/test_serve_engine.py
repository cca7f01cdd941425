"""Which engine the dashboards' kernels run (combatkit.widgets.app.compiled, #18): a compiled build used only for the
source it was built from, built in the background, never half-built, and pure Python with a one-line reason
otherwise. tests/test_compiled.py checks that a kernel given a real build imports the engine from it."""

import argparse
import asyncio
import logging
import os
import shutil
import sys
import threading
import types
import zipfile
from pathlib import Path

import pytest

from combatkit.widgets.app import compiled, serve

ROOT = Path(__file__).resolve().parents[1]


def _copy_sources(into: Path) -> Path:
    for name in compiled.SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, into / name)
    return into


def test_a_build_is_for_the_very_source_it_was_made_from(tmp_path):
    first, second = _copy_sources(tmp_path / "a"), _copy_sources(tmp_path / "b")
    digest = compiled.source_digest(first)
    assert compiled.source_digest(second) == digest
    (second / "README.md").write_text("not built from")  # outside the package: the same build
    (second / "combatkit" / "__pycache__").mkdir(exist_ok=True)
    (second / "combatkit" / "__pycache__" / "fight.cpython-311.pyc").write_bytes(b"\0")
    assert compiled.source_digest(second) == digest
    fight = second / "combatkit" / "fight.py"
    fight.write_text(fight.read_text() + "\n")
    assert compiled.source_digest(second) != digest
    (second / "widgets" / "views" / "prep.py").unlink()
    assert compiled.source_digest(second) not in (digest, compiled.source_digest(first))


def test_only_a_finished_build_is_used(tmp_path):
    assert compiled.ready_site(tmp_path, "abc") is None
    (tmp_path / "abc.building-x" / "site" / "combatkit").mkdir(parents=True)
    (tmp_path / "abc" / "site" / "combatkit").mkdir(parents=True)
    assert compiled.ready_site(tmp_path, "abc") is None  # unpacked only in part
    (tmp_path / "abc" / "site" / "combatkit" / "__init__.py").write_text("")
    assert compiled.ready_site(tmp_path, "abc") == tmp_path / "abc" / "site"


def test_a_kernel_finds_the_build_first_on_its_path_and_keeps_the_rest(tmp_path):
    site = tmp_path / "site"
    env = compiled.kernel_environ({"PYTHONPATH": os.pathsep.join(["/mine", str(site)]), "HOME": "/h"}, site)
    assert env == {"PYTHONPATH": os.pathsep.join([str(site), "/mine"]), "HOME": "/h"}
    assert compiled.kernel_environ({}, site)["PYTHONPATH"] == str(site)


def _said() -> tuple[list[str], object]:
    lines: list[str] = []
    return lines, lines.append


def test_pure_python_is_served_when_asked_and_nothing_is_built(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "builds_home", lambda: tmp_path)
    monkeypatch.setenv("PYTHONPATH", "/mine")
    lines, say = _said()
    assert compiled.start("pure", say) is None
    assert lines == ["engine: pure Python (--engine pure)"]
    assert os.environ["PYTHONPATH"] == "/mine" and not list(tmp_path.iterdir())


def test_where_nothing_can_be_built_the_console_says_why_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "builds_home", lambda: tmp_path)
    monkeypatch.setattr(compiled, "unbuildable", lambda: "no C compiler (gcc)")
    monkeypatch.setenv("PYTHONPATH", "/mine")
    lines, say = _said()
    assert compiled.start("auto", say) is None
    assert len(lines) == 1 and lines[0].startswith("engine: pure Python (no C compiler (gcc))")
    assert "A compiled build" in lines[0]
    assert os.environ["PYTHONPATH"] == "/mine" and not list(tmp_path.iterdir())


def test_an_environment_it_cannot_write_to_stays_pure_python(tmp_path, monkeypatch):
    home = tmp_path / "file"
    home.write_text("")  # not a folder: nothing can be kept under it
    monkeypatch.setattr(compiled, "builds_home", lambda: home)
    monkeypatch.setattr(compiled, "unbuildable", lambda: None)
    lines, say = _said()
    assert compiled.start("auto", say) is None
    assert len(lines) == 1 and lines[0].startswith(f"engine: pure Python (the compiled engine cannot be kept in {home}")


def test_an_installed_package_has_no_source_to_build(monkeypatch):
    monkeypatch.setattr(compiled, "checkout_root", lambda: None)
    assert "no source to build" in compiled.unbuildable()


def test_a_ready_build_is_served_at_once(tmp_path, monkeypatch):
    digest = compiled.source_digest(ROOT)
    (tmp_path / digest / "site" / "combatkit").mkdir(parents=True)
    (tmp_path / digest / "site" / "combatkit" / "__init__.py").write_text("")
    monkeypatch.setattr(compiled, "builds_home", lambda: tmp_path)
    monkeypatch.setattr(compiled, "unbuildable", lambda: None)
    monkeypatch.setenv("PYTHONPATH", "/mine")
    lines, say = _said()
    assert compiled.start("auto", say) is None
    assert os.environ["PYTHONPATH"] == os.pathsep.join([str(tmp_path / digest / "site"), "/mine"])
    assert lines == [f"engine: compiled (built for this source, {tmp_path / digest / 'site'})"]


FAKE_BUILD = """
import sys, zipfile, pathlib
out = pathlib.Path(sys.argv[-1])
assert pathlib.Path('setup.py').is_file() and not pathlib.Path('.venv').exists()  # a copy of the checkout's files
with zipfile.ZipFile(out / 'combatkit-0.1.0-cp311-cp311-linux_x86_64.whl', 'w') as wheel:
    wheel.writestr('combatkit/__init__.py', '')
    wheel.writestr('combatkit/fight.py', '')
print('combatkit-0.1.0-cp311-cp311-linux_x86_64.whl')
"""


def _build(tmp_path: Path, command: list[str]) -> tuple[compiled.Build, list]:
    told: list = []
    build = compiled.Build(ROOT, tmp_path, "new", lambda site, log: told.append((site, log)), command=command)
    build.start().thread.join(timeout=120)
    assert not build.thread.is_alive()
    return build, told


def test_a_finished_build_is_unpacked_and_the_older_ones_go(tmp_path):
    (tmp_path / "old" / "site" / "combatkit").mkdir(parents=True)
    (tmp_path / "old.log").write_text("")
    (tmp_path / "new.building-recent").mkdir()  # another server's build under way: left alone
    _, told = _build(tmp_path, [sys.executable, "-c", FAKE_BUILD])
    site = tmp_path / "new" / "site"
    assert told == [(site, tmp_path / "new.log")]
    assert zipfile.is_zipfile(next((tmp_path / "new").glob("*.whl")))
    assert (site / "combatkit" / "fight.py").is_file() and not (tmp_path / "new" / "source").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "new.building-recent", "new.log"]


def test_a_failed_build_leaves_its_log_and_nothing_to_use(tmp_path):
    build, told = _build(tmp_path, [sys.executable, "-c", "import sys; sys.exit('gcc: fatal error: no input files')"])
    assert told == [(None, tmp_path / "new.log")]
    assert "gcc: fatal error" in build.log.read_text()
    assert compiled.ready_site(tmp_path, "new") is None
    assert [p.name for p in tmp_path.iterdir()] == ["new.log"]


def test_a_build_left_unfinished_long_ago_is_cleared(tmp_path):
    stale, recent = tmp_path / "a.building-1", tmp_path / "a.building-2"
    stale.mkdir()
    recent.mkdir()
    os.utime(stale, (1, 1))
    compiled._clear_stale(tmp_path)
    assert not stale.exists() and recent.exists()


@pytest.mark.parametrize("engine", ["pure", "auto"])
def test_the_server_takes_the_engine_on_its_command_line(engine):
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert parser.parse_args([] if engine == "auto" else ["--engine", engine]).engine == engine
    with pytest.raises(SystemExit):
        parser.parse_args(["--engine", "fast"])


def test_once_the_build_is_ready_the_waiting_kernels_are_renewed_and_a_taken_one_is_left():
    class Manager:  # voila's pooling kernel manager, as renew_pools uses it
        def __init__(self, loop):
            self.kernels, self.log = {}, logging.getLogger("voila")

            def waiting(kernel):
                task = loop.create_future()
                renderer = types.SimpleNamespace(log=self.log, executor=types.SimpleNamespace(log=self.log))
                self.kernels[kernel] = {"kernel_id": kernel, "renderer": renderer,
                                        "task": loop.create_future()}  # its page, waiting in the visitor's cell
                task.set_result(self.kernels[kernel])
                return task

            self.failed = loop.create_future()
            self.failed.set_exception(RuntimeError("the kernel died"))
            self._pools = {"prep.ipynb": [waiting("k1"), self.failed, waiting("k3")],
                           "learn/mana.ipynb": [waiting("k2")]}
            self.notebook_data = {"prep.ipynb": {"kernel_ids": {"k1", "k3"}},  # the notebooks voila preheats
                                  "learn/mana.ipynb": {"kernel_ids": {"k2"}}}
            self.shut, self.filled = [], []

        def __contains__(self, kernel):  # still on the server's list (one that died is taken off: serve._retire)
            return kernel in self.kernels

        async def shutdown_kernel(self, kernel, now=False):
            self.shut.append((kernel, now))
            if kernel == "k3":
                raise RuntimeError("Kernel is not running")  # it died while waiting: voila's word for it
            self._pools["learn/mana.ipynb"].pop(0)  # meanwhile a visitor takes the lesson's kernel

        def fill_if_needed(self, delay=None, notebook_name=None):
            self.filled.append((delay, notebook_name))

    async def renew():
        manager = Manager(asyncio.get_running_loop())
        return manager, await serve.renew_pools(manager)

    manager, renewed = asyncio.run(renew())
    assert renewed == 2 and manager.shut == [("k1", True), ("k3", True)]
    assert manager.kernels["k1"]["task"].cancelled() and not manager.kernels["k2"]["task"].cancelled()
    k1, k2 = (manager.kernels[k]["renderer"] for k in ("k1", "k2"))
    assert k1.log is k1.executor.log is serve._RETIRED  # the retired page's death in its cell is not an error
    assert not serve._RETIRED.isEnabledFor(logging.CRITICAL) and not serve._RETIRED.propagate
    assert k2.log is k2.executor.log is manager.log
    assert manager._pools == {"prep.ipynb": [manager.failed], "learn/mana.ipynb": []}  # a failed start is voila's
    assert manager.filled == [(0, "prep.ipynb"), (0, "learn/mana.ipynb")]


def test_the_console_says_how_the_renewal_went_in_one_line():
    class Voila:  # a kernel manager with no pools (not voila 0.5.8's): the renewal fails, the server goes on
        pass

    said = []
    asyncio.run(serve.renew_and_say(Voila(), said.append))
    assert len(said) == 1 and said[0].startswith("engine: the kernels waiting for visitors were not restarted (")
    assert "AttributeError" in said[0] and "run the compiled engine" in said[0]


@pytest.mark.parametrize("ready", [True, False])
def test_the_server_watches_the_build_and_renews_its_pools_only_once_it_is_ready(ready, capsys):
    build = types.SimpleNamespace(finished=threading.Event(), site=None)

    class Manager:  # a pooling kernel manager with nothing waiting yet
        _pools: dict = {}
        notebook_data: dict = {}

        def fill_if_needed(self, delay=None, notebook_name=None):
            raise AssertionError("no pool to fill")

    app = serve._app_class()()
    app.kernel_manager = Manager()

    async def watch():
        app._watch_build(build)
        await asyncio.sleep(1.2)
        assert getattr(app, "combatkit_renewal", None) is None  # the build is not over: nothing yet
        build.site = Path("site") if ready else None
        build.finished.set()
        await asyncio.sleep(1.2)
        return getattr(app, "combatkit_renewal", None)

    renewal = asyncio.run(watch())
    said = capsys.readouterr().out
    if ready:
        assert renewal.done() and said == "combatkit: engine: 0 waiting kernels restarted on the compiled engine\n"
    else:  # a failed build: compiled.start's done() has said so; the kernels stay as they are
        assert renewal is None and said == ""
