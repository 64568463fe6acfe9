"""A deal's record row, updated by one call inside PostgreSQL.

Every ranked finish on a deal updates its one ``DealRecord`` row (lines, version, best, first
winner), so finishes on the same deal (today's daily deal above all) take turns on that row's lock,
which is held until their transaction commits. Locked from Python, the row stayed locked across
several round trips, each waiting for a busy server process to run the thread again: under load
the turns took ~100 ms and finishes queued for seconds. Here the lock, the comparison and both
updates are one statement, the last of the finishing transaction, so the row is held for the
statement and the commit only.

The function reads the current best after taking the lock: PL/pgSQL takes a new snapshot per
statement (READ COMMITTED), so a best set by the transaction it waited for is seen. Its order is
the boards' order (``leaderboard.boards.improves``), which a test holds to.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection

FUNCTION = "leaderboard_settle_record"

CREATE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}(p_result bigint, p_new_line boolean, p_personal_best boolean)
RETURNS TABLE (new_record boolean, first_win boolean, board_lines integer, board_version integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r leaderboard_result%ROWTYPE;
    d leaderboard_dealrecord%ROWTYPE;
    b leaderboard_result%ROWTYPE;
    beats boolean;
    first boolean;
    now_lines integer;
    now_version integer;
BEGIN
    SELECT * INTO STRICT r FROM leaderboard_result WHERE id = p_result;
    INSERT INTO leaderboard_dealrecord
        (deal_id, mode, rules_key, layout, day, number, lines, version)
    VALUES (r.deal_id, r.mode, r.rules_key, r.layout, r.day, r.number, 0, 0)
    ON CONFLICT (deal_id) DO NOTHING;
    SELECT * INTO STRICT d FROM leaderboard_dealrecord WHERE deal_id = r.deal_id FOR UPDATE;
    SELECT * INTO b FROM leaderboard_result WHERE id = d.best_id;
    IF d.best_id IS NULL OR b.id IS NULL THEN
        beats := true;
    ELSIF r.mode = 'daily' THEN
        beats := ROW(NOT r.won, r.time_ms, r.moves, r.finished_at)
            < ROW(NOT b.won, b.time_ms, b.moves, b.finished_at);
    ELSE
        beats := ROW(r.cards_left, r.moves, r.finished_at)
            < ROW(b.cards_left, b.moves, b.finished_at);
    END IF;
    first := r.won AND d.first_winner_id IS NULL;
    UPDATE leaderboard_dealrecord SET
        lines = lines + CASE WHEN p_new_line THEN 1 ELSE 0 END,
        version = version + 1,
        best_id = CASE WHEN beats THEN r.id ELSE best_id END,
        holder_id = CASE WHEN beats THEN r.player_id ELSE holder_id END,
        set_at = CASE WHEN beats THEN r.finished_at ELSE set_at END,
        first_winner_id = CASE WHEN first THEN r.player_id ELSE first_winner_id END,
        first_win_id = CASE WHEN first THEN r.id ELSE first_win_id END,
        first_won_at = CASE WHEN first THEN r.finished_at ELSE first_won_at END
    WHERE deal_id = r.deal_id
    RETURNING leaderboard_dealrecord.lines, leaderboard_dealrecord.version
    INTO now_lines, now_version;
    UPDATE leaderboard_result
    SET personal_best = p_personal_best, new_record = beats, first_win = first
    WHERE id = p_result;
    RETURN QUERY SELECT beats, first, now_lines, now_version;
END
$$;
"""

DROP_FUNCTION = f"DROP FUNCTION IF EXISTS {FUNCTION}(bigint, boolean, boolean);"


class Settled(NamedTuple):
    new_record: bool
    first_win: bool
    # The board's size and version as this update left them.
    lines: int
    version: int


def settle(result_id: int, *, new_line: bool, personal_best: bool) -> Settled:
    """Update the deal's record for a result whose line just improved."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT new_record, first_win, board_lines, board_version FROM {FUNCTION}(%s, %s, %s)",
            [result_id, new_line, personal_best],
        )
        row = cursor.fetchone()
    return Settled(bool(row[0]), bool(row[1]), int(row[2]), int(row[3]))
