"""The ``allot`` statement: share resource cards among targets the best way."""
