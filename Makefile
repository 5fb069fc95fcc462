# Two commands: `make run` and `make test`. Both bootstrap .venv when it is missing or
# pyproject.toml changed, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

# The mypyc-compiled copies of the hot paths (scripts/build_compiled.py).
COMPILED := $(VENV)/.compiled-stamp
# The real-model test tier: llama-cpp-python + the Gemma 3 270M GGUF (scripts/real_model.sh).
REAL_MODEL := $(VENV)/.real-model-stamp
# What scripts/build_compiled.py compiles, and the sources whose digest stamps each copy.
COMPILED_SOURCES := $(wildcard reviewer/contradiction/scan.py reviewer/contradiction/lexicon.py \
	reviewer/contradiction/normalize.py reviewer/exports/json_string.py reviewer/exports/walk.py \
	reviewer/exports/dataset.py reviewer/exports/preference.py reviewer/exports/options.py \
	scripts/build_compiled.py)

.PHONY: run test lint pytest bench bytecode clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

# The contradiction scanner and the corpus exports compiled with mypyc (the scanner about
# 3x faster, the preference export a fifth; needs a C compiler). Optional: without them the
# pure-Python modules run, with identical results (a copy is used only while it matches
# its sources: reviewer/compiled.py).
$(COMPILED): $(STAMP) $(COMPILED_SOURCES)
	$(BIN)/python scripts/build_compiled.py \
		|| echo "compiled modules not built: the pure-Python ones will run"
	touch $(COMPILED)

$(REAL_MODEL): $(STAMP) scripts/real_model.sh
	bash scripts/real_model.sh
	touch $(REAL_MODEL)

# Bytecode of the app's own modules, as `pip install` writes it for every other package:
# with PYTHONDONTWRITEBYTECODE set (it is on these machines) each start would compile
# them again, about a fifth of the time to the first paint. Only changed files are redone.
# benchmarks/ too: the GUI benchmark's probe is the module its timed process starts from.
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q reviewer models ui benchmarks

run: $(COMPILED) bytecode
	$(BIN)/reviewer gui

lint: $(STAMP)
	$(BIN)/ruff check reviewer models ui tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

# REVIEWER_REAL_MODEL=required: a real-model test fails (never skips) when the model or
# llama-cpp-python is missing, so a green `make test` always ran them; the same with
# REVIEWER_COMPILED=required for the tests comparing the compiled and pure modules.
# PYTEST_WORKERS processes (pytest-xdist), one per core of these machines: alone the
# suite took 10-13 minutes, and CI must finish in 20. PYTEST_WORKERS=0 runs it in one.
PYTEST_WORKERS ?= 2
pytest: $(COMPILED) $(REAL_MODEL)
	bash scripts/ensure_postgres.sh
	REVIEWER_REAL_MODEL=required REVIEWER_COMPILED=required $(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

test: lint pytest

# Benchmarks (not part of `make test`): 100,000 attempts; QUICK=1: 10,000; SMOKE=1: 1,000.
# SQLite's rows then PostgreSQL's (a throwaway server); BACKEND=sqlite or postgresql: one.
bench: $(COMPILED) bytecode
	bash scripts/ensure_postgres.sh
	$(BIN)/python benchmarks/run.py $(if $(QUICK),--quick,) $(if $(SMOKE),--smoke,) \
		$(if $(BACKEND),--backend $(BACKEND),)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	rm -f reviewer/contradiction/_scan_fast*.so reviewer/exports/_fast/*.so
