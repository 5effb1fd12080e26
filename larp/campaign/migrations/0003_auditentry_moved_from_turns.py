"""The audit log moves from turns to campaign (every app writes it): the table stays, only the state moves."""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0002_restrict_so_games_can_be_deleted"),
        ("turns", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ("action", models.CharField(max_length=40)),
                        ("detail", models.JSONField(blank=True, default=dict)),
                        ("reason", models.TextField(blank=True)),
                        ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="audit_entries", to="campaign.game")),
                        ("user", models.ForeignKey(blank=True, null=True,
                                                   on_delete=django.db.models.deletion.SET_NULL,
                                                   related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name": "audit entry",
                        "verbose_name_plural": "audit log",
                        "ordering": ["-at", "-id"],
                        "db_table": "turns_auditentry",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
