"""Judging claims: expectations, sample statistics over seeds, verdicts."""
