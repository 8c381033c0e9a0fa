#!/usr/bin/env bash
# Tests the production install of docs/deployment.md in a copy of this checkout under /tmp (the
# checkout itself is not touched), then smoke-runs the pruned tree on each Node.js binary given:
#   scripts/production-install.sh /path/to/node22 /path/to/node24 ...
# 1. build, then prune: npm ci && npm run build (prepare) && npm prune --omit=dev; no devDependency
#    is left, dist/ imports runtime dependencies only, and the smoke (scripts/smoke.mjs: server and
#    worker) passes;
# 2. npm ci --omit=dev on that built tree installs without building (prepare skips) and starts.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
[ "$#" -gt 0 ] || set -- "$(command -v node)"
work=$(mktemp -d /tmp/portier-production-XXXXXX)
trap 'rm -rf "$work"' EXIT
say() { echo "[production-install] $*"; }

say "copying the checkout (tracked and new files, no node_modules or build output) to $work"
git -C "$src" ls-files -z -co --exclude-standard | tar -C "$src" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$work" -xf -
cd "$work"

say "npm ci (development install; prepare builds dist/ and dashboard/dist/)"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error
[ -f dist/src/main.js ] && [ -f dashboard/dist/index.html ] || { echo "the build did not make dist/src/main.js and dashboard/dist/index.html" >&2; exit 1; }

say "npm prune --omit=dev"
npm prune --omit=dev --no-audit --no-fund --loglevel=error
# The API reference's renderer is served from the build's copy (dist/vendor/), so neither
# @scalar/api-reference nor the TypeScript it brought is installed; tsx only runs the sources.
for dev in vite vitest eslint @graphql-codegen/cli playwright-core @sparticuz/chromium @scalar/api-reference typescript tsx; do
  if [ -e "node_modules/$dev" ]; then echo "devDependency $dev is still installed after the prune" >&2; exit 1; fi
done
say "runtime imports"
node scripts/runtime-imports.mjs "$work"
[ -f dist/vendor/scalar-api-reference.standalone.txt ] || { echo "the build did not copy the API reference's renderer to dist/vendor/" >&2; exit 1; }
say "production node_modules: $(du -sh node_modules | cut -f1), $(npm ls --all --parseable --omit=dev 2>/dev/null | tail -n +2 | sort -u | wc -l) packages"

for node in "$@"; do
  say "smoke on $node ($("$node" --version)), pruned tree"
  "$node" "$work/scripts/smoke.mjs" "$work"
done

say "npm ci --omit=dev on the built tree (prepare sees --omit=dev, builds nothing and keeps the build)"
npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error
[ -f dist/src/main.js ] || { echo "npm ci --omit=dev lost dist/" >&2; exit 1; }
[ ! -e node_modules/vite ] || { echo "npm ci --omit=dev installed vite" >&2; exit 1; }
say "smoke on $1 ($("$1" --version)), npm ci --omit=dev tree"
"$1" "$work/scripts/smoke.mjs" "$work"
say "PASS"
