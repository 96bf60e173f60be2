#!/usr/bin/env bash
# How much faster `mmd check` reads a folder on two cores than on one: `--jobs 2` against
# `--jobs 1` over the fixture corpus, measured in the same run (issue 18: the target is a
# throughput ratio of at least 1.7). A measurement, not a test: what else the machine runs
# decides the figure, so it is taken several times, alternating the order of the two, and
# reported as the median and the spread, beside a control: two single-threaded checks run
# at once, which share nothing and so gain what the machine gives a second core then.
#
# Usage: tests/check-jobs.sh [ROUNDS] [COPIES]
#   ROUNDS  rounds of one --jobs 1 and one --jobs 2 measurement (default 9)
#   COPIES  how many times one `mmd check` is given the corpus folder (default 10): the
#           corpus checks in a few milliseconds, so one run checks it COPIES times over to
#           make starting the process and the threads a small part of what is timed
# The corpus is ../shared/fixtures beside the repository, or $MMD_CORPUS.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${MMD_CORPUS:-$root/../shared/fixtures}
rounds=${1:-9}
copies=${2:-10}
[ -d "$corpus" ] || { echo "no corpus at $corpus (set MMD_CORPUS)" >&2; exit 2; }

cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p mmd-formats --bin mmd
mmd=$root/target/release/mmd
bytes=$(find -L "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')

# The same output for both, and the summary line, before anything is timed.
"$mmd" check --jobs 1 "$corpus" >/tmp/mmd-check-jobs1.$$ || true
"$mmd" check --jobs 2 "$corpus" >/tmp/mmd-check-jobs2.$$ || true
if ! cmp -s /tmp/mmd-check-jobs1.$$ /tmp/mmd-check-jobs2.$$; then
    echo "--jobs 1 and --jobs 2 print different lines" >&2
    rm -f /tmp/mmd-check-jobs[12].$$
    exit 1
fi
summary=$(tail -n 1 /tmp/mmd-check-jobs1.$$)
rm -f /tmp/mmd-check-jobs[12].$$

paths=()
for ((i = 0; i < copies; i++)); do paths+=("$corpus"); done

# `WALL CPU` in seconds for `mmd check --jobs $1` over COPIES copies of the corpus: the time
# it took, and the processor time it used (user and system, every thread). CPU / WALL is
# the number of cores it had: on a machine that others load, --jobs 2 can only be as much
# faster as the cores it gets.
measure() {
    local TIMEFORMAT='%R %U %S'
    { time "$mmd" check --jobs "$1" "${paths[@]}" >/dev/null 2>&1 || true; } 2>&1 |
        awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}

# The control: `WALL CPU` for two `mmd check --jobs 1` processes at once, each over the
# COPIES copies. They share nothing, so what they gain over one is what the machine gives
# a second core at that moment: the most --jobs 2 could gain.
control() {
    local TIMEFORMAT='%R %U %S'
    {
        time {
            "$mmd" check --jobs 1 "${paths[@]}" >/dev/null 2>&1 &
            "$mmd" check --jobs 1 "${paths[@]}" >/dev/null 2>&1 &
            wait
        }
    } 2>&1 | awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}

echo "corpus: $corpus ($bytes bytes; $summary), checked $copies times a run"
echo "cores available: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "round  jobs1 MB/s cores  jobs2 MB/s cores  ratio  control"
ratios=()
controls=()
for ((r = 1; r <= rounds; r++)); do
    # Alternate which goes first, so that a change in load falls on both alike.
    if ((r % 2)); then
        m1=$(measure 1)
        m2=$(measure 2)
        mc=$(control)
    else
        mc=$(control)
        m2=$(measure 2)
        m1=$(measure 1)
    fi
    line=$(awk -v r="$r" -v m1="$m1" -v m2="$m2" -v mc="$mc" -v n="$bytes" -v k="$copies" '
        BEGIN {
            split(m1, a, " "); split(m2, b, " "); split(mc, c, " ")
            printf "%.2f %.2f %5d  %10.1f %5.2f  %10.1f %5.2f", a[1] / b[1], 2 * a[1] / c[1],
                r, n * k / a[1] / 1e6, a[2] / a[1], n * k / b[1] / 1e6, b[2] / b[1]
        }')
    read -r ratio ctrl rest <<<"$line"
    ratios+=("$ratio")
    controls+=("$ctrl")
    echo "$rest  ${ratio}x    ${ctrl}x"
done
summarize() {
    sort -n | awk -v what="$1" '
        { v[NR] = $1 }
        END {
            m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%s: median %.2fx, min %.2fx, max %.2fx over %d rounds\n", what, m, v[1], v[NR], NR
        }'
}
printf '%s\n' "${ratios[@]}" | summarize "jobs2 / jobs1 throughput"
printf '%s\n' "${controls[@]}" | summarize "control (two jobs1 processes / one)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
