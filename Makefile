# The two commands of the README, plus bench and lint (ruff, mypy and lint-imports, as make test
# runs them). Each creates .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench lint clean

run: $(VENV)/.run
	$(BIN)/python -m bot

# the tests on every core (pytest-xdist): most of their time is waiting on the bot programs
test: $(VENV)/.test
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto

bench: $(VENV)/.bench
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/render.py
	$(BIN)/python bench/arms_apart.py
	$(BIN)/python bench/decisions.py
	$(BIN)/python bench/service.py
	$(BIN)/python bench/saves.py  # a move at hand 1 and at hand 2,000
	$(BIN)/python bench/tournament.py  # pairing and standings at 100 to 2,000 entries
	$(BIN)/python bench/flood.py  # a move's board under a flood of /rules
	$(BIN)/python bench/caches.py  # memory with 50,000 people in 5,000 rooms
	$(BIN)/python bench/web_live.py  # 1,000 live pages of one game, each move reaching them all
	$(BIN)/python -m pytest -m slow -s -p no:cacheprovider tests  # 1,000 games under faults
	$(BIN)/python bench/ai.py
	$(BIN)/python bench/web.py  # the pages: 50 live games, 200 viewers; a move's cost

lint: $(VENV)/.test
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .
	$(BIN)/python -m mypy
	$(BIN)/lint-imports

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || \
	  { echo "Python 3.11 or newer is needed: set PYTHON=python3.11 (or newer)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# One stamp per set of extras; editing pyproject.toml reinstalls.
$(VENV)/.run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@

$(VENV)/.bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,bench]'
	@touch $@

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache *.egg-info
