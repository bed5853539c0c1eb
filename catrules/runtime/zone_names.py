"""A zone's name as people and logs read it: the zone and, for a zone of each player, its owner.

Events, views and errors name a zone by its text (``hand of player 2``); that text is made
here only, and a front end that needs to know whose zone it is keeps the :class:`ZoneName`
beside it (:attr:`Layout.slot_zone_name`) rather than reading the text back.
"""

from __future__ import annotations

from typing import NamedTuple, Optional


class ZoneName(NamedTuple):
    """A zone (``hand``) and its owner counted from 0 (None: a shared zone)."""
    zone: str
    owner: Optional[int] = None

    @property
    def text(self) -> str:
        """The name logs and views use: ``hand of player 2``, ``deck``."""
        return self.zone if self.owner is None else f"{self.zone} of player {self.owner + 1}"
