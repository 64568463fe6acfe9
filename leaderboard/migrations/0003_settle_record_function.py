"""The deal record's update as one PostgreSQL function (see leaderboard/record_row.py)."""

from django.db import migrations

from leaderboard.record_row import CREATE_FUNCTION, DROP_FUNCTION


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE_FUNCTION, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_FUNCTION, params=None)


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0002_fair_play")]

    operations = [migrations.RunPython(create, drop)]
