# Shared functions of tools/dev and tools/bench. Sourced, not run.

# Debian packages the build, the tests and the app need.
APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  emscripten binaryen
  libboost-dev nlohmann-json3-dev libvalijson-dev
  libpq-dev postgresql sqlite3
  libsodium-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  chromium chromium-driver
  unicode-data bzip2  # NormalizationTest.txt(.bz2): the NFKC conformance test runs all of it.
  brotli  # The wasm build precompresses what the server sends (.br beside each file).
  libbrotli-dev  # The server compresses its JSON answers (server/http/compression.h).
  haproxy  # The load balancer in front of three servers in the cluster test.
)
PG_BIN=/usr/lib/postgresql/15/bin
PG_STATE_FILE="$ROOT/build/pg/state"

log() { printf '\033[1m[dev]\033[0m %s\n' "$*" >&2; }
die() {
  printf '[dev] error: %s\n' "$*" >&2
  exit 1
}
as_root() { if [[ $EUID -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

dev_deps() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then :; else
    missing+=(nodejs npm)
  fi
  if ((${#missing[@]})); then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
  # npm packages, pinned by package-lock.json; reinstalled only when it changes.
  local stamp="node_modules/.lock-sha256" want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    log "installing npm packages (package-lock.json)"
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    echo "$want" >"$stamp"
  fi
  tools/lib/fetch-sqlite.sh
  tools/lib/fetch-zlib.sh
}

dev_build() {
  local presets=("$@")
  [[ ${#presets[@]} -eq 1 ]] && read -r -a presets <<<"${presets[0]}"
  export NODE_PATH=/usr/share/nodejs  # Emscripten's JS optimizer needs Debian's acorn.
  # Debian's emcc 3.1.6 ships clang/libc++ 14: core/ code that the wasm
  # preset compiles cannot use std::ranges algorithms (std::find instead).
  for preset in "${presets[@]}"; do
    local start=$SECONDS
    log "building preset '$preset'"
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset"
    log "preset '$preset' built in $((SECONDS - start)) s"
  done
}

dev_serve() {
  export ENSEMBLE_HTTP_ADDR="${ENSEMBLE_HTTP_ADDR:-127.0.0.1}"
  export ENSEMBLE_PORT="${ENSEMBLE_PORT:-8080}"
  export ENSEMBLE_DATA_DIR="${ENSEMBLE_DATA_DIR:-$ROOT/.data}"
  export ENSEMBLE_WEB_ROOT="$ROOT/web-shell"
  export ENSEMBLE_WASM_DIR="$ROOT/build/wasm/wasm"
  export ENSEMBLE_WEB_COMPRESSED_DIR="$ROOT/build/wasm/web-shell"
  log "serving http://$ENSEMBLE_HTTP_ADDR:$ENSEMBLE_PORT (data in $ENSEMBLE_DATA_DIR)"
  exec "$ROOT/build/native/server/ensemble_server"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Starts a PostgreSQL cluster of our own (the machine runs none) and exports
# ENSEMBLE_TEST_DATABASE_URL. PostgreSQL refuses to run as root, so the cluster
# belongs to the postgres user.
pg_start() {
  local dir port
  dir="$(mktemp -d /tmp/ensemble-pg.XXXXXX)"
  port="$(free_port)"
  chown postgres:postgres "$dir"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres \
    --no-sync >/dev/null
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w start -o \
    "-k $dir -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" >/dev/null
  mkdir -p "$(dirname "$PG_STATE_FILE")"
  echo "$dir" >"$PG_STATE_FILE"
  export ENSEMBLE_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
  log "PostgreSQL running on 127.0.0.1:$port ($dir)"
}

pg_stop() {
  [[ -f "$PG_STATE_FILE" ]] || return 0
  local dir
  dir="$(cat "$PG_STATE_FILE")"
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir" "$PG_STATE_FILE"
}

# Runs one suite, echoing its output, and adds its counts to the totals.
PASSED=0
FAILED=0
FAILED_SUITES=()
FAILURE_LOG=""

# Prints what failed in one suite's output, so the end of a long run (all CI
# keeps) names the failing tests: node's TAP "not ok" entries with their YAML
# blocks, ctest's list of failed tests, else the output's last lines.
failure_excerpt() {
  local name="$1" out="$2"
  echo "---- $name"
  if grep -q '^ *not ok ' "$out"; then
    awk '/^ *not ok /{keep=1; n=0} keep{print; if (++n >= 40 || /^ *\.\.\.$/) keep=0}' \
      "$out" | head -200
  elif grep -q 'The following tests FAILED' "$out"; then
    sed -n '/The following tests FAILED/,$p' "$out" | head -100
  else
    tail -40 "$out"
  fi
}
run_suite() {
  local name="$1"
  shift
  log "suite: $name"
  local out rc=0
  out="$(mktemp)"
  "$@" 2>&1 | tee "$out" || rc=$?
  local p f
  if grep -q 'tests passed, ' "$out"; then  # ctest
    local total
    total="$(grep -oE 'out of [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+')"
    f="$(grep -oE '[0-9]+ tests failed' "$out" | tail -1 | grep -oE '^[0-9]+')"
    p=$((total - f))
  elif grep -qE '^# pass [0-9]+' "$out"; then  # node --test
    p="$(grep -oE '^# pass [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+$')"
    f="$(grep -oE '^# fail [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+$' || echo 0)"
  else  # A single check, such as a fuzzing run.
    p=$((rc == 0 ? 1 : 0))
    f=0
  fi
  if [[ $rc -ne 0 ]]; then
    [[ -n "$FAILURE_LOG" ]] || FAILURE_LOG="$(mktemp)"
    failure_excerpt "$name" "$out" >>"$FAILURE_LOG"
  fi
  rm -f "$out"
  PASSED=$((PASSED + ${p:-0}))
  FAILED=$((FAILED + ${f:-0}))
  if [[ $rc -ne 0 ]]; then
    FAILED_SUITES+=("$name")
    # A suite that crashed counts once. (An `if`, not `&&`: a false test as
    # the function's last command would return 1, and under `set -e` a
    # suite with failures would stop the run before the later suites.)
    if [[ ${f:-0} -eq 0 ]]; then FAILED=$((FAILED + 1)); fi
  fi
  return 0
}

# Runs one libFuzzer target for a bounded time from its committed seeds,
# writing its output to $2 and its exit status to $2.rc.
fuzz_one() {
  local fuzzer="$1" log="$2" seconds="$3" name corpus rc=0
  name="$(basename "$fuzzer" _fuzzer)"
  corpus="$(mktemp -d)"
  cp tools/fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null || true
  "$fuzzer" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 "$corpus" \
    >"$log" 2>&1 || rc=$?
  echo "$rc" >"$log.rc"
  rm -rf "$corpus"
}

# Runs every libFuzzer target, FUZZ_PARALLEL (default 2, the cores) at a
# time, then reports each as a suite in name order.
run_fuzzers() {
  local seconds="$1" parallel="${FUZZ_PARALLEL:-2}" logs fuzzer name running=0
  logs="$(mktemp -d)"
  for fuzzer in build/fuzz/tools/fuzz/*_fuzzer; do
    fuzz_one "$fuzzer" "$logs/$(basename "$fuzzer")" "$seconds" &
    running=$((running + 1))
    if ((running >= parallel)); then
      wait -n || true
      running=$((running - 1))
    fi
  done
  wait
  for fuzzer in build/fuzz/tools/fuzz/*_fuzzer; do
    name="$(basename "$fuzzer" _fuzzer)"
    # A passing run's dictionary and progress lines run to thousands; its
    # final stats say enough. A failing run's crash report is at its end.
    run_suite "fuzz $name (${seconds} s)" bash -c \
      'rc="$(cat "$1.rc")"; tail -n "$((rc ? 80 : 8))" "$1"; exit "$rc"' _ \
      "$logs/$(basename "$fuzzer")"
  done
  rm -rf "$logs"
}

dev_test() {
  trap pg_stop EXIT
  pg_start
  export ENSEMBLE_REQUIRE_PG=1
  # The suites run the sanitizer build's server and command line: they are
  # checked for memory errors too, and CI need not build Release as well.
  export ENSEMBLE_SERVER_BIN="$ROOT/build/native-debug/server/ensemble_server"
  export ENSEMBLE_CLI_BIN="$ROOT/build/native-debug/tools/cli/ensemble"
  export ENSEMBLE_NORMALIZATION_TEST="$ROOT/build/NormalizationTest.txt"
  bzip2 -dc /usr/share/unicode/NormalizationTest.txt.bz2 >"$ENSEMBLE_NORMALIZATION_TEST"
  run_suite "native, ASan+UBSan (ctest)" ctest --preset native-debug -j2
  run_suite "wasm (node --test)" node --test tests/wasm/
  run_suite "command line (node --test)" node --test tests/cli/
  run_suite "browser end-to-end (node --test)" node --test --test-concurrency=1 tests/e2e/
  run_suite "security, browser (node --test)" node --test --test-concurrency=1 tests/security/
  run_suite "crash: kill -9 mid-push (node --test)" node --test --test-concurrency=1 tests/crash/
  run_suite "cluster: three servers behind HAProxy (node --test)" node --test --test-concurrency=1 tests/cluster/
  run_fuzzers "${ENSEMBLE_FUZZ_SECONDS:-20}"
  if ((${#FAILED_SUITES[@]})); then
    log "what failed:"
    cat "$FAILURE_LOG"
    log "failed suites: ${FAILED_SUITES[*]}"
  fi
  [[ -z "$FAILURE_LOG" ]] || rm -f "$FAILURE_LOG"
  echo "${PASSED} passed, ${FAILED} failed"
  [[ ${#FAILED_SUITES[@]} -eq 0 ]]
}
