# Two commands do all the set-up from a fresh clone (Python 3.11 and pip only):
#   make site   validate the records, rerun stale analyses (the smallest scale), build the site
#   make test   run the everyday test suite (under two minutes on two cores; tests marked slow are left out)
#   make test-all   run every test, the slow ones too (what CI runs)
# The everyday commands, with litrec's arguments in ARGS (make run ARGS="NAME --profile quick"):
#   make run      rerun stale analyses and judge the claims (litrec run)
#   make status   one row per claim, from the stored results (litrec status)
#   make serve    preview the site live (litrec site serve)
#   make bench    every benchmark of bench/, into bench/results.json and the docs' one table
#   make screenshot   the README's picture of the site, by headless Chromium
#   make check    lint (ruff) and type-check (mypy) the code
#   make mutation mutation testing of the verdict core, with its score (tools/mutation.py)
# Each creates .venv (pip, then uv) when it is missing or older than pyproject.toml/constraints.txt;
# litrec itself is then .venv/bin/litrec (or `. .venv/bin/activate`, then `litrec`).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.litrec-installed
ARGS   ?=

.PHONY: site test test-all venv run status serve clean bench screenshot mutation check

# pip installs uv (pinned in constraints.txt), and uv installs the pinned packages: it downloads
# them side by side and links them from its cache (~/.cache/uv), where pip took 28 s, one after
# another (fresh clone, two cores). Where uv cannot (no wheel of it for this machine, an index
# only pip is configured for), pip installs them itself. Either way without compiling: compileall
# then compiles them on every core. (Compiled on first import instead, they are not kept where an
# analysis's point runs: its sandbox sees the environment read-only, so every point compiled
# what it imports again: CI's quick run took 72 and 81 s against 59 s)
$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt uv \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt -e '.[dev]' \
	  || { echo "make: uv could not install the packages; pip installs them"; \
	       $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -c constraints.txt -e '.[dev]'; }
	$(BIN)/python -m compileall -q -j 0 "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
	@touch $(STAMP)

venv: $(STAMP)

site: $(STAMP)
	$(BIN)/litrec validate
	$(BIN)/litrec run --allow-not-reproduced --any-machine
	$(BIN)/litrec site build

run: $(STAMP)
	$(BIN)/litrec run --allow-not-reproduced $(ARGS)

status: $(STAMP)
	$(BIN)/litrec status $(ARGS)

serve: $(STAMP)
	$(BIN)/litrec site serve $(ARGS)

# litrec's modules compiled first: every `python -m litrec` the tests start then loads them, also
# where PYTHONDONTWRITEBYTECODE keeps Python from caching what it compiles (a shell may set it).
# The everyday suite runs the points of its toy runs unsandboxed (LITREC_SANDBOX=off: a sandbox and
# its point server are most of a toy run's time), but for the tests of the sandbox itself, which
# turn it back on; test-all (CI) runs every point in its sandbox
test: $(STAMP)
	$(BIN)/python -m compileall -q src
	LITREC_SANDBOX=off $(BIN)/python -m pytest -n 2

# One worker more than the cores (at most 8): a test that waits (a server, a cluster, a child
# process, a timer) leaves its core to the extra worker, where one per core left it idle. On two
# cores three workers took 388 and 432 s against 415 and 443 s for four (fresh clones, the two
# taking turns): a fourth worker cost more in crowding than it won in waits
TEST_ALL_WORKERS := $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$((n < 8 ? n + 1 : 8)))
test-all: $(STAMP)
	$(BIN)/python -m compileall -q src
	$(BIN)/python -m pytest -m '' -n $(TEST_ALL_WORKERS) --dist loadscope

# Lint and import order (ruff, on everything), types (mypy, on the packages pyproject names)
check: $(STAMP)
	$(BIN)/ruff check src tests analysis bench tools
	$(BIN)/mypy

# ARGS="--smoke": each script's smoke run (seconds, tiny sizes), nothing stored; ARGS="--results PATH":
# the rows kept in PATH, not in bench/results.json; ARGS="--only validate_scale,site_scale"
bench: $(STAMP)
	$(BIN)/python bench/all.py $(ARGS)

# The README's picture: the built home page in headless Chromium (site/assets/screenshot.png),
# with the hashes of what it shows beside it (screenshot.png.inputs.json: the home page's
# generated Markdown, extra.css, mkdocs.yml), which tests/docs/test_screenshot.py compares
# with the home page as it would be generated now
screenshot: $(STAMP)
	$(BIN)/litrec site build
	$(BIN)/python -m litrec.site.screenshot --site public --out site/assets/screenshot.png

# Mutation testing of the verdict core (mutmut, in mutants/): prints the score per module.
mutation: $(STAMP)
	$(BIN)/python tools/mutation.py $(ARGS)

clean:
	rm -rf build public
