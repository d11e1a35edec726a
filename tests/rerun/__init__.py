"""The hostile re-run of issue 42, as a harness: each attack category tried against a fresh store
(SQLite or PostgreSQL), counting what the issue counted. scripts/hostile_rerun.py runs it at full
size and prints the table; tests/test_hostile_rerun.py runs a reduced size and wants every count
zero. The inputs are the kept corpora and strategies of the tests (tests/hostile.py,
tests/test_cli_corpus.py, tests/dashboard/test_dash_fuzz.py, ...), drawn by hypothesis: here
nothing asserts, every answer is counted."""
