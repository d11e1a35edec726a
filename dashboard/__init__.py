"""What a person sees: the Dash app over the projection tables (see docs/dashboard.md).

`create_app(store)` in `dashboard.app` builds the app; `tablelog serve` runs it. Figures are pure
functions in `dashboard.figures` (DataFrame in, figure out), boards in `dashboard.games` (a
game's encoded state in, figure out); the pages in `dashboard.pages` only wire them up.
"""
