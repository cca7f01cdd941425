"""The dashboard server's kernel processes, found in Linux's /proc: for the tests that kill one, as the
out-of-memory killer would (tests/test_serve.py, tests/browser/test_kernel_gone.py)."""

from pathlib import Path


def kernel_processes(parent: int | None = None) -> dict[int, str]:
    """Each combatkit kernel's process id and kernel id (its connection file's name): the children of process
    ``parent`` only, when it is given."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().decode().split("\0")
        except (OSError, ValueError, IndexError):  # not a process, or one that ended meanwhile
            continue
        if (parent is None or ppid == parent) and "combatkit.widgets.app.kernel" in command:
            connection = Path(command[command.index("-f") + 1]).stem
            found[int(entry.name)] = connection.removeprefix("kernel-")
    return found
