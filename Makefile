# Bookdesk: `make demo` runs the sandbox and the frontend; `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 5000
SANDBOX_PORT ?= 8001

.PHONY: demo test lint translations translations-update bench bench-load bench-browser bench-export clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

translations: $(STAMP)
	$(BIN)/pybabel -q compile -d translations

translations-update: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k lazy_gettext -k ngettext:1,2 -k pgettext:1c,2 --no-location --sort-output --project Bookdesk --version 0.1.0 -o translations/messages.pot .
	$(BIN)/pybabel -q update -N --ignore-obsolete -i translations/messages.pot -d translations

demo: $(STAMP) translations
	$(BIN)/bookdesk demo --port $(PORT) --sandbox-port $(SANDBOX_PORT) $(if $(RESET),--reset)

test: $(STAMP) translations
	$(BIN)/ruff check .
	$(BIN)/pytest -n $${PYTEST_WORKERS:-auto} --dist loadgroup $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP) translations
	$(BIN)/python -m bench.sandbox_scale

bench-load: $(STAMP) translations
	$(BIN)/python -m bench.load --upstream gunicorn
	$(BIN)/python -m bench.load --upstream stub

bench-browser: $(STAMP) translations
	$(BIN)/python -m bench.browser

bench-export: $(STAMP) translations
	$(BIN)/python -m bench.export

clean:
	rm -rf $(VENV) instance .pytest_cache
	find translations -name '*.mo' -delete
