"""A command given no `--profile` works it out from the project's scales, never from the seed
paper's names: `run` runs the smallest scale, `export` judges at the largest with a result (as
`status` and the site do). Here another paper's profiles, `small` and `full`."""

from __future__ import annotations

import json

from tests.support.seeds_toy import TOY, claim, litrec, write_project

SMALL_FULL = TOY.replace('"paper": Config(wiggle=0.002)}', '"small": Config(wiggle=0.002), '
                         '"full": Config(wiggle=0.0005)}').replace(
    '"paper": (0, 1, 2)}', '"small": (0, 1, 2), "full": (0, 1, 2, 3, 4)}')
F1 = claim("F1", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')


def _export_profile(root, tmp_path, name: str) -> str:
    out = tmp_path / name
    done = litrec("export", "json", "--out", str(out), cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())["profile"]


def test_run_takes_the_smallest_scale_and_export_the_largest_with_a_result(tmp_path):
    root = write_project(tmp_path / "p", F1)
    (root / "analysis" / "toy.py").write_text(SMALL_FULL)
    assert _export_profile(root, tmp_path, "none.json") == "small"  # no result yet: the first
    done = litrec("run", "--jobs", "1", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "results/toy/small.json").is_file()
    assert not (root / "results/toy/full.json").exists()
    assert "paper" not in done.stdout + done.stderr
    again = litrec("run", "--jobs", "1", "--format", "json", cwd=root)  # from the run memo: the same choice
    assert again.returncode == 0, again.stderr
    assert (json.loads(again.stdout)["profile"], json.loads(again.stdout)["ran"]) == ("small", [])
    assert _export_profile(root, tmp_path, "small.json") == "small"
    assert litrec("run", "--profile", "full", "--jobs", "1", cwd=root).returncode == 0
    assert _export_profile(root, tmp_path, "full.json") == "full"
