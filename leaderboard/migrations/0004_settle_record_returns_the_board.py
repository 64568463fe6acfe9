"""The record function also returns the board's lines and version (leaderboard/record_row.py).

Its result columns changed, which CREATE OR REPLACE cannot do: the old one is dropped first. On a
new database 0003 already made the current function and this makes it again."""

from django.db import migrations

from leaderboard.record_row import CREATE_FUNCTION, DROP_FUNCTION


def replace(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_FUNCTION, params=None)
        schema_editor.execute(CREATE_FUNCTION, params=None)


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0003_settle_record_function")]

    operations = [migrations.RunPython(replace, migrations.RunPython.noop)]
