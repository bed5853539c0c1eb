"""Playing a game: the match loop, the seats' protocol, bots answering inline, saves and logs.

* :mod:`~catrules.play.core`: the match loop, written once (answers in, decisions applied, events out);
* :mod:`~catrules.play.match`: one game with a seat per player, driving that loop; saved and resumed;
* :mod:`~catrules.play.seats`: what every seat implements (:class:`~catrules.play.seats.Seat`,
  ``Choice``, ``Table``);
* :mod:`~catrules.play.views`: what one player may see of the game and of each event;
* :mod:`~catrules.play.autoplay`: bots answering inside the running game, when only bots play;
* :mod:`~catrules.play.reflexes` and :mod:`~catrules.play.lookahead`: bots' race times, and
  a look at what follows a choice;
* :mod:`~catrules.play.program_seat`: a seat played by another program over JSON lines;
* :mod:`~catrules.play.saves`, :mod:`~catrules.play.logs`, :mod:`~catrules.play.replay`: save
  files, JSON Lines logs, and replaying a log to check it (JSON read by
  :mod:`~catrules.play.strict_json`, checked field by field by :mod:`~catrules.play.validate`;
  the game file they name read only as :mod:`~catrules.play.game_paths` allows).
"""
