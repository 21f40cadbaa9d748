"""`litrec export tex` and `litrec export json` load and check the project once: the status they
refuse on carries the project it judged (`litrec.verdicts.status.Status.project`), and the
document is written from that one."""

from __future__ import annotations

import pytest

from litrec.records import validate
from litrec.records.project import Project
from tests.support.results import GOOD, sealed_result


@pytest.fixture
def counted(project, monkeypatch):
    """The fixture project with sealed results; counts of `Project.load` and of the collection's
    checks (`check_collection`) made from here on."""
    sealed_result(project, "single-layer-lsa", GOOD)
    calls = {"load": 0, "check": 0}
    load, check = Project.load.__func__, validate.check_collection

    def counting_load(cls, *args, **kwargs):
        calls["load"] += 1
        return load(cls, *args, **kwargs)

    def counting_check(*args, **kwargs):
        calls["check"] += 1
        return check(*args, **kwargs)

    monkeypatch.setattr(Project, "load", classmethod(counting_load))
    monkeypatch.setattr(validate, "check_collection", counting_check)
    return calls


@pytest.mark.parametrize("fmt", ["tex", "json"])
def test_an_export_loads_and_checks_the_project_once(project, counted, cli, fmt):
    code, _, err = cli("export", fmt, "--profile", "paper", "--out", project / f"out.{fmt}")
    assert code == 0, err
    assert (project / f"out.{fmt}").stat().st_size > 0
    assert counted == {"load": 1, "check": 1}


def test_the_status_carries_the_project_it_judged(project, counted):
    from litrec.verdicts.status import status

    found = status(project / "records", None, project / "results", "paper", other_scales=False)
    assert counted == {"load": 1, "check": 1}
    assert found.project.records and {s.claim.partition("#")[0] for s in found.statuses} <= set(found.project.records)
