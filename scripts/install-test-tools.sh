#!/usr/bin/env bash
# Installs the system tools the test suite spawns (Debian or Ubuntu; root or sudo). The list is
# scripts/test-tools.mjs, which `npm test` checks before it runs anything; CI (.ci/run) runs this script too.
#   sudo bash scripts/install-test-tools.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

mapfile -t missing < <(node scripts/test-tools.mjs --missing-packages)
# wine64 (~100 MB) apart: where it cannot be installed the Windows printing test is skipped with a WARNING.
required=()
wine=0
for p in "${missing[@]}"; do
  if [ "$p" = wine64 ]; then wine=1; else required+=("$p"); fi
done

if ((${#missing[@]})); then
  $SUDO apt-get update -qq
fi
if ((${#required[@]})); then
  echo "installing: ${required[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${required[@]}" >/dev/null
fi
if ((wine)); then
  echo "installing: wine64"
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wine64 >/dev/null; then
    echo "WARNING: wine64 could not be installed; the Windows printing test (test/wine/winspool.test.ts) is SKIPPED" >&2
  fi
fi
node scripts/test-tools.mjs
