"""Form keys may be 'unknown': a create was sent and its answer lost.

Revision ID: 0002_form_key_unknown
Revises: 0001_initial
Create Date: 2025-06-01 00:00:00
"""

from alembic import op

revision = "0002_form_key_unknown"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

OLD = "state IN ('pending', 'done', 'failed')"
NEW = "state IN ('pending', 'done', 'failed', 'unknown')"


def _replace_check(condition: str) -> None:
    # SQLite cannot alter a constraint in place; batch mode rebuilds the table.
    with op.batch_alter_table("form_keys") as batch:
        batch.drop_constraint("ck_form_keys_state", type_="check")
        batch.create_check_constraint("ck_form_keys_state", condition)


def upgrade() -> None:
    _replace_check(NEW)


def downgrade() -> None:
    op.execute("UPDATE form_keys SET state = 'failed' WHERE state = 'unknown'")
    _replace_check(OLD)
