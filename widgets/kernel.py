"""The kernel the dashboards run in: ipykernel, started without jsonschema's IRI grammar.

Every dashboard imports altair, altair imports jsonschema, and jsonschema imports
``rfc3987_syntax`` (installed with Jupyter's ``jsonschema[format-nongpl]``) only to check
strings of the ``iri`` format. That import builds a Lark parser: about 2.2 s of CPU, in
every kernel, measured here as 70% of the imports a dashboard kernel runs (3.7 s with it,
1.0 s without; jsonschema issue #1428). No dashboard checks that format, so their kernels
start without the module: jsonschema then leaves ``iri`` unchecked, exactly as it does
wherever ``rfc3987_syntax`` is not installed. Nothing else changes.

The kernel spec ``kernels/python3/kernel.json`` beside this file runs :func:`main`; the
dashboard server (:mod:`combatkit.widgets.serve`) puts that spec ahead of the
environment's own ``python3``, so its kernels, preheated or not, start this way.
"""

from __future__ import annotations

import sys

__all__ = ["SKIPPED", "main"]

SKIPPED = ("rfc3987_syntax",)
"""Modules a dashboard kernel never imports (an import of one fails as if it were not installed)."""


def main() -> None:
    """Start an ipykernel (its usual command line) with :data:`SKIPPED` unimportable."""
    for name in SKIPPED:
        sys.modules.setdefault(name, None)
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
