"""pantry items keep the word the user called them by

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # nullable: rows written before keep showing their canonical name
    with op.batch_alter_table('pantry_items', schema=None) as batch_op:
        batch_op.add_column(sa.Column('said', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('pantry_items', schema=None) as batch_op:
        batch_op.drop_column('said')
