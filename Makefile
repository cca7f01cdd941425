# combatkit: two commands do all the set-up on a fresh machine.
#   make dashboards   install, then serve every dashboard with voila on 127.0.0.1 (prints the URL); the kernels
#                     run the compiled engine once it is built, in the background, where a C compiler is
#   make test         install (Python packages, Debian's chromium and axe-core from npm), then run every test
# Also: make bench (benchmarks that print numbers), make install (just the environment),
#   make fuzz (a long random run of the generated-input tests; FUZZ_EXAMPLES=N per test, default 2000),
#   make wheel-compiled (the engine compiled with mypyc, 2.6-4.2 times as fast: dist/*.whl; setup.py says how).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8866

.PHONY: install dashboards test bench chromium axe fuzz wheel-compiled

install: $(STAMP)

# pip -qq prints errors only: with -q, a fresh install still printed a screen of notes (setuptools' note
# on editable installs of a package whose folders are mapped, pip's warnings about the machine's own
# index settings) before the URL.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --upgrade pip
	$(BIN)/python -m pip install -qq -e ".[test]"
	touch $(STAMP)

dashboards: $(STAMP)
	$(BIN)/combatkit serve --port $(PORT)

# Debian's chromium drives the browser tests (never `playwright install`: it downloads a browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

# axe-core, from the npm registry, checks every page for WCAG 2.1 A/AA (tests/browser/test_accessibility.py
# injects its axe.min.js): installed beside the checkout, in .axe/ (ignored), never into package.json.
AXE_VERSION := 4.14.1
AXE := .axe/node_modules/axe-core/axe.min.js
axe: $(AXE)

$(AXE):
	@command -v npm >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq npm >/dev/null; }
	npm install --silent --no-save --no-audit --no-fund --prefix .axe axe-core@$(AXE_VERSION)

# The environment (pip), chromium (apt-get) and axe-core (npm) are set up side by side; then
# one worker a core (pytest-xdist), each test file whole on one worker (a browser test module's server).
# `.venv/bin/python -m pytest FILE` runs one file in this process.
test:
	@$(MAKE) --no-print-directory -j2 install chromium axe
	$(BIN)/python -m pytest -n auto --dist loadfile

bench:
	@$(MAKE) --no-print-directory -j2 install chromium
	$(BIN)/python benchmarks/run.py

# The generated-input tests under the wide Hypothesis profile (tests/conftest.py): a new random sample
# each run, no per-test time limit; the statistics say how many examples ran and how long they took.
FUZZ_EXAMPLES ?= 2000
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest tests/test_generated.py \
	  -p no:cacheprovider --timeout=0 --hypothesis-show-statistics -q

# The compiled variant (setup.py, #18): needs gcc and the Python headers; install the wheel into an environment
# of its own (pip install dist/combatkit-*-cp311-*.whl), the checkout's stays pure Python. setuptools builds in
# build/ and puts all it finds in build/lib into the wheel: an extension module an earlier build made, of a module
# setup.py now keeps as Python, went into the wheel and was imported before the .py (an AttributeError at
# `import combatkit`), so each build starts from an empty build/.
wheel-compiled: $(STAMP)
	rm -rf build
	COMBATKIT_COMPILE=1 $(BIN)/python -m pip wheel -q --no-build-isolation --no-deps -w dist .
