# `make report` and `make test` work on a fresh machine: both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Beside a checkout that has ../shared/data (this project's workplace and CI), use it;
# elsewhere the loaders download the public files into the user cache.
ifeq ($(MTBIAS_DATA),)
ifneq ($(wildcard ../shared/data/tgbi),)
export MTBIAS_DATA := $(abspath ../shared/data)
endif
endif

.PHONY: install test test-fast report bench lint clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $@

test: install
	$(BIN)/python -m pytest

test-fast: install
	$(BIN)/python -m pytest -m 'not slow'

report: install
	$(BIN)/python analyses/tgbi.py --out reports/tgbi
	$(BIN)/python analyses/prates.py --out reports/prates
	$(BIN)/python analyses/optimal.py --out reports/optimal
	$(BIN)/python analyses/winomt.py --out reports/winomt
	$(BIN)/python analyses/models.py --out reports/models

bench: install
	$(BIN)/python benchmarks/bootstrap_tgbi.py

lint: install
	$(BIN)/ruff check stats_mtbias tests benchmarks analyses tools

clean:
	rm -rf $(VENV) .pytest_cache
