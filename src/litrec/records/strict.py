"""The base of every record schema: strict, frozen, unknown fields refused."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """Base of every schema: frozen, strict types, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, str_strip_whitespace=True,
                              allow_inf_nan=False)
