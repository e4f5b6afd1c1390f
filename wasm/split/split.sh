#!/bin/sh
# Cuts the app's module in two (wasm/CMakeLists.txt, "Two halves"), run in
# the module's folder after the link:
#
#   split.sh NODE WASM_SPLIT [--debuginfo]
#
# The link leaves an instrumented ensemble_core.wasm and the plain one as
# ensemble_core.wasm.orig; this plays the first screen on the instrumented
# one (first_screen.mjs) and cuts the plain one by what ran. On any failure
# it removes the link's outputs, so the next build links again instead of
# shipping an instrumented module.
set -eu
node="$1"
wasm_split="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"

fail() {
  rm -f ensemble_core.js ensemble_core.wasm ensemble_core.deferred.wasm
  echo "split.sh: $1" >&2
  exit 1
}

"$node" "$here/first_screen.mjs" ensemble_core.js ensemble_core.wasm ensemble_core.profile ||
  fail "the first screen did not run on the instrumented module"
# The features the core is compiled with (the module keeps no list of them).
"$wasm_split" ensemble_core.wasm.orig --profile=ensemble_core.profile \
  --enable-exception-handling --enable-mutable-globals --enable-sign-ext "$@" \
  --export-prefix=% -o1 ensemble_core.wasm -o2 ensemble_core.deferred.wasm ||
  fail "wasm-split failed"
