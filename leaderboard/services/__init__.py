"""Every write of the leaderboard, a module per concern, each write a named function in its
transaction (a finish's, or its own):

- ``results``: ``record_result(game=...)``, the one call through which play reports a finished
  game (exported here); ``stats`` (the player's statistics rows on that path), ``record_row``
  (the deal's record, one statement), ``rows`` (hand-written SQL's rows as models);
- ``recompute``: statistics, lines and records rebuilt from the results, independently;
- ``review``: staff accept or hide a held or flagged run;
- ``exclusion``: staff take a player off every board;
- ``board_cache``: a worker asked to fill a daily board's rank set.

Views, pages, the admin, commands and tasks call these; reads are ``leaderboard.selectors``.
"""

from __future__ import annotations

from leaderboard.services.results import record_result

__all__ = ["record_result"]
