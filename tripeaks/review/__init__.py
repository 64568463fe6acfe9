"""Game review (issue 39): finished games replayed move by move, who may see them, share links,
and the solver's stored analysis of each (docs/architecture.md, "Game review")."""
