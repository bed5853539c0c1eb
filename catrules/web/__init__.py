"""Web tables: a server where people play a game file from their browsers, with bots.

``catrules serve GAME_FILES`` runs :func:`catrules.web.app.serve`.  The parts:
:mod:`~catrules.web.app` (routes and WebSockets), :mod:`~catrules.web.tables` (a table's
game, its seats and bots), :mod:`~catrules.web.registry` (the games offered and
the tables), :mod:`~catrules.web.store` (SQLite: nothing is lost on a
restart), :mod:`~catrules.web.protocol` (the messages), and ``static/`` (the pages).
Needs the ``web`` extra (Starlette and uvicorn).
"""
