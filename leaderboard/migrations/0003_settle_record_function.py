"""The deal record's update as one PostgreSQL function (see leaderboard/services/record_row.py).

Frozen: the function as it was when this migration was written, not as record_row.py has it now
(0004 replaces it; a later change to the function needs a migration of its own with its SQL)."""

from django.db import migrations

CREATE_FUNCTION = r"""
CREATE OR REPLACE FUNCTION leaderboard_settle_record(p_result bigint, p_new_line boolean, p_personal_best boolean)
RETURNS TABLE (new_record boolean, first_win boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r leaderboard_result%ROWTYPE;
    d leaderboard_dealrecord%ROWTYPE;
    b leaderboard_result%ROWTYPE;
    beats boolean;
    first boolean;
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
    WHERE deal_id = r.deal_id;
    UPDATE leaderboard_result
    SET personal_best = p_personal_best, new_record = beats, first_win = first
    WHERE id = p_result;
    RETURN QUERY SELECT beats, first;
END
$$;
"""

DROP_FUNCTION = r"""DROP FUNCTION IF EXISTS leaderboard_settle_record(bigint, boolean, boolean);"""


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0002_fair_play")]

    # Lists: each statement goes to the database whole (a string would be split on semicolons).
    operations = [migrations.RunSQL([CREATE_FUNCTION], [DROP_FUNCTION])]
