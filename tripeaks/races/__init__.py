"""Races: every player on the same proven-winnable deal at the same server instant, each one's
progress shown live to the others (never their cards), and quick match (docs/races.md)."""
