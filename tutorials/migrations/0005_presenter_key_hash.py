"""Tables keep only a hash of the presenter's key, as practice games keep the learner's.

The presenter's cookie holds the key itself and is not changed: a table open while this
runs is still steered by its presenter, whose key now matches the stored hash.
"""

import hashlib
import re

from django.db import migrations

#: what the hash of a key looks like (SHA-256 in hex); a key itself is 43 URL-safe characters
_DIGEST = re.compile(r"[0-9a-f]{64}")


def hash_presenter_keys(apps, schema_editor):
    """Replace each plain presenter key by its SHA-256, as tutorials.models.hash_key makes
    it (written out here: a migration must not change when the app's code does).

    A value that is a digest already is left as it is, so that migrating back and then
    forward again keeps the tables made before the first run."""
    TeachSession = apps.get_model("tutorials", "TeachSession")
    db = schema_editor.connection.alias
    changed = []
    for table in TeachSession.objects.using(db).only("pk", "presenter_key_hash").iterator():
        if not _DIGEST.fullmatch(table.presenter_key_hash):
            table.presenter_key_hash = hashlib.sha256(table.presenter_key_hash.encode()).hexdigest()
            changed.append(table)
    TeachSession.objects.using(db).bulk_update(changed, ["presenter_key_hash"], batch_size=500)


def keep_hashes(apps, schema_editor):
    """Backwards the hashes stay: a key cannot be had back from its hash. Code of before
    this migration then finds no presenter for the tables open at the time; guests still
    follow them, and they end within four hours."""


class Migration(migrations.Migration):

    dependencies = [
        ('tutorials', '0004_teach_timers'),
    ]

    operations = [
        migrations.RenameField(
            model_name='teachsession',
            old_name='presenter_key',
            new_name='presenter_key_hash',
        ),
        migrations.RunPython(hash_presenter_keys, keep_hashes),
    ]
