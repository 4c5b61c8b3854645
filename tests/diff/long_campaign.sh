#!/bin/sh
# long_campaign.sh [BUILD] [MINUTES] [FIRST_SEED] — the long differential
# campaign on the CPU devices here (docs/RELIABILITY.md "Differential
# testing"): every variant in turn, mismatches reduced into
# tests/diff/cases/new/ for review.  Runs under nice; the JSON summary and
# the per-module log go to BUILD/diff-long/.
# Defaults: BUILD=build, MINUTES=60, FIRST_SEED=100000.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
minutes=${2:-60}
seed=${3:-100000}
out=$build/diff-long
mkdir -p "$out"
exec nice -n 19 python3 "$here/campaign.py" --seed "$seed" --minutes "$minutes" \
    --sgcc "$build/compiler/sgcc" --diffrun "$build/tests/diff/diffrun" \
    --work "$out/work" --log "$out/log.jsonl" --summary "$out/summary.json"
