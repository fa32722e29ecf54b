"""dinner.plan called directly: run(view, params, services) on SQLite."""

from __future__ import annotations

from collections.abc import Callable

from runtime.views import ExecView
from skills.dinner.skill import budget_total, plan
from skills.services import Services

View = Callable[..., ExecView]


def test_budget_per_person_is_multiplied_by_the_head_count(services: Services, make_view: View) -> None:
    assert budget_total("人均30", 4) == 120.0 and budget_total(150.0, 4) == 150.0
    params = {"people": 4, "budget": "人均30", "dietary": []}
    result = plan(make_view(params), params, services)
    assert result.ok and result.facts["budget"] == 120.0
