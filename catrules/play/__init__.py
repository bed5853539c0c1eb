"""Playing a game: the match loop, the seats' protocol, autoplay, logs and saves."""
