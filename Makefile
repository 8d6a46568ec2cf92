# North Sea Companion. `make run` serves on the LAN; `make test` installs what the tests need
# (test extras, Chromium and PostgreSQL from Debian when missing) and runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PORT ?= 5000
export PORT

.PHONY: run serve test bench install install-test system-run system-test lint db clean i18n \
	translations constraints

$(VENV)/.created:
	@scripts/system-deps.sh venv
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	@touch $@

# constraints.txt: the versions of every library the tests last passed with (pip freeze). A fresh
# machine installs those, not whatever is newest that day: Babel 2.19 came out between two stops
# and changed French's plural rule under a test, and CI failed on a clean clone that no venv here
# could reproduce. `make constraints` takes the newest versions pyproject.toml allows; run
# `make test` on them before committing the file.
$(VENV)/.installed: pyproject.toml constraints.txt $(VENV)/.created
	$(PIP) install --quiet -c constraints.txt -e .
	@touch $@

# One install for the tests, the app's requirements with them: installing `-e .` first and then
# `-e '.[test]'` built the editable package twice and asked the index about every requirement
# twice (46 s + 31 s on a fresh clone, against 29 s for the one install). It is what `install`
# installs, and more: it marks that done too.
$(VENV)/.installed-test: pyproject.toml constraints.txt $(VENV)/.created
	$(PIP) install --quiet -c constraints.txt -e '.[test]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

constraints: $(VENV)/.created
	$(PIP) install --quiet --upgrade -e '.[test]'
	$(PIP) freeze --exclude-editable | grep -v '^-e ' > constraints.txt

system-run:
	@scripts/system-deps.sh run

system-test:
	@scripts/system-deps.sh test

db: install
	$(VENV)/bin/companion init-db

# German and French: `make i18n` extracts the strings and updates translations/*/messages.po;
# `make translations` compiles the .po files (committed) into .mo files (not committed).
MO_FILES := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(VENV)/.installed
	$(VENV)/bin/pybabel compile -i $< -o $@

translations: $(MO_FILES)

i18n: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k say -k say_in:1c,2 -k say_n:1,2 -k RuleError -k impossible -c TRANSLATORS: --no-location --sort-output \
		--omit-header -o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations --no-fuzzy-matching
	$(MAKE) translations

run: system-run install db translations
	$(VENV)/bin/companion serve --port $(PORT)

serve: run

# ... and then the benchmarks' smoke run, so `make bench` keeps running to its end on a fresh
# clone (its JSON report goes to bench-results/quick.json, its progress to the terminal)
# The tests' temporary files (their SQLite databases) go to /dev/shm when it is writable: a test
# checks what is written, not how long this disk takes to sync it (5.9 ms per fsync here; the
# test PostgreSQL already runs with fsync=off). `make bench` keeps the disk: it measures it.
TEST_TMPDIR := $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo $${TMPDIR:-/tmp})

# --dist worksteal: xdist's default (load) hands the first worker a first chunk of tests 1-263
# in collection order (every browser test, then tests/db: 1,279 s of about 2,700 s in one full
# run at load 7-11) that no other worker may take; once the rest is done, a worker whose
# chunk is longer has the other wait for it. worksteal starts each worker on half the tests and
# lets one that runs out take half of what the other still has queued: the same tests, each
# once, and no worker idle while the other has a queue.
test: system-test install-test translations
	PYTHONPATH=. $(VENV)/bin/lint-imports
	TMPDIR=$(TEST_TMPDIR) scripts/with-postgres.sh $(VENV)/bin/pytest -n 2 --dist worksteal \
		-p no:cacheprovider --durations=30 $(PYTEST_ARGS)
	$(MAKE) --no-print-directory bench BENCH_ARGS="--quick --out bench-results/quick.json" \
		>/dev/null

bench: system-test install-test
	scripts/with-postgres.sh $(PY) -m benchmarks $(BENCH_ARGS)

lint: install-test
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
