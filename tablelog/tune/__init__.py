"""The balance tuner: `tablelog tune GAME` searches a game's variants for the fairest seats with
Optuna and confirms the best on seeds fixed before the search (docs/tune.md).

- `space`: what may vary (the game's `tuning.py`, narrowed or extended by a SPACE.json);
- `rule`: the shipping rule a candidate is confirmed by (scripts/geoshapes_balance.py's too);
- `measure`: a candidate's seated wins and metrics over numbered, seeded matches;
- `objective`: one trial: a candidate played rung by rung, pruned when clearly unfair;
- `storage`, `study`, `confirm`, `report`: the Optuna study in the user's store, run, confirmed
  and told.
"""
