"""Which installed distribution provides which import name is kept per project
(`litrec.analyses.packages`, a `litrec.cache.sourcefacts` answer), keyed on the folders of
`sys.path` and their times: kept = worked out afresh = caching off, and a distribution
installed since is seen at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _install(site: Path, dist: str, top: str) -> None:
    """A distribution as pip leaves it: NAME-VERSION.dist-info with its METADATA and top-level name."""
    folder = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    folder.mkdir()
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (folder / "top_level.txt").write_text(f"{top}\n", encoding="utf-8")
    (folder / "RECORD").write_text("", encoding="utf-8")


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site-packages"
    folder.mkdir()
    return folder


def _answer(site: Path, root: Path, cache: bool = True) -> tuple[str, ...]:
    """What a new process finds, with `site` on its path."""
    code = ("import json, sys; from pathlib import Path; from litrec.analyses.packages import versioned_packages; "
            "print(json.dumps(versioned_packages({'fakemod', 'othermod', 'yaml'}, Path(sys.argv[1]))))")
    env = {**os.environ, "PYTHONPATH": str(site), "LITREC_NO_CACHE": "0" if cache else "1"}
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return tuple(json.loads(done.stdout))


def test_a_kept_answer_is_the_fresh_one_and_an_install_is_seen_at_once(site, tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    _install(site, "fake-pkg", "fakemod")
    first = _answer(site, root)
    assert first == ("fake-pkg", "PyYAML")
    assert list((root / ".litrec-cache" / "sources").iterdir())  # kept in the project
    assert _answer(site, root) == first  # from the slot
    assert _answer(site, root, cache=False) == first  # caching off: the same
    _install(site, "other-pkg", "othermod")
    assert _answer(site, root) == ("fake-pkg", "other-pkg", "PyYAML")
    assert _answer(site, root, cache=False) == ("fake-pkg", "other-pkg", "PyYAML")


def test_one_process_works_it_out_once_for_every_project_and_again_after_an_install(site, tmp_path, monkeypatch):
    """The answer is the environment's: a process (a test session, a server) that meets several
    projects reads the installed distributions' file lists once, and each project still keeps
    the answer in its own cache; an install since changes the key, and the answer."""
    from importlib import metadata

    from litrec.analyses.packages import versioned_packages

    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)
    real, reads = metadata.packages_distributions, []
    monkeypatch.setattr(metadata, "packages_distributions", lambda: reads.append(1) or real())
    _install(site, "fake-pkg", "fakemod")
    roots = [tmp_path / name for name in ("one", "two", "three")]
    answers = []
    for root in roots:
        root.mkdir()
        answers.append(versioned_packages({"fakemod", "yaml"}, root))
    assert answers == [("fake-pkg", "PyYAML")] * 3
    assert len(reads) == 1
    assert all(list((root / ".litrec-cache" / "sources").iterdir()) for root in roots)
    _install(site, "other-pkg", "othermod")
    (later := tmp_path / "four").mkdir()
    assert versioned_packages({"fakemod", "othermod", "yaml"}, later) == ("fake-pkg", "other-pkg", "PyYAML")
    assert len(reads) == 2
