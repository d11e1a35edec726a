"""The recording application (`recorder`) and what it stands on: eventsourcing's internals in
one place (`eventsourcing_internals`), the store's own tables beside the events
(`side_tables`, `users`), what a write says once committed (`stored`), and the quarantine of a
match whose rows no longer read (`quarantine`).

Import from the modules; this room re-exports nothing.
"""
