# dtc — the two commands a newcomer needs are `make run` and `make test`.
# Both create a local virtualenv (.venv) and install dtc into it first.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
BENCH_STAMP := $(VENV)/.bench-stamp
SEED   ?= 3

.PHONY: run test test-fast fuzz lint bench golden clean browser-tools

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

## run: lint the built-in content, list its heroes, and play a narrated Dice Throne bot game with it
##      (then a Kingdoms of Valeria solo game's score: `make run VALERIA=1` narrates it)
run: $(STAMP)
	$(BIN)/dtc lint content/
	$(BIN)/dtc heroes
	$(BIN)/dtc play --hero sun_elf --vs forgemaster --auto --seed $(SEED)
	$(BIN)/dtc valeria solo --auto --seed $(SEED) > $(VENV)/valeria-solo.txt
	@$(if $(VALERIA),cat,tail -n 12) $(VENV)/valeria-solo.txt

## test: the whole test suite (what CI runs)
test: $(STAMP) browser-tools
	$(BIN)/python -m pytest

## browser-tools: headless Chromium and poppler's pdftotext for the designer views' browser tests
##   (tests/test_browser.py), from Debian's packages when missing and this is root on a Debian machine
browser-tools:
	@if command -v chromium >/dev/null && command -v pdftotext >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing chromium and poppler-utils (the browser tests need them)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils >/dev/null; \
	else echo "note: install chromium and poppler-utils for tests/test_browser.py (or set DTC_NO_BROWSER=1)"; fi

## fuzz: every stage of the pipeline (parse, load, check, compile, verify, run, save) with FUZZ_INPUTS
##   generated inputs, shared among the property tests of the stage (tests/fuzzing.py; 100,000 a stage
##   is about 1.5 h on 2 cores); no input may take over 10 s; a log a test in .venv/fuzz/, the table in
##   .venv/fuzz/summary.txt; `make fuzz FUZZ_INPUTS=5000` for a shorter run
FUZZ_INPUTS ?= 100000
fuzz: $(STAMP)
	$(BIN)/python tests/fuzzing.py --inputs $(FUZZ_INPUTS) --jobs 2

## test-fast: everything but the slow packaging and fuzzing tests
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

## lint: ruff over the code, and dtc over the content with warnings as errors
lint: $(STAMP)
	$(BIN)/ruff check dtc tests bench
	$(BIN)/dtc lint --strict content/

# the bench extra (yamllint, which `dtc lint` is timed against): for `make bench` only
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dask,bench]'
	touch $(BENCH_STAMP)

## bench: lint timings (cold and warm, against yamllint), effect-parse time per sentence, compile time,
##        VM throughput, odds tables, bot games per second (1v1, 2v2, King of the Hill) and peak
##        memory over 100,000 games
##        (several minutes; BENCH_GAMES=10000 for a quicker look)
bench: $(BENCH_STAMP)
	$(BIN)/python bench/bench_lint.py
	$(BIN)/python bench/bench_parse.py
	$(BIN)/python bench/bench_vm.py
	$(BIN)/python bench/bench_odds.py
	$(BIN)/python bench/bench_valeria.py
	$(BIN)/python bench/bench_games.py
	$(BIN)/python bench/bench_adventure.py
	$(BIN)/python bench/bench_cluster.py
	$(BIN)/python bench/bench_views.py

## golden: rewrite the expected-output files under tests/cases (review the diff!)
golden: $(STAMP)
	$(BIN)/python -m pytest tests/test_golden.py tests/test_golden_ast.py tests/test_compile.py --update-golden

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
