"""Judging claims: sample statistics over seeds, a claim's verdict from its stored result
(`claims`; one expectation: `judge`; a claim's row against a result, the one way every
surface judges: `rows`), pre-registration from history (`registration`), `status` (and what
it says once of the results another machine computed: `elsewhere`; every claim at every
scale: `grid`), `diff` (and its `sides`, and each number's `change`),
the reading of a project's records beside their verdicts (`reading`), suspect links
(`suspect`) and the validation report that gathers them (`report`); what the claims came to,
each paper's apart from the owner's own (`summary`); the stored numbers a record's prose
cites (`cited`)."""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "cited": ("cited_problems", "rendered_fields", "StoredNumbers"),
    "claims": ("claim_statuses", "ClaimStatus", "EXTENSION", "headline", "project_scales", "result_problems",
               "scales_of", "VERDICTS", "with_scales"),
    "change": ("DIFF_TABLE", "metric_table"),
    "diff": ("compare", "notes"),
    "elsewhere": ("duration_words", "Elsewhere", "said_once"),
    "events": ("how_judged",),
    "grid": ("GRID_FORMATS", "grid_text", "scale_rows"),
    "judge": ("deciding", "get_metric", "JUDGED_VERDICTS", "leaning", "Outcome"),
    "registration": ("Registrations",),
    "report": ("validation_report",),
    "rows": ("claim_rows",),
    "status": ("by_result", "first_scale", "headline_profile", "judged_project", "on_other_machine",
               "rerun_under_way"),
    "stored": ("expectation_record", "judged_in"),
    "suspect": ("link_reviews", "review_records", "suspects"),
    "summary": ("Count", "counts_words", "is_papers", "tally", "Tally", "tally_statuses", "tally_words",
                "verdict_counts"),
    "words": ("mark", "STYLE", "threshold_words", "word"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
