"""A match: the aggregate and its events (`match`), what an event may carry (`values`, `times`,
`entering`, `derived`, `rulings`), how it is stored and read back (`transcoding`, `snapshots`,
`snapshot_reads`), exported and imported (`records`, `sheet_matches`) and shown (`views`).

Import from the modules; this room re-exports nothing.
"""
