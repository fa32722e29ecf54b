"""health profiles keep the weight the user aims at ("目标体重60") beside the weight now

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('health_profiles', schema=None) as batch_op:
        batch_op.add_column(sa.Column('target_weight_kg', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('health_profiles', schema=None) as batch_op:
        batch_op.drop_column('target_weight_kg')
