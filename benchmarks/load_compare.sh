#!/usr/bin/env bash
# Interleaved load comparison of two source trees (docs/benchmarks.md, issue 8).
#
#   benchmarks/load_compare.sh BASE_DIR NEW_DIR [PAIRS] [-- extra load.py flags]
#
# Runs `benchmarks/load.py --spawn --players 1000 --rounds 3` PAIRS times (default
# 3) against each tree in turn (base, new, base, new, ...): each tree's own
# load.py, with its own .venv when it has one (else python3 with PYTHONPATH set to
# its src; load.py puts its tree's src first for the server it spawns). Prints
# one row per run: start time (UTC), 1-minute load average at the start, command
# latency p50/p95/p99/max (ms), settlement p50 (ms), server CPU seconds over the
# measured interval, player-rounds settled and errors; then the medians per tree.
# Then the p50-p99.9 pooled over every run of a tree, and a bootstrap interval of
# the pooled p99's difference. The JSON results stay in a temporary folder (printed at the end).
set -euo pipefail

if [[ $# -lt 2 ]]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
base=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
pairs=${3:-3}
shift $(($# < 3 ? $# : 3))
[[ ${1:-} == "--" ]] && shift
extra=("$@")
out=$(mktemp -d /tmp/uth-load-compare-XXXXXX)

python_of() {
    if [[ -x "$1/.venv/bin/python" ]]; then echo "$1/.venv/bin/python"; else echo python3; fi
}

run_one() { # label dir index
    local label=$1 dir=$2 i=$3 py json
    py=$(python_of "$dir")
    json="$out/$label-$i.json"
    printf '%s %s %s\n' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$label $i" \
        >"$out/$label-$i.start"
    echo "[$(date -u +%H:%M:%S)] $label $i (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    (cd "$dir" && PYTHONPATH="$dir/src" "$py" benchmarks/load.py --spawn --players 1000 \
        --rounds 3 --json "$json" "${extra[@]}" >"$out/$label-$i.log" 2>&1) ||
        echo "  $label $i failed: see $out/$label-$i.log" >&2
}

for ((i = 1; i <= pairs; i++)); do
    run_one base "$base" "$i"
    run_one new "$new" "$i"
done

python3 - "$out" "$pairs" "$base" "$new" <<'EOF'
import json, statistics, sys
from pathlib import Path

out, pairs, base, new = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
cols = ["run", "UTC", "load", "p50", "p95", "p99", "max", "settle p50", "server CPU s",
        "settled", "errors"]
rows, per = [], {"base": [], "new": []}
for i in range(1, pairs + 1):
    for label in ("base", "new"):
        utc, load, _ = (out / f"{label}-{i}.start").read_text().split(" ", 2)
        try:
            r = json.loads((out / f"{label}-{i}.json").read_text())
        except (OSError, ValueError):
            rows.append([f"{label} {i}", utc, load] + ["failed"] + [""] * 7)
            continue
        lat, st = r["latency_ms"], r["settlement_ms"]
        row = [f"{label} {i}", utc, load, lat["p50"], lat["p95"], lat["p99"], lat["max"],
               st["p50"], r["server_cpu_s"],
               f"{r['player_rounds_settled']}/{r['player_rounds_started']}",
               r["errors_total"] + r["unanswered"]]
        rows.append(row)
        per[label].append(row)

def fmt(v):
    return f"{v:.1f}" if isinstance(v, float) else str(v)

print(f"base = {base}\nnew  = {new}\n")
print("| " + " | ".join(cols) + " |")
print("|" + " --- |" * len(cols))
for row in rows:
    print("| " + " | ".join(fmt(v) for v in row) + " |")
print()
for label, got in per.items():
    if got:
        med = [statistics.median(float(r[k]) for r in got) for k in (5, 7, 8)]
        print(f"{label}: median p99 {med[0]:.1f} ms, median settlement p50 {med[1]:.0f} ms, "
              f"median server CPU {med[2]:.2f} s, total server CPU "
              f"{sum(float(r[8]) for r in got):.1f} s ({len(got)} runs)")

# Pooled over every run of a tree: one p99 of all its commands (a single run's p99
# rests on its ~90 slowest commands, so it moves a lot from run to run).
def pooled(label):
    lat = []
    for i in range(1, pairs + 1):
        try:
            r = json.loads((out / f"{label}-{i}.json").read_text())
        except (OSError, ValueError):
            continue
        lat += [ms for _, ms, _ in r["raw"]["command_samples"]]
    lat.sort()
    return lat

for label in per:
    lat = pooled(label)
    if lat:
        q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))]
        print(f"{label}: pooled over {len(lat)} commands: p50 {q(0.5):.1f} ms, "
              f"p95 {q(0.95):.1f} ms, p99 {q(0.99):.1f} ms, p99.9 {q(0.999):.1f} ms")
# How sure: the pooled p99's difference (new - base) over 2,000 bootstrap draws of
# each tree's runs (runs resampled with replacement), median and 95% interval.
import random

runs = {}
for label in per:
    runs[label] = []
    for i in range(1, pairs + 1):
        try:
            r = json.loads((out / f"{label}-{i}.json").read_text())
        except (OSError, ValueError):
            continue
        runs[label].append([ms for _, ms, _ in r["raw"]["command_samples"]])

def p99_of(chosen):
    lat = sorted(x for run in chosen for x in run)
    return lat[min(len(lat) - 1, int(0.99 * len(lat)))]

if runs.get("base") and runs.get("new"):
    rng = random.Random(1)
    diffs = sorted(
        p99_of([rng.choice(runs["new"]) for _ in runs["new"]])
        - p99_of([rng.choice(runs["base"]) for _ in runs["base"]])
        for _ in range(2000)
    )
    print(f"pooled p99, new - base: median {diffs[1000]:+.2f} ms, 95% bootstrap interval "
          f"[{diffs[50]:+.2f}, {diffs[1950]:+.2f}] ms (resampling runs)")
print(f"\nresults: {out}")
EOF
