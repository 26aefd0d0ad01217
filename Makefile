# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
TRAIN_STAMP := $(VENV)/.installed-training
# the core install alone (numpy, scipy, gymnasium, pettingzoo), with the newest Gymnasium pip finds:
# the extras pin the Gymnasium Ray's RLlib takes, so both are tested. What differs from the main
# venv is Gymnasium and the missing extras (the same numpy and scipy resolve in both, and the
# compiled core is built from the same sources), so test-core runs the tests of what those can
# change, not the whole engine a second time (the rules, the twin games, the searches and the agents
# run in the main suite): the env's PettingZoo and Gymnasium API, spaces and tasks (gymnasium.make,
# make_vec, the batch), the campaign env, the package's data, import layers and the errors naming a
# missing extra, the compiled core built in this venv, and the demo. If the extras ever pin numpy or
# scipy apart from the newest, run the rules tests here again.
CORE_VENV ?= .venv-core
CORE_STAMP := $(CORE_VENV)/.installed-core
CORE_TESTS := tests/test_env_api.py tests/test_env_observation.py tests/test_role_env.py \
	tests/test_tasks.py tests/test_campaign_env.py tests/test_batched.py tests/test_layers.py \
	tests/test_content.py tests/test_content_cards.py tests/test_core_engine.py tests/test_demo.py
# the two workers are handed tests two at a time as they finish them, the slowest first
# (tests/conftest.py), rather than a quarter of the suite each up front: both finish together
XDIST_SCHEDULE := --maxschedchunk=2
# the page's browser tests drive Debian's Chromium through its ChromeDriver (system packages)
BROWSER := /usr/bin/chromium /usr/bin/chromedriver
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# the compiled core (src/core, C++ with nanobind, built by scikit-build-core through CMake when the
# package installs): a change to its sources reinstalls, and its compiler and CMake come from Debian
CORE_SOURCES := CMakeLists.txt $(wildcard src/core/*.?pp src/core/rules/*)
TOOLCHAIN := /usr/bin/g++ /usr/bin/cmake
BUILD_FAILED = { echo "make: building dungeon_env (its compiled core in src/core) into $(1) failed; the \
compiler's or pip's messages above say why. It needs g++ and cmake (make installs them with apt-get) \
and reaches PyPI for scikit-build-core and nanobind." >&2; exit 1; }

.PHONY: demo test test-core bench lint format clean play parity

$(TOOLCHAIN):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends g++ cmake

$(STAMP): pyproject.toml $(CORE_SOURCES) | $(TOOLCHAIN)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev]' || $(call BUILD_FAILED,$(VENV))
	touch $(STAMP)

# torch first, pinned: pip then takes the CPU wheel on this machine's disk, not a multi-GB CUDA build.
$(TRAIN_STAMP): $(STAMP)
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev,training,ray,marl]' || $(call BUILD_FAILED,$(VENV))
	touch $(TRAIN_STAMP)

# The main job: one adventure of the scripted heroes against the scripted DM, then the designer's
# difficulty report on goblin_warrens (base rules against one Patrol on the board at a time), written
# under reports/demo.
demo: $(STAMP)
	$(PY) -m agents.demo
	$(VENV)/bin/dungeon-env balance --adventure goblin_warrens --games 400 --set rules.patrol_board_max=1 --out reports/demo

$(BROWSER):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium chromium-driver

test: $(TRAIN_STAMP) $(BROWSER)
	$(PY) -m pytest -q -n 2 $(XDIST_SCHEDULE) --durations=30
	$(MAKE) test-core

$(CORE_STAMP): pyproject.toml $(CORE_SOURCES) | $(TOOLCHAIN)
	$(PYTHON) -m venv $(CORE_VENV)
	$(CORE_VENV)/bin/python -m pip install --quiet -e . pytest pytest-xdist || $(call BUILD_FAILED,$(CORE_VENV))
	touch $(CORE_STAMP)

# the engine, the env and its Gymnasium tasks on the core install alone (newest Gymnasium)
test-core: $(CORE_STAMP)
	$(CORE_VENV)/bin/python -c "import gymnasium; print('core install: gymnasium', gymnasium.__version__)"
	$(CORE_VENV)/bin/python -m pytest -q -n 2 $(XDIST_SCHEDULE) $(CORE_TESTS)

# three human heroes against the scripted DM in your browser (dungeon-env play --help for the seats)
play: $(STAMP)
	$(VENV)/bin/dungeon-env play

# bench_aims first (issue 54's aims, MET or MISSED; then the engine aim of a game played in the core alone); bench_learning and bench_policy need torch and SB3
# (the training extra)
bench: $(TRAIN_STAMP)
	$(PY) scripts/bench_aims.py
	$(PY) scripts/bench_aims.py --only engine --candidate dungeon_env.core_parity:CoreGame
	$(PY) scripts/bench.py
	$(PY) scripts/bench_env.py
	$(PY) scripts/bench_balance.py
	$(PY) scripts/bench_scripted.py
	$(PY) scripts/bench_search.py
	$(PY) scripts/bench_learning.py
	$(PY) scripts/bench_policy.py

# every stored golden game (tests/data/golden/, recorded by the Python engine before the compiled
# core) played again by the engine as it is, compiled pieces included, on two processes (docs/CORE.md)
# every stored golden game: the Python engine, then the core engine (the random games with the core
# alone, the scripted ones with the core shadowing a Python game: docs/CORE.md)
parity: $(STAMP)
	$(PY) scripts/golden_logs.py check --workers 2
	$(PY) scripts/golden_logs.py check --workers 2 --kind random --engine dungeon_env.core_parity:PythonGame
	$(PY) scripts/golden_logs.py check --workers 2 --kind scripted --engine dungeon_env.core_parity:CheckedGame

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) $(CORE_VENV) build *.egg-info .pytest_cache
