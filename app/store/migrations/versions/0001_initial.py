"""Form keys, review actions and policy versions.

Revision ID: 0001_initial
Revises:
Create Date: 2025-01-01 00:00:00
"""

from alembic import op
import sqlalchemy as sa

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "form_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("company_id", sa.BigInteger(), nullable=False),
        sa.Column("purpose", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("result", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("state IN ('pending', 'done', 'failed')", name="ck_form_keys_state"),
        sa.PrimaryKeyConstraint("id", name="pk_form_keys"),
        sa.UniqueConstraint("key", name="uq_form_keys_key"),
    )
    op.create_index("ix_form_keys_created_at", "form_keys", ["created_at"])

    op.create_table(
        "review_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("company_id", sa.BigInteger(), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("actor_fp", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("income_ids", sa.JSON(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("after", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("undone_by", sa.String(length=200), nullable=True),
        sa.Column("undone_by_fp", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_review_actions"),
    )
    op.create_index(
        "ix_review_actions_company_id_id", "review_actions", ["company_id", "id"]
    )

    op.create_table(
        "policy_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("company_id", sa.BigInteger(), nullable=False),
        sa.Column("config", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("actor_fp", sa.String(length=16), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_policy_versions"),
    )
    op.create_index(
        "ix_policy_versions_company_id_id", "policy_versions", ["company_id", "id"]
    )


def downgrade() -> None:
    op.drop_table("policy_versions")
    op.drop_table("review_actions")
    op.drop_table("form_keys")
