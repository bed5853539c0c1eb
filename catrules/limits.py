"""The limits that keep every game bounded (see "Limits" in docs/language.rst).

Shared by the engine, the generated expression code and the check of saved
states, so that each limit is said once.
"""

#: The largest number a running game may compute (see "Limits" in docs/language.rst).
NUMBER_LIMIT = 10 ** 18
#: The most items a list computed by a running game may hold.
LIST_LIMIT = 1_000_000
#: The largest number a save file may hold (sums of scores may pass NUMBER_LIMIT a little).
SAVED_NUMBER_LIMIT = 10 ** 30

#: How deep a chain of triggered effects may go before it is stopped.
CHAIN_LIMIT = 100
#: How many loop rounds may pass without any decision before the game is stopped.
STEP_LIMIT = 2_000_000
#: How many blocks (phases, actions, triggers, loops' bodies) may run inside each other.
FRAME_LIMIT = 500
#: The format of a saved state.  2: a frame's ``pc`` names a block of its compiled unit (1 named an
#: instruction), so a state saved by an older catrules cannot resume.
STATE_FORMAT = 2

# ---- game files (checked by the parser) ----------------------------------------
#: The largest number a game file may write (and a running game may compute).
FILE_NUMBER_LIMIT = 10 ** 9
#: The most cards a game may declare, over all its card types.
DECK_LIMIT = 10_000
#: The most values a range `A to B` in card rows may give.
RANGE_LIMIT = 10_000
#: The most rows and columns of a grid zone.
GRID_LIMIT = 100
#: How deeply brackets, blocks and expressions may nest.
NESTING_LIMIT = 100
