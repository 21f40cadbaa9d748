"""The record reference (site/writing-records.md) names every kind, field and relation."""

from __future__ import annotations

from litrec.records import model as m
from tests.conftest import REPO

DOC = (REPO / "site" / "writing-records.md").read_text(encoding="utf-8")


def test_every_relation_and_inverse_is_documented():
    for rel in m.RELATIONS.values():
        assert f"| `{rel.name}` | `{rel.inverse}` |" in DOC, rel.name


def test_every_kind_and_field_is_documented():
    for kind, model in m.MODELS.items():
        assert f"`{kind}`" in DOC, kind
        for name in model.model_fields:
            assert f"`{name}`" in DOC, f"{kind}.{name}"
    for name in m.Expectation.model_fields:
        assert name in DOC, name
