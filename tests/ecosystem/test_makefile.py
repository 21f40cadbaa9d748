"""The Makefile's everyday targets run litrec from .venv, after setting it up, as the README says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from .conftest import ROOT

MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


@pytest.mark.parametrize("target,command", [("run", "run --allow-not-reproduced"), ("status", "status"),
                                            ("serve", "site serve")])
def test_everyday_targets_depend_on_the_venv_and_pass_args(target, command):
    rule = re.search(rf"^{target}: (.*)\n\t(.*)$", MAKEFILE, re.M)
    assert rule is not None, target
    assert rule.group(1) == "$(STAMP)" and rule.group(2) == f"$(BIN)/litrec {command} $(ARGS)"
    assert re.search(rf"^\.PHONY:.* {target}\b", MAKEFILE, re.M)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_prints_the_venv_command():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(["make", "--no-print-directory", "-n", "run",
                           "ARGS=prop1-identity --profile quick"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    # an honest `not reproduced` is an answer, not a failure of make: only a broken run exits 1
    assert done.stdout.splitlines()[-1] == (".venv/bin/litrec run --allow-not-reproduced "
                                            "prop1-identity --profile quick")


def test_readme_says_where_litrec_is():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/litrec" in readme and ". .venv/bin/activate" in readme
    for target in ("make run", "make status", "make serve"):
        assert target in readme
