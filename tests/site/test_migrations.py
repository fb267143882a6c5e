"""Migrations keep what is open: a table being taught when its presenter key becomes a hash
is still steered by its presenter, one open when its model was renamed keeps its seats, and
the models never drift from the migrations."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from tutorials.models import Table

BEFORE = [("tutorials", "0004_teach_timers")]
#: the last state in which a table being taught was the model ``TeachSession``
BEFORE_RENAME = [("tutorials", "0008_practice_takebacks")]
PLAIN_KEY = "v3ry-plain-presenter-key-of-43-characters-x"  # token_urlsafe(32) is 43 long


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)  # a fresh graph each time: it reads the state
    executor.migrate(targets)
    return executor


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes("tutorials")


def _presenter_with_the_old_cookie(code: str) -> Client:
    """A browser holding the cookie the site gave before: the plain key, signed under the
    presenter cookie's name and salt."""
    signed = HttpResponse()
    signed.set_signed_cookie(f"teach_{code}", PLAIN_KEY, salt="teach-presenter")
    client = Client()
    client.cookies[f"teach_{code}"] = signed.cookies[f"teach_{code}"].value
    return client


@pytest.mark.django_db(transaction=True)
def test_an_open_table_survives_its_presenter_key_being_hashed():
    executor = _migrate(BEFORE)
    OldTable = executor.loader.project_state(BEFORE).apps.get_model("tutorials", "TeachSession")
    OldTable.objects.create(code="ab234", presenter_key=PLAIN_KEY, section=2, version=5,
                            options={"players": 3, "mode": "action", "script": "quick"},
                            expires_at=timezone.now() + timedelta(hours=3))
    _migrate(_latest())

    table = Table.objects.get(code="ab234")
    assert table.presenter_key_hash == hashlib.sha256(PLAIN_KEY.encode()).hexdigest()
    assert PLAIN_KEY not in str(Table.objects.filter(code="ab234").values().get())
    presenter = _presenter_with_the_old_cookie("ab234")
    page = presenter.get("/en/teach/ab234/")
    assert page.status_code == 200 and 'data-index="2"' in page.content.decode()
    moved = presenter.post("/en/teach/ab234/go/", {"to": "3", "v": "5"})
    assert moved.status_code == 302
    table.refresh_from_db()
    assert (table.section, table.version) == (3, 6)
    # a guest, and anyone holding the hash instead of the key, only follows
    assert Client().get("/en/teach/ab234/").status_code == 302
    forged = HttpResponse()
    forged.set_signed_cookie("teach_ab234", table.presenter_key_hash, salt="teach-presenter")
    stranger = Client()
    stranger.cookies["teach_ab234"] = forged.cookies["teach_ab234"].value
    assert stranger.post("/en/teach/ab234/go/", {"to": "1", "v": "6"}).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_back_and_forward_again_keeps_the_tables_steerable():
    table, key = Table.start({"players": 4})  # a table made under today's schema
    executor = _migrate(BEFORE)
    then = executor.loader.project_state(BEFORE).apps.get_model("tutorials", "TeachSession")
    columns = [c.name for c in connection.introspection.get_table_description(
        connection.cursor(), then._meta.db_table)]
    assert "presenter_key" in columns and "presenter_key_hash" not in columns
    _migrate(_latest())
    table.refresh_from_db()
    assert table.presented_by(key)  # its hash was left alone, not hashed a second time


@pytest.mark.django_db(transaction=True)
def test_a_table_open_when_its_model_was_renamed_keeps_its_seats():
    executor = _migrate(BEFORE_RENAME)
    then = executor.loader.project_state(BEFORE_RENAME).apps
    old = then.get_model("tutorials", "TeachSession").objects.create(
        code="cd567", presenter_key_hash="0" * 64, section=4, version=7,
        options={"players": 2, "mode": "action", "script": "quick"},
        expires_at=timezone.now() + timedelta(hours=3))
    then.get_model("tutorials", "TableSeat").objects.create(session=old, colour="red")
    _migrate(_latest())

    table = Table.objects.get(code="cd567")
    assert (table.section, table.version) == (4, 7)
    assert [seat.colour for seat in table.seats.all()] == ["red"]


@pytest.mark.django_db
def test_the_models_and_the_migrations_agree():
    out = StringIO()
    call_command("makemigrations", "tutorials", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
