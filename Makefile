# forumwar: every target installs what it needs into .venv on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GAME ?= games/demo

.PHONY: install test test-full lint demo turn check bench clean constraints

$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]' -c constraints.txt
	touch $(STAMP)

# The tested versions, from a fresh environment with today's releases (commit the new constraints.txt
# only after make test passes with them)
constraints:
	rm -rf .venv-constraints && $(PY) -m venv .venv-constraints
	.venv-constraints/bin/pip install -q -e '.[test]'
	( sed -n '1,2p' constraints.txt; .venv-constraints/bin/pip freeze --exclude-editable ) > constraints.new
	mv constraints.new constraints.txt && rm -rf .venv-constraints

install: $(STAMP)

# Byte code is cached as Python does by default (some machines set PYTHONDONTWRITEBYTECODE): every
# `forumwar` the tests start would compile the whole tool again.
test: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

# Everything: the whole suite with FORUMWAR_FULL_TESTS=1, i.e. also the tests marked `full` (the slower
# siblings of what every run checks: other code pages, the other rule set or backend, subprocess runs), the
# crash sweep before every single write and request with the map and charts drawn, the discovery check over
# a re-run of the whole Google suite, every repository Titania case through the books and the 64-faction
# games on both backends (an hour or more on two cores)
test-full: $(STAMP)
	FORUMWAR_FULL_TESTS=1 env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -s

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/mypy

# Both demos: Jade Rose in games/demo, Titania in games/demo-titania
demo: $(STAMP)
	$(BIN)/forumwar demo --ruleset jade_rose games/demo
	$(BIN)/forumwar demo --ruleset titania games/demo-titania

turn: $(STAMP)
	$(BIN)/forumwar turn $(GAME)

check: $(STAMP)
	$(BIN)/forumwar check $(GAME)

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) games/demo games/demo-titania
