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
  for t in polyhedron pom-pom spiral pyramid t-rex swan whale elephant; do
    tl "topiary-random-never-place-$t" restriction topiary "never-place-$t" -n 150
  done
  tl topitop-variants-mcts variants topitop --a small=4 --a large=4 --b small=3 --b large=3 --agent mcts-8 -n 30
  tl topas-variants-greedy variants topas --a expert=false --b expert=true --agent greedy -n 100
  tl tl-greedy-never-play-red restriction total-landscaping never-play-red --agent greedy -n 40
  tl geoshapes-random-never-trade restriction geoshapes never-trade -n 40
  tl topiary-variants-greedy variants topiary --a last_player_chooses=false --b last_player_chooses=true --agent greedy -n 100
  for t in polyhedron pom-pom spiral pyramid t-rex swan whale elephant; do
    tl "topiary-greedy-never-place-$t" restriction topiary "never-place-$t" --agent greedy -n 100
  done
  ;;
chain-b)
  tl topitop-skill skill topitop --up-to 16 -n 16
  tl topiary-skill skill topiary --up-to 16 -n 12
  tl topas-skill skill topas --up-to 16 -n 12
  tl tl-skill skill total-landscaping --budgets 1,2,4 -n 6
  tl geoshapes-skill skill geoshapes --budgets 1,2 -n 4
  ;;
chain-c)
  tl topitop-variants-mcts32 variants topitop --a small=4 --a large=4 --b small=3 --b large=3 --agent mcts-32 -n 40
  ;;
chain-d)
  # A second look, with a new seed and more matches, at the types chain-a found costliest and
  # cheapest to give up.
  for t in pom-pom spiral pyramid; do
    tl "topiary-greedy-seed1-never-place-$t" restriction topiary "never-place-$t" --agent greedy -n 300 --seed 1
  done
  ;;
chain-e)
  tl geoshapes-variants-random variants geoshapes --a half_board=false --b half_board=true -n 40
  ;;
chain-f)
  tl tl-skill-2-8 skill total-landscaping --budgets 2,4,8 -n 10
  ;;
chain-g)
  tl topitop-skill-16-64 skill topitop --budgets 16,32,64 -n 16
  ;;
chain-h)
  tl topas-skill-16-64 skill topas --budgets 16,32,64 -n 12
  ;;
chain-i)
  for c in orange yellow green blue purple white; do
    tl "tl-greedy-never-play-$c" restriction total-landscaping "never-play-$c" --agent greedy -n 40
  done
  ;;
esac
