"""The hardening fixture itself is a valid project that runs."""

from __future__ import annotations


def test_the_mini_project_validates_runs_and_reproduces(mini, litrec):
    assert litrec("validate", cwd=mini).code == 0
    ran = litrec("run", "--profile", "quick", cwd=mini)
    assert ran.code == 0, ran.text
    assert (mini / "results" / "toy" / "quick.json").is_file()
    assert "Traceback" not in ran.text
