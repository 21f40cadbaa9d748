"""Whether a pydantic model accepts a document: the tests that hold a model and the editor's JSON
Schema to the same answers ask it."""

from __future__ import annotations

from pydantic import ValidationError


def validates(model, document: dict) -> bool:
    """Whether `model` (a pydantic model class) accepts `document`."""
    try:
        model.model_validate(document)
    except ValidationError:
        return False
    return True
