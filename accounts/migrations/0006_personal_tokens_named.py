# A person may hold several personal tokens, each named (accounts/models.py PersonalToken). Every
# token that exists keeps working: it is named "default", the one /api/me/token manages.

import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_profile_export_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='personaltoken',
            name='name',
            field=models.CharField(default='default', max_length=40),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name='personaltoken',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='personal_tokens', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='personaltoken',
            constraint=models.UniqueConstraint('user', django.db.models.functions.text.Lower('name'), name='personal_token_name_unique_per_person'),
        ),
    ]
