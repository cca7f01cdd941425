"""The kernel the dashboards run in: ipykernel, started without jsonschema's IRI grammar.

Every dashboard imports altair, altair imports jsonschema, and jsonschema imports
``rfc3987_syntax`` (installed with Jupyter's ``jsonschema[format-nongpl]``) only to check
strings of the ``iri`` format. That import builds a Lark parser: about 2.2 s of CPU, in
every kernel, measured here as 70% of the imports a dashboard kernel runs (3.7 s with it,
1.0 s without; jsonschema issue #1428). No dashboard checks that format, so their kernels
start without the module: jsonschema then leaves ``iri`` unchecked, exactly as it does
wherever ``rfc3987_syntax`` is not installed. Nothing else changes. pyproject.toml also pins
jsonschema below 4.25, which never imports it, so where pip installed combatkit no process does
(a notebook's kernel, the server); this skip is for an environment that holds a later jsonschema
anyway (built without pip's resolver: conda, ``--no-deps``).

It also keeps quiet about the one thing ipykernel warns of at every start over TCP, "Kernel is
running over TCP without encryption ... susceptible to eavesdropping": where the server reaches its
kernels over TCP rather than Unix sockets (:func:`combatkit.widgets.app.serve.kernel_transport`: on
Windows, or with a long temporary folder), it starts them on 127.0.0.1 (jupyter_client's default
``ip``), where no one off this machine can listen, and the warning was one line per kernel, twenty in
the console of ``make dashboards``. A kernel whose connection file gives another address still warns.

The kernel spec ``kernels/python3/kernel.json`` beside this file runs :func:`main`; the
dashboard server (:mod:`combatkit.widgets.app.serve`) puts that spec ahead of the
environment's own ``python3``, so its kernels, preheated or not, start this way.
"""

from __future__ import annotations

import json
import logging
import sys

__all__ = ["SKIPPED", "main"]

SKIPPED = ("rfc3987_syntax",)
"""Modules a dashboard kernel never imports (an import of one fails as if it were not installed)."""

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class _OnLoopback(logging.Filter):
    """Drops ipykernel's warning of an unencrypted TCP transport (module docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Kernel is running over TCP without encryption")


def _on_loopback(argv: list[str]) -> bool:
    """Whether the connection file the kernel is started with (``-f FILE``) puts it on this machine only."""
    try:
        with open(argv[argv.index("-f") + 1], encoding="utf-8") as file:
            return json.load(file).get("ip", "127.0.0.1") in LOOPBACK
    except (ValueError, IndexError, OSError):
        return False


def main() -> None:
    """Start an ipykernel (its usual command line) with :data:`SKIPPED` unimportable, quiet about an unencrypted
    transport on the loopback interface."""
    for name in SKIPPED:
        sys.modules.setdefault(name, None)
    if _on_loopback(sys.argv):
        logging.getLogger("IPKernelApp").addFilter(_OnLoopback())
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
