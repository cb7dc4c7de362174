# uth: two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint install play clean

# Two `make test` at once (one checkout) must not both run pip: the install runs
# under a lock (flock, where there is one) and is skipped when the other run did it.
LOCK := $(shell command -v flock >/dev/null 2>&1 && echo flock $(VENV).lock)

$(BIN)/python:
	$(LOCK) sh -c 'test -x $(BIN)/python || { $(PYTHON) -m venv $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip; }'

$(STAMP): $(BIN)/python pyproject.toml
	$(LOCK) sh -c 'test $(STAMP) -nt pyproject.toml || { $(BIN)/python -m pip install --quiet -e ".[test]" && touch $(STAMP); }'

install: $(STAMP)

## The main job: the live table server on an embedded SQLite database.
run: install
	$(BIN)/uth serve

## Lint, type-check and run the whole test suite.
test: install
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto --dist loadgroup

lint: install
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(VENV).lock build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
