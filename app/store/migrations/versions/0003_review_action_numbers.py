"""Review actions keep each income's invoice number, so the log names it as the queue does
(revision 0003_review_action_numbers, after 0002_form_key_unknown, written 2026-11-27)."""

from alembic import op
import sqlalchemy as sa

revision = "0003_review_action_numbers"
down_revision = "0002_form_key_unknown"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("review_actions", sa.Column("numbers", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("review_actions") as batch:
        batch.drop_column("numbers")
