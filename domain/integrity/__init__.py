"""Whether a store can be trusted: the audit of a match from its raw rows (`audit` and the
`audit_*` modules), the signed checkpoints over every event (`merkle`, `ledger`,
`stored_tree`, `checkpoints`, `tlog_checkpoint`, `signed_note`, `signed`), and what anyone can
check with only the public key (`receipt_text`, `receipt_note`, `verify`, `proofs`).

Import from the modules; this room re-exports nothing.
"""
