"""Judging claims: sample statistics over seeds, a claim's verdict from its stored result
(`claims`; one expectation: `judge`; a claim's row against a result, the one way every
surface judges: `rows`), pre-registration from history (`registration`), `status` (and what
it says once of the results another machine computed: `elsewhere`; every claim at every
scale: `grid`), `diff` (and its `sides`, and each number's `change`),
the reading of a project's records beside their verdicts (`reading`), suspect links
(`suspect`) and the validation report that gathers them (`report`); what the claims came to,
each paper's apart from the owner's own (`summary`); the stored numbers a record's prose
cites (`cited`)."""
