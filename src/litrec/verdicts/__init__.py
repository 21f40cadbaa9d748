"""Judging claims: sample statistics over seeds, a claim's verdict from its stored result
(`claims`; one expectation: `judge`; a claim's row against a result, the one way every
surface judges: `rows`), pre-registration from history (`registration`), `status`, `diff`,
the reading of a project's records beside their verdicts (`reading`), suspect links
(`suspect`) and the validation report that gathers them (`report`)."""
