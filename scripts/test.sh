#!/usr/bin/env bash
# `npm test`: the whole suite, then the pure-logic tests (src/) again under two more time zones.
# Every run goes ahead and prints its counts even when an earlier one failed; the exit status is
# non-zero when any run failed.
set -u
cd "$(dirname "$0")/.."
failed=()
run() {
  local label=$1
  shift
  echo "== npm test: $label"
  "$@" || failed+=("$label")
}
run "suite" npx vitest run
run "src/ with TZ=Pacific/Auckland" env TZ=Pacific/Auckland npx vitest run src
run "src/ with TZ=America/New_York" env TZ=America/New_York npx vitest run src
if [ ${#failed[@]} -gt 0 ]; then
  printf 'npm test: failed runs: %s\n' "$(IFS=';'; echo "${failed[*]}")" >&2
  exit 1
fi
echo "npm test: all 3 runs passed"
