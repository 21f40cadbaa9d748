"""Where a claim stands in its paper: `where: {theorem: 2, section: "3.1", page: 12}`.

Each locator is text or a whole number (`section: 3`, `page: 12`), kept as
text. A decimal number is refused with a hint to quote it: YAML reads
`section: 3.10` as the number 3.1, which would lose the section's own name.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

# (field, how the site and `litrec status` name one, and several): the order `describe` reads them in
LOCATORS = (
    ("theorem", "Theorem {}", "Theorems {}"),
    ("proposition", "Proposition {}", "Propositions {}"),
    ("lemma", "Lemma {}", "Lemmas {}"),
    ("corollary", "Corollary {}", "Corollaries {}"),
    ("section", "§{}", "§§{}"),
    ("figure", "Figure {}", "Figures {}"),
    ("table", "Table {}", "Tables {}"),
    ("equation", "Eq. ({})", "Eqs. {}"),
    ("appendix", "Appendix {}", "Appendices {}"),
    ("page", "p. {}", "pp. {}"),
)


def _text_or_whole(value):
    if isinstance(value, float):
        raise ValueError("a decimal number, and YAML reads 3.10 as 3.1; quote the locator as "
                         "the paper writes it: \"3.10\"")
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError("a locator is text or a whole number (YAML reads yes, no, on and off "
                         "as booleans); quote it as text")
    return value


Locator = Annotated[str | int, BeforeValidator(_text_or_whole), AfterValidator(str),
                    Field(description="text or a whole number: \"3.1\", 12, \"B\"")]


def _several(text: str) -> bool:
    return any(sep in text for sep in (",", "–", "-", " and ", "&"))


class Where(BaseModel):
    """Where the claim stands in the paper."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, str_strip_whitespace=True)

    theorem: Locator | None = None
    proposition: Locator | None = None
    lemma: Locator | None = None
    corollary: Locator | None = None
    section: Locator | None = None
    figure: Locator | None = None
    table: Locator | None = None
    equation: Locator | None = None
    appendix: Locator | None = None
    page: Locator | None = None

    def describe(self) -> str:
        """Where in the paper, in words: `Theorem 2, §3.1, Figures 2, 3, Eq. (4), p. 12`."""
        parts = []
        for name, one, many in LOCATORS:
            value = getattr(self, name)
            if value not in (None, ""):
                text = str(value)
                parts.append((many if _several(text) else one).format(text))
        return ", ".join(parts)
