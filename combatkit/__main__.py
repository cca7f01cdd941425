"""``python -m combatkit``: the ``combatkit`` command (:mod:`combatkit.cli`)."""

import sys

from combatkit.cli import main

sys.exit(main())
