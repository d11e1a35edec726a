#!/usr/bin/env bash
# The runs behind docs/lab.md's worked examples, niced for a shared machine. Usage:
#   scripts/lab-examples.sh STORE OUTDIR chain-a|chain-b
# Each experiment's full report goes to OUTDIR/<name>.json (and stays listed in STORE).
set -euo pipefail
store=$1; out=$2; chain=$3
mkdir -p "$out"
tl() { local name=$1; shift; nice -n 15 .venv/bin/tablelog experiment "$@" --quiet --json \
       --store "$store" > "$out/$name.json"; echo "$(date -u +%T) $name done"; }
case $chain in
chain-a)
  tl topitop-variants-mcts variants topitop --a small=4 --a large=4 --b small=3 --b large=3 --agent mcts-32 -n 60
  for t in polyhedron pom-pom spiral pyramid t-rex swan whale elephant; do
    tl "topiary-greedy-never-place-$t" restriction topiary "never-place-$t" --agent greedy -n 200
  done
  tl topiary-variants-greedy variants topiary --a last_player_chooses=false --b last_player_chooses=true --agent greedy -n 200
  tl topas-variants-greedy variants topas --a expert=false --b expert=true --agent greedy -n 200
  tl topas-greedy-never-play-red restriction topas never-play-red --agent greedy -n 200
  tl tl-greedy-never-play-red restriction total-landscaping never-play-red --agent greedy -n 100
  tl geoshapes-greedy-never-trade restriction geoshapes never-trade --agent greedy -n 60
  tl geoshapes-variants-random variants geoshapes --a half_board=false --b half_board=true --agent random -n 60
  ;;
chain-b)
  tl topitop-skill skill topitop --up-to 64 -n 30
  tl topiary-skill skill topiary --up-to 32 -n 20
  tl topas-skill skill topas --up-to 32 -n 20
  for t in polyhedron pom-pom spiral pyramid t-rex swan whale elephant; do
    tl "topiary-mcts-never-place-$t" restriction topiary "never-place-$t" --agent mcts-8 -n 60
  done
  tl tl-skill skill total-landscaping --up-to 8 -n 10
  tl geoshapes-skill skill geoshapes --budgets 1,2,4 -n 6
  ;;
esac
