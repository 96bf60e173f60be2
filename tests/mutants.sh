#!/usr/bin/env bash
# Mutation testing, run by hand (not part of .ci/run; see tests/MUTANTS.md).
#
#   tests/mutants.sh run OUT [--re RE] FILE...
#                                       cargo-mutants on these source files (only the mutants
#                                       whose name matches RE, if given); results in OUT
#   tests/mutants.sh recheck OUT        each mutant OUT records as missed, applied again to
#                                       this checkout and judged by today's tests (a timeout
#                                       is a hang the tests already caught; not rechecked)
#   tests/mutants.sh summary OUT...     per source file: mutants, caught, missed, timeouts,
#                                       unviable (the table of tests/MUTANTS.md)
#
# Mutants are judged by the fast test set: mmd-formats' unit tests and every test target of
# mmd-tests except the slow ones named in SLOW below (each takes 6 s or more in a debug
# build; together they would double the time per mutant). The corpus tests run: set
# MMD_CORPUS to the fixture folder (default ../shared/fixtures from the repository root).
#
# `run` mutates a copy of the tree (cargo-mutants' default), so the checkout can be
# edited meanwhile. `recheck` patches the checkout itself, one mutant at a time, and
# restores it; do not edit source files while it runs.
set -euo pipefail
cd "$(dirname "$0")/.."

SLOW="hostile_mutations ui json_roundtrip diff_dump spans_walk fuzz_smoke"
corpus="${MMD_CORPUS:-../shared/fixtures}"
[ -d "$corpus" ] || { echo "no fixture corpus at $corpus (set MMD_CORPUS)" >&2; exit 2; }
MMD_CORPUS="$(cd "$corpus" && pwd)"
export MMD_CORPUS MMD_REQUIRE_CORPUS=1

tests=()
for f in tests/tests/*.rs; do
    t=$(basename "$f" .rs)
    case " $SLOW " in *" $t "*) continue ;; esac
    tests+=(--test "$t")
done

usage() {
    sed -n '4,11p' "$0" >&2
    exit 2
}

case "${1:-}" in
run)
    [ $# -ge 3 ] || usage
    out=$2
    shift 2
    command -v cargo-mutants >/dev/null || {
        echo "cargo-mutants is not installed: cargo install --locked cargo-mutants" >&2
        exit 2
    }
    files=()
    if [ "${1:-}" = --re ]; then
        [ $# -ge 3 ] || usage
        files+=(--re "$2")
        shift 2
    fi
    for f in "$@"; do files+=(--file "$f"); done
    # The baseline: the unmutated tree passes the same tests (run here, since
    # cargo-mutants' own baseline tests only the mutated package).
    cargo test -q -p mmd-tests -p mmd-formats --lib "${tests[@]}" >/dev/null || {
        echo "the unmutated tree fails the fast test set" >&2
        exit 1
    }
    cargo mutants --no-shuffle -o "$out" "${files[@]}" \
        --test-workspace=false --test-package mmd-tests --test-package mmd-formats \
        --baseline=skip --timeout 180 --build-timeout 900 \
        -- --lib "${tests[@]}"
    ;;
recheck)
    [ $# -eq 2 ] || usage
    outcomes="$2/mutants.out/outcomes.json"
    [ -f "$outcomes" ] || { echo "no $outcomes" >&2; exit 2; }
    git diff --quiet || { echo "the checkout has uncommitted changes; recheck patches it" >&2; exit 2; }
    python3 - "$outcomes" >/tmp/mutants-recheck.$$ <<'EOF'
import json, os, sys
path = sys.argv[1]
for o in json.load(open(path))["outcomes"]:
    if o["summary"] == "MissedMutant":
        print(os.path.join(os.path.dirname(path), o["diff_path"]))
EOF
    killed=0
    survived=0
    while read -r diff; do
        file=$(sed -n 's/^--- //p' "$diff" | head -1)
        name=$(sed -n 's/^+++ //p' "$diff" | head -1)
        if ! patch -s -p0 --dry-run "$file" <"$diff" >/dev/null 2>&1; then
            echo "CHANGED $file: $name (the source changed since the run; judge it by hand)"
            continue
        fi
        patch -s -p0 "$file" <"$diff"
        if ! cargo test -q -p mmd-tests -p mmd-formats --lib "${tests[@]}" --no-run >/dev/null 2>&1; then
            verdict="UNVIABLE"
        elif timeout 300 cargo test -q -p mmd-tests -p mmd-formats --lib "${tests[@]}" >/dev/null 2>&1; then
            verdict="SURVIVES"
            survived=$((survived + 1))
        elif [ $? -eq 124 ]; then
            verdict="KILLED (a test hangs: 300 s)"
            killed=$((killed + 1))
        else
            verdict="KILLED"
            killed=$((killed + 1))
        fi
        patch -s -R -p0 "$file" <"$diff"
        echo "$verdict $file: $name"
    done </tmp/mutants-recheck.$$
    rm -f /tmp/mutants-recheck.$$
    echo "recheck: $killed killed, $survived survive"
    ;;
summary)
    [ $# -ge 2 ] || usage
    shift
    python3 - "$@" <<'EOF'
import collections, json, sys
kinds = {"CaughtMutant": "caught", "MissedMutant": "missed", "Timeout": "timeout",
         "Unviable": "unviable"}
for out in sys.argv[1:]:
    outcomes = json.load(open(f"{out}/mutants.out/outcomes.json"))["outcomes"]
    per_file = collections.defaultdict(collections.Counter)
    for o in outcomes:
        mutant = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
        if mutant:
            per_file[mutant["file"]][kinds.get(o["summary"], o["summary"])] += 1
    print(f"{out}:")
    print("| file | mutants | caught | missed | timeout | unviable |")
    print("|---|---:|---:|---:|---:|---:|")
    total = collections.Counter()
    for f, c in sorted(per_file.items()):
        total.update(c)
        print(f"| `{f}` | {sum(c.values())} | {c['caught']} | {c['missed']} | {c['timeout']} | {c['unviable']} |")
    print(f"| all | {sum(total.values())} | {total['caught']} | {total['missed']} | {total['timeout']} | {total['unviable']} |")
EOF
    ;;
*) usage ;;
esac
