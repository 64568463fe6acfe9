"""The record function also returns the board's lines and version (leaderboard/services/record_row.py).

Its result columns changed, which CREATE OR REPLACE cannot do: the old one is dropped first. On a
new database 0003 already made the old function and this replaces it.

Frozen: the function as it was when this migration was written, not as record_row.py has it now."""

from django.db import migrations

DROP_FUNCTION = r"""DROP FUNCTION IF EXISTS leaderboard_settle_record(bigint, boolean, boolean);"""

CREATE_FUNCTION = r"""
CREATE OR REPLACE FUNCTION leaderboard_settle_record(p_result bigint, p_new_line boolean, p_personal_best boolean)
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


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0003_settle_record_function")]

    # Lists: each statement goes to the database whole (a string would be split on semicolons).
    operations = [migrations.RunSQL([DROP_FUNCTION, CREATE_FUNCTION], migrations.RunSQL.noop)]
