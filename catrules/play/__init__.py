"""Playing a game: the match, the seats' protocol, bots answering inline, logs.

* :mod:`~catrules.play.match`: one game with a seat per player, saved and resumed;
* :mod:`~catrules.play.seats`: what every seat implements (:class:`~catrules.play.seats.Seat`,
  ``Choice``, ``Table``);
* :mod:`~catrules.play.autoplay`: bots answering inside the running game, when only bots play;
* :mod:`~catrules.play.program_seat`: a seat played by another program over JSON lines;
* :mod:`~catrules.play.logs`: JSON Lines logs, written, read and replayed.
"""
