#!/usr/bin/env bash
# Builds and runs the cargo-fuzz targets of mmd-formats for a bounded time each; exits 1
# when any target finds a failure (a panic, a broken property, a timeout, running out of
# memory). See tests/FUZZING.md.
#
#   tests/fuzz/run.sh [--seconds N] [--runs R] [--jobs J] [--seed-max-bytes B]
#                     [--sanitizer none|address] [TARGET...]
#
# N seconds a target (default 60; 0: no limit), or R executions a target, whichever comes
# first; J targets at once (default: the number of cores); every target when none is
# named. Fixtures of at most B bytes (default 262144) seed the read targets, and their
# JSON dumps of at most B bytes seed build_json; they come from $MMD_CORPUS, else
# ../shared/fixtures beside the repository, when there. Installs the pinned cargo-fuzz
# when it is missing. Logs: tests/fuzz/logs/.
set -euo pipefail

CARGO_FUZZ_VERSION=0.13.2
root="$(cd "$(dirname "$0")/../.." && pwd)"
fuzz="$root/tests/fuzz"
seconds=60
runs=
seed_max_bytes=262144
jobs="$(nproc 2>/dev/null || echo 2)"
sanitizer=none
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --seed-max-bytes) seed_max_bytes="$2"; shift 2 ;;
        --sanitizer) sanitizer="$2"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done

# cargo-fuzz, pinned; libFuzzer itself is built from the libfuzzer-sys crate.
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
    echo "installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install --quiet --locked --version "$CARGO_FUZZ_VERSION" cargo-fuzz
fi

# The nightly toolchain when there is one; else the stable compiler. Without a sanitizer
# (the default: mmd-formats has no unsafe code) stable builds the targets as they are;
# RUSTC_BOOTSTRAP=1 lets it take the address sanitizer's -Z flag too.
toolchain=()
if cargo +nightly --version >/dev/null 2>&1; then
    toolchain=(+nightly)
else
    echo "no nightly toolchain: using stable with RUSTC_BOOTSTRAP=1"
    export RUSTC_BOOTSTRAP=1
fi
echo "toolchain: $(cargo "${toolchain[@]}" --version)"

cd "$root"
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list --fuzz-dir "$fuzz")
fi

# Seeds: the built-in samples and the fixtures (copied at run time, never committed).
fixtures="${MMD_CORPUS:-$root/../shared/fixtures}"
seed_args=("$fuzz/corpus" --max-bytes "$seed_max_bytes")
if [ -d "$fixtures" ]; then seed_args+=("$fixtures"); else echo "no fixtures at $fixtures"; fi
cargo run --quiet --manifest-path "$fuzz/Cargo.toml" -p mmd-fuzz-seeder -- "${seed_args[@]}"

cargo "${toolchain[@]}" fuzz build --fuzz-dir "$fuzz" -s "$sanitizer"

mkdir -p "$fuzz/logs"
# Runs one target; its log goes to logs/TARGET.log.
run_one() {
    local t="$1"
    local dirs=("$fuzz/corpus/$t")
    mkdir -p "$fuzz/corpus/$t"
    # Findings kept as regression inputs run first, every time.
    if [ -d "$fuzz/regressions/$t" ]; then dirs+=("$fuzz/regressions/$t"); fi
    local flags=(-timeout=20 -rss_limit_mb=2048 -print_final_stats=1)
    if [ "$seconds" != 0 ]; then flags+=(-max_total_time="$seconds"); fi
    if [ -n "$runs" ]; then flags+=(-runs="$runs"); fi
    local dict="$fuzz/dict/${t#read_}.dict"
    # build_json's dictionary is written by the seeder (dict/json.dict and the schemas' names).
    if [ "$t" = build_json ]; then dict="$fuzz/corpus/build_json.dict"; fi
    if [[ ( "$t" == read_* || "$t" == build_json ) && -f "$dict" ]]; then flags+=(-dict="$dict"); fi
    cargo "${toolchain[@]}" fuzz run --fuzz-dir "$fuzz" -s "$sanitizer" "$t" "${dirs[@]}" \
        -- "${flags[@]}" >"$fuzz/logs/$t.log" 2>&1
}

# One line per target from libFuzzer's final stats and last status line.
report() {
    local t="$1" status="$2" log="$fuzz/logs/$1.log"
    local execs cov ft corp
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    read -r cov ft corp < <(grep -E '^#[0-9]+' "$log" | tail -1 |
        sed -E 's/.* cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 \2 \3/;t;s/.*/? ? ?/') || true
    echo "$t: ${execs:-?} execs, cov ${cov:-?} edges, ft ${ft:-?}, corpus ${corp:-?}: $status"
}

pass=0
fail=0
pids=()
names=()
finish() {
    local i="$1"
    if wait "${pids[$i]}"; then
        report "${names[$i]}" ok
        pass=$((pass + 1))
    else
        report "${names[$i]}" FAILED
        fail=$((fail + 1))
        echo "---- ${names[$i]}: end of logs/${names[$i]}.log"
        # Lines cut short: cargo fuzz prints the whole input as a Debug list.
        grep -v '^#[0-9]' "$fuzz/logs/${names[$i]}.log" | tail -40 | cut -c1-300
        echo "----"
    fi
}
next=0
for t in "${targets[@]}"; do
    run_one "$t" &
    pids+=($!)
    names+=("$t")
    # Keep at most $jobs running: wait for the oldest.
    if [ $(( ${#pids[@]} - next )) -ge "$jobs" ]; then
        finish "$next"
        next=$((next + 1))
    fi
done
while [ "$next" -lt "${#pids[@]}" ]; do
    finish "$next"
    next=$((next + 1))
done

echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
