# Two commands: `make run` and `make test`. Both bootstrap .venv when it is missing or
# pyproject.toml changed, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

SCANNER := $(VENV)/.scanner-stamp
# The real-model test tier: llama-cpp-python + the Gemma 3 270M GGUF (scripts/real_model.sh).
REAL_MODEL := $(VENV)/.real-model-stamp
SCANNER_SOURCES := $(wildcard reviewer/contradiction/scan.py reviewer/contradiction/lexicon.py \
	reviewer/contradiction/normalize.py)

.PHONY: run test lint pytest bench bytecode clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

# The contradiction scanner compiled with mypyc (about 3x faster; needs a C compiler).
# Optional: without it the pure-Python scanner runs, with identical results.
$(SCANNER): $(STAMP) $(SCANNER_SOURCES)
	$(BIN)/python scripts/build_contradiction_fast.py \
		|| echo "compiled contradiction scanner not built: the pure-Python one will run"
	touch $(SCANNER)

$(REAL_MODEL): $(STAMP) scripts/real_model.sh
	bash scripts/real_model.sh
	touch $(REAL_MODEL)

# Bytecode of the app's own modules, as `pip install` writes it for every other package:
# with PYTHONDONTWRITEBYTECODE set (it is on these machines) each start would compile
# them again, about a fifth of the time to the first paint. Only changed files are redone.
# benchmarks/ too: the GUI benchmark's probe is the module its timed process starts from.
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q reviewer models ui benchmarks

run: $(SCANNER) bytecode
	$(BIN)/reviewer gui

lint: $(STAMP)
	$(BIN)/ruff check reviewer models ui tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

# REVIEWER_REAL_MODEL=required: a real-model test fails (never skips) when the model or
# llama-cpp-python is missing, so a green `make test` always ran them.
# PYTEST_WORKERS processes (pytest-xdist), one per core of these machines: alone the
# suite took 10-13 minutes, and CI must finish in 20. PYTEST_WORKERS=0 runs it in one.
PYTEST_WORKERS ?= 2
pytest: $(SCANNER) $(REAL_MODEL)
	bash scripts/ensure_postgres.sh
	REVIEWER_REAL_MODEL=required $(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

test: lint pytest

# Benchmarks (not part of `make test`): 100,000 attempts; QUICK=1: 10,000; SMOKE=1: 1,000.
# SQLite's rows then PostgreSQL's (a throwaway server); BACKEND=sqlite or postgresql: one.
bench: $(SCANNER) bytecode
	bash scripts/ensure_postgres.sh
	$(BIN)/python benchmarks/run.py $(if $(QUICK),--quick,) $(if $(SMOKE),--smoke,) \
		$(if $(BACKEND),--backend $(BACKEND),)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
