"""Glicko-2 ratings per rule set, from the results of live races (issue #19).

A leaf: it knows users (``settings.AUTH_USER_MODEL``) and rule-set keys, nothing of races, arenas
or play. See docs/ratings.md.
"""
