from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tutorials", "0008_practice_takebacks"),
    ]

    operations = [
        migrations.RenameModel(old_name="TeachSession", new_name="Table"),
    ]
