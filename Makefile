# Two commands: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all lint bench clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e ".[all,dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/chessplace demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

test-all: lint
	$(BIN)/pytest -m ""

bench: $(STAMP)
	$(BIN)/python benchmarks/count.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
