# Two commands: `make demo` and `make test`. Both create .venv on first use: the demo
# installs chessplace with its engines (.[all]); the tests add the test and docs tools
# (.[dev,docs]) to the same venv, in either order.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test test-all lint docs bench clean browser minizinc

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e ".[all]"
	touch $(STAMP)

# Rebuilt whenever $(STAMP) is (pyproject.toml or constraints.txt changed).
$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -c constraints.txt -e ".[all,dev,docs]"
	touch $(DEV_STAMP)

demo: $(STAMP)
	$(BIN)/chessplace demo
	@echo
	@echo "chessplace is installed in $(VENV), which is not on your PATH. Before the README's"
	@echo "examples, run:  source $(BIN)/activate   (or call $(BIN)/chessplace directly)"

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks docs/hooks
	$(BIN)/ruff format --check src tests benchmarks docs/hooks
	$(BIN)/mypy

# The documentation site (mkdocs.yml), strict: any warning fails the build. Output in site/.
docs: $(DEV_STAMP)
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

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/count.py
	$(BIN)/python benchmarks/engines.py

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
