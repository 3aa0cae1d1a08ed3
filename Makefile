# `make report` and `make test` work on a fresh machine: both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Beside a checkout that has ../shared/data (this project's workplace and CI), use it;
# elsewhere the loaders download the public files into the user cache.
# MTBIAS_NO_SHARED_DATA=1 ignores ../shared/data (the tests then run as on a fresh clone).
ifeq ($(MTBIAS_DATA)$(MTBIAS_NO_SHARED_DATA),)
ifneq ($(wildcard ../shared/data/tgbi),)
export MTBIAS_DATA := $(abspath ../shared/data)
endif
endif

.PHONY: install test test-fast report bench lint docs clean mutation mutation-report

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# setuptools' notice on every editable install (not a problem here: the package is imported from this tree).
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e '.[all,dev,docs]'
	touch $@

# Two workers (pytest-xdist): CI's machine has 2 cores. WORKERS=0 runs in one process.
# One BLAS/OpenMP thread per worker: two workers of two threads each on two cores fight over them.
WORKERS ?= 2
ONE_THREAD = OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
test: install
	$(ONE_THREAD) $(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup

test-fast: install
	$(ONE_THREAD) $(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup -m 'not slow'

# The full report: every study (the same sections analyses/<study>.py writes one at a time),
# report.html/.md/.tex and, where Chromium is installed, a screenshot of the HTML.
# Without Chromium a previous screenshot would show an older report: it is removed, and the run says so.
# It runs stats_mtbias.reporting directly (what `stats-mtbias report` calls), so it needs no command-line front end.
report: install
	$(BIN)/python -m stats_mtbias.reporting --out reports $(if $(shell command -v chromium),--screenshot reports/screenshot.png)
	@command -v chromium >/dev/null || { rm -f reports/screenshot.png; \
	  echo "no Chromium on PATH: reports/screenshot.png removed rather than left stale (apt-get install chromium)" >&2; }

bench: install
	$(BIN)/python benchmarks/bootstrap_tgbi.py
	$(BIN)/python benchmarks/first_contact.py

# The Sphinx site: every example executed on the default data; any warning fails the build.
docs: install
	cd docs && ../$(BIN)/sphinx-build -W --keep-going -q -b html . _build/html
	@echo "docs: docs/_build/html/index.html"

# Mutation testing of the statistics core (issue 38; docs/testing.md): mutmut over estimators/, uncertainty/,
# significance/, planning/closed.py and simulate.py, studies/_common.py and studies/winomt/analysis.py ([tool.mutmut]
# in pyproject.toml), each mutant against the fast core tests that reach its function, one worker. Every mutant is
# about three hours on this machine's 2 cores; results persist in mutants/ and a rerun checks only what is left, so it
# can be run in parts: `make mutation MUTANTS='stats_mtbias.uncertainty.analytic*'`. No dataset is read.
MUTANTS ?=
mutation: install
	MTBIAS_DATA=$(CURDIR)/mutants/no-data $(BIN)/mutmut run --max-children 1 $(MUTANTS)
	$(BIN)/python tests/mutation/report.py --json mutants/score.json

# The score per module and every surviving mutant not recorded in tests/mutation/equivalent/.
mutation-report:
	$(BIN)/python tests/mutation/report.py

lint: install
	$(BIN)/ruff check stats_mtbias tests benchmarks analyses tools
	$(BIN)/ruff format --check stats_mtbias tests benchmarks analyses tools docs conftest.py

clean:
	rm -rf $(VENV) .pytest_cache docs/_build docs/jupyter_execute mutants mutants-sample
