# Two commands: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all lint docs bench clean browser minizinc

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e ".[all,dev,docs]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/chessplace demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks docs/hooks
	$(BIN)/ruff format --check src tests benchmarks docs/hooks
	$(BIN)/mypy

# The documentation site (mkdocs.yml), strict: any warning fails the build. Output in site/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The browser test drives Debian's chromium; install it when missing (needs root, as on CI).
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		echo "chessplace: could not install chromium; the browser test will be skipped"

# The export tests solve MiniZinc models with Debian's minizinc (and its Gecode).
minizinc:
	@command -v minizinc >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq minizinc >/dev/null; } || \
		echo "chessplace: could not install minizinc; the MiniZinc export test will be skipped"

test: lint docs browser minizinc
	$(BIN)/pytest

test-all: lint docs browser minizinc
	$(BIN)/pytest -m ""

bench: $(STAMP)
	$(BIN)/python benchmarks/count.py
	$(BIN)/python benchmarks/engines.py

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
