"""health profiles keep the conditions the user named (痛风), not only the foods they rule out

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # nullable: profiles written before have no named condition (their foods stay in dislikes)
    with op.batch_alter_table('health_profiles', schema=None) as batch_op:
        batch_op.add_column(sa.Column('conditions', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('health_profiles', schema=None) as batch_op:
        batch_op.drop_column('conditions')
