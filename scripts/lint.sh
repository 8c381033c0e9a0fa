#!/usr/bin/env bash
# `npm run lint` (and `npm run lint:cold` with --cold): ESLint, Prettier's check and the import-cycle
# check (dpdm, `npm run cycles`) side by side. Each tool is single-threaded, so on two cores Prettier
# and dpdm finish while ESLint runs (docs/development.md, "Lint"). Each tool's output is printed
# whole, in that order, once all three are done; the exit status is non-zero when any failed.
#   --cold   no ESLint or Prettier cache (lint:cold): every file is linted and checked again.
set -u
cd "$(dirname "$0")/.."
eslint_cache=(--cache --cache-strategy content --cache-location node_modules/.cache/eslint/)
prettier_cache=(--cache --cache-strategy content --cache-location node_modules/.cache/prettier/.prettier-cache)
if [ "${1:-}" = "--cold" ]; then
  eslint_cache=()
  prettier_cache=()
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npx eslint "${eslint_cache[@]}" . >"$out/eslint" 2>&1 &
eslint_pid=$!
npx prettier --check "${prettier_cache[@]}" . >"$out/prettier" 2>&1 &
prettier_pid=$!
npm run --silent cycles >"$out/cycles" 2>&1 &
cycles_pid=$!
failed=()
wait "$eslint_pid" || failed+=(eslint)
wait "$prettier_pid" || failed+=(prettier)
wait "$cycles_pid" || failed+=("cycles (dpdm)")
for tool in eslint prettier cycles; do
  echo "== lint: $tool"
  cat "$out/$tool"
done
if [ ${#failed[@]} -gt 0 ]; then
  printf 'lint: failed: %s\n' "$(IFS=','; echo "${failed[*]}")" >&2
  exit 1
fi
