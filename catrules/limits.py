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
#: How many loop rounds may pass without any decision before the game is stopped.  A count of
#: work, not a time, so that a game stops at the same place on every machine; a round takes a
#: few microseconds, so a loop that never ends stops within a second or two.
STEP_LIMIT = 100_000
#: How many more loop rounds the guard watches past STEP_LIMIT, to name the outermost loop.
LOOP_WATCH = 1_000
#: How many items of the lists built by ``range`` and ``copies`` count as one loop round.
ITEMS_PER_STEP = 20
#: How many loop rounds a bot's imagined game (a look-ahead, a playout) may run without a
#: decision: past it the imagined game is left out, so a loop that never ends costs a bot little.
IMAGINED_STEP_LIMIT = 5_000
#: How many decisions a game played by bots alone may take before it is stopped, unfinished
#: (``--max-decisions`` changes it; a game with a person in it has no such limit).
DECISION_LIMIT = 10_000
#: How many decisions an ISMCTS playout may take when its spec gives no horizon: past it the
#: imagined game is scored where it stands, as at a horizon, so a game that never ends does
#: not stop the bot's search.
PLAYOUT_LIMIT = 1_000
#: How many decisions an ISMCTS search given a count of iterations may imagine in all (its
#: playouts together): past it the search stops early, so one decision's cost is bounded in work
#: (a default search of the seed games imagines under about 350,000).
SEARCH_DECISION_LIMIT = 500_000
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
