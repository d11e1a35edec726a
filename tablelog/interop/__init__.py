"""Plays in and out of other tools: BG Stats (bgstats.py) and BoardGameGeek (bgg.py).

An imported play becomes a score-sheet match (domain/matches/sheet_matches.py), checked by the
game's sheet rules like any sheet typed in; see docs/interop.md.
"""
