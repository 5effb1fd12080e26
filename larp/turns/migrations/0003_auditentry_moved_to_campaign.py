"""The audit log moved to campaign (campaign 0003 takes over the same table); only the state moves."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("turns", "0002_worker_heartbeat"),
        ("campaign", "0003_auditentry_moved_from_turns"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
