"""Both scales on every surface: a claim's verdict at `paper` and at `paper_full`, side by side;
the scales are those the project declares (`litrec.analyses.scales`), whatever their names."""

from __future__ import annotations

import json

import pytest

from tests.support.seeds_toy import TOY, claim, litrec, site_pages, status, write_project

FULL = TOY.replace('"paper": Config(wiggle=0.002)}', '"paper": Config(wiggle=0.002), '
                   '"paper_full": Config(wiggle=0.0005)}').replace(
    '"paper": (0, 1, 2)}', '"paper": (0, 1, 2), "paper_full": (0, 1, 2, 3, 4)}')


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    # at paper (wiggle 0.002) 0.1009 lies inside the interval [0.09988, 0.10100],
    # at paper_full (0.0005, five seeds) above [0.09959, 0.10082]: inconclusive, then reproduced
    root = write_project(tmp_path_factory.mktemp("scales"),
                         claim("F1", '{metric: loss_trained, op: "<", value: 0.1009, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'),
                         claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    (root / "analysis" / "toy.py").write_text(FULL)
    assert litrec("run", "--profile", "paper", "--jobs", "1", cwd=root).returncode == 0
    assert litrec("run", "--profile", "paper_full", "--jobs", "1", cwd=root).returncode == 0
    return root


def test_status_json_gives_the_verdict_at_both_scales(ran):
    _, rows = status(ran, profile="paper")
    assert rows["F1"]["verdict"] == "inconclusive"
    assert rows["F1"]["verdicts"] == {"paper": "inconclusive", "paper_full": "reproduced"}
    assert rows["F2"]["verdicts"] == {"paper": "reproduced", "paper_full": "reproduced"}
    _, rows = status(ran, profile="paper_full")
    assert rows["F1"]["verdict"] == "reproduced"
    assert rows["F1"]["verdicts"] == {"paper": "inconclusive", "paper_full": "reproduced"}


def test_a_scale_not_run_is_missing_beside_the_other(tmp_path):
    root = write_project(tmp_path / "p", claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 0
    _, rows = status(root)
    assert rows["F2"]["verdict"] == "reproduced"
    # the analysis declares quick and paper: `paper` is the project's one scale, no paper_full
    assert rows["F2"]["verdicts"] == {"paper": "missing"}
    (root / "analysis" / "toy.py").write_text(FULL)
    _, rows = status(root)
    assert rows["F2"]["verdicts"] == {"paper": "missing", "paper_full": "missing"}


def test_the_text_says_the_other_scale_and_which_one_is_shown(ran):
    lines = litrec("status", "--profile", "paper", cwd=ran).stdout.splitlines()
    # the summary comes first: the paper's own scale leads it, the table's profile follows;
    # neither is cut
    assert lines[:2] == ["at paper_full, the paper's own scale: 2 claims of ARXIV-0000.00003: 2 reproduced",
                          "  2 claims of ARXIV-0000.00003: 1 reproduced, 1 inconclusive (profile paper)"]
    # without --profile, status shows the paper's own scale, the reduced one beside it
    plain = litrec("status", cwd=ran).stdout.splitlines()
    assert plain[:2] == ["2 claims of ARXIV-0000.00003: 2 reproduced (profile paper_full, the paper's own scale)",
                          "  at paper: 2 claims of ARXIV-0000.00003: 1 reproduced, 1 inconclusive"]
    row = next(ln for ln in plain if ln.startswith("ARXIV-0000.00003#F1"))
    assert "reproduced" in row
    assert any("at paper: inconclusive" in ln for ln in plain)


def test_export_json_gives_both(ran, tmp_path):
    """By default at the paper's own scale, as `status` (`paper_full` has results here)."""
    for given, profile, verdict in (((), "paper_full", "reproduced"), (("--profile", "paper"), "paper", "inconclusive")):
        out = tmp_path / f"graph-{profile}.json"
        assert litrec("export", "json", *given, "--out", out, cwd=ran).returncode == 0
        doc = json.loads(out.read_text())
        assert doc["profile"] == profile and doc["scales"] == ["paper", "paper_full"]
        f1 = next(c for c in doc["claims"] if c["id"] == "F1")
        assert f1["verdict"] == verdict
        assert f1["verdicts"] == {"paper": "inconclusive", "paper_full": "reproduced"}


def test_the_dashboard_says_which_scale_its_headline_uses(ran):
    pages = site_pages(ran, profile="paper")
    home = pages["index.md"]
    assert "the <strong>paper</strong> one first" in home
    assert home.index("<th>at <code>paper</code>") < home.index("<th>at <code>paper_full</code>")
    row = home[home.index("#F1"):]
    row = row[:row.index("</tr>")]
    assert row.index("lr-v-inconclusive") < row.index("lr-v-reproduced")  # paper, then paper_full
    page = next(v for k, v in pages.items() if "ARXIV-0000.00003" in k)
    assert "at <code>paper_full</code>: " in page


def test_a_run_at_another_profile_names_the_paper_s_own_scale_in_its_summary(tmp_path):
    """`litrec run --profile quick` where `paper_full` has results: its summary gives the counts
    at the paper's own scale in one line, first; a scale with no result says nothing."""
    root = write_project(tmp_path / "p", claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    (root / "analysis" / "toy.py").write_text(FULL)
    assert litrec("run", "--profile", "paper_full", "--jobs", "1", cwd=root).returncode == 0
    for _ in range(2):  # a run, then one answered without running anything: the same summary
        proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[-2:] == ["at paper_full, the paper's own scale: 1 claim of ARXIV-0000.00003: 1 reproduced",
                              "  1 claim of ARXIV-0000.00003: 1 reproduced (profile quick)"], proc.stdout
        assert "at paper:" not in proc.stdout  # no result at paper: not summarised


# ------------------------------------------------ the scales are the project's

SMALL_FULL = TOY.replace('"paper": Config(wiggle=0.002)}', '"small": Config(wiggle=0.002), '
                         '"full": Config(wiggle=0.0005)}').replace(
    '"paper": (0, 1, 2)}', '"small": (0, 1, 2), "full": (0, 1, 2, 3, 4)}')


@pytest.fixture(scope="module")
def small_full(tmp_path_factory):
    """Another paper's profile names, `small` and `full` (the toy's wiggle as at paper and
    paper_full): F1 inconclusive at small, reproduced at full."""
    root = write_project(tmp_path_factory.mktemp("small_full"),
                         claim("F1", '{metric: loss_trained, op: "<", value: 0.1009, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'),
                         claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    (root / "analysis" / "toy.py").write_text(SMALL_FULL)
    for profile in ("small", "full"):
        proc = litrec("run", "--profile", profile, "--jobs", "1", cwd=root)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return root


def test_another_paper_s_profile_names_are_its_scales_in_status(small_full):
    plain = litrec("status", cwd=small_full).stdout.splitlines()
    assert plain[:2] == ["2 claims of ARXIV-0000.00003: 2 reproduced (profile full, the paper's own scale)",
                          "  at small: 2 claims of ARXIV-0000.00003: 1 reproduced, 1 inconclusive"]
    assert any("at small: inconclusive" in ln for ln in plain)
    lines = litrec("status", "--profile", "small", cwd=small_full).stdout.splitlines()
    assert lines[:2] == ["at full, the paper's own scale: 2 claims of ARXIV-0000.00003: 2 reproduced",
                          "  2 claims of ARXIV-0000.00003: 1 reproduced, 1 inconclusive (profile small)"]
    _, rows = status(small_full, profile="small")
    assert rows["F1"]["verdicts"] == {"small": "inconclusive", "full": "reproduced"}
    assert "paper" not in litrec("status", cwd=small_full).stdout.replace("the paper's own", "")


def test_another_paper_s_scales_in_the_export_and_the_site(small_full, tmp_path):
    out = tmp_path / "graph.json"
    assert litrec("export", "json", "--profile", "small", "--out", out, cwd=small_full).returncode == 0
    doc = json.loads(out.read_text())
    assert doc["scales"] == ["small", "full"]
    assert next(c for c in doc["claims"] if c["id"] == "F1")["verdicts"] == {
        "small": "inconclusive", "full": "reproduced"}
    home = site_pages(small_full, profile="small")["index.md"]
    assert home.index("<th>at <code>small</code>") < home.index("<th>at <code>full</code>")
    assert "the paper&#x27;s own scale" in home or "the paper's own scale" in home


def test_the_registry_s_scales_key_decides_over_the_analyses(small_full, tmp_path):
    from litrec.verdicts.claims import folder_scales

    registry = small_full / "analysis" / "registry.yaml"
    text = registry.read_text()
    try:
        registry.write_text(text + "scales: [full]\n")
        assert folder_scales(small_full / "records", None) == ("full",)
        _, rows = status(small_full, profile="small")
        assert rows["F1"]["verdicts"] == {"full": "reproduced"}
    finally:
        registry.write_text(text)
    assert folder_scales(small_full / "records", None) == ("small", "full")


# ------------------------------------------------ the rule, and the registry's `scales:`

@pytest.mark.parametrize("orders, scales", [
    # as the seed paper's analyses declare them: variants one analysis declares are no scales
    ([("quick", "paper", "paper_full"), ("quick", "paper"),
      ("quick", "paper", "paper_slot", "paper_full")], ("paper", "paper_full")),
    ([("quick", "small", "full")], ("small", "full")),  # a project of one analysis: its own
    ([("quick", "full"), ("quick", "small", "full"), ("small", "full")], ("small", "full")),  # merged
    ([("full", "small"), ("small", "full"), ("small", "full")], ("full", "small")),  # first decides
    ([], ("paper",)), ([("quick",)], ("paper",)), ([("a",), ("b",)], ("paper",)),  # none shared
])
def test_the_scales_are_the_profiles_the_analyses_share_smallest_first(orders, scales):
    from litrec.analyses.scales import default_scales

    assert default_scales(orders) == scales


def _registry(tmp_path, tail: str, *profiles: tuple[str, ...]):
    from litrec.analyses.registry import load_registry

    folder = tmp_path / "analysis"
    folder.mkdir(parents=True)
    lines = []
    for i, names in enumerate(profiles):
        (folder / f"a{i}.py").write_text(f"PROFILES = {dict.fromkeys(names)!r}\n\n\n"
                                         "def run(config, progress=None):\n    return {'metrics': {}}\n")
        lines.append(f"a{i}:\n  module: a{i}\n  title: A{i}\n")
    (folder / "registry.yaml").write_text("".join(lines) + tail)
    diags = []
    reg = load_registry(folder, diags, lambda p: p.relative_to(tmp_path).as_posix())
    return reg, [d.format() for d in diags]


def test_the_registry_names_its_scales(tmp_path):
    reg, problems = _registry(tmp_path, "scales: [full, small]\n", ("quick", "small", "full"))
    assert problems == [] and reg.scales == ("full", "small")
    assert "scales" not in reg.entries  # the registry's key, not an analysis
    # an analysis whose PROFILES litrec cannot read may declare any profile: names go unchecked
    reg, problems = _registry(tmp_path / "unread", "scales: [small, huge]\n", ("quick", "small", "full"))
    (tmp_path / "unread" / "analysis" / "a0.py").write_text(
        "PROFILES = dict(**{'huge': 1})\n\n\ndef run(config, progress=None):\n    return {}\n")
    from litrec.analyses.registry import load_registry

    problems = []
    reg = load_registry(tmp_path / "unread" / "analysis", problems)
    assert problems == [] and reg.scales == ("small", "huge")


@pytest.mark.parametrize("tail, problem", [
    ("scales: small\n", "analysis/registry.yaml:4:1: scales: must be a list of the analyses' profile "
     "names (scales: [small, full], smallest first, the paper's own last); found str 'small'. "
     "'scales' is the registry's list of scales, not an analysis name"),
    ("scales: []\n", "analysis/registry.yaml:4:1: scales: must be a list of the analyses' profile "
     "names (scales: [small, full], smallest first, the paper's own last); found an empty list. "
     "'scales' is the registry's list of scales, not an analysis name"),
    ("scales:\n  - small\n  - Full\n", "analysis/registry.yaml:6:5: scales[1]: 'Full' is not a "
     "profile name (lower-case letters, digits and '_', as the analyses' PROFILES name them)"),
    ("scales: [small, small]\n", "analysis/registry.yaml:4:17: scales[1]: 'small' is named twice; "
     "name each scale once, smallest first"),
    ("scales: [small, ful]\n", "analysis/registry.yaml:4:17: scales[1]: no analysis declares the "
     "profile 'ful' (their PROFILES: full, quick, small); did you mean 'full'?"),
])
def test_a_bad_scales_key_is_a_located_error_and_the_default_stands(tmp_path, tail, problem):
    reg, problems = _registry(tmp_path, tail, ("quick", "small", "full"))
    assert problems == [problem]
    assert reg.scales == ("small", "full")


def test_analyses_that_order_their_scales_apart_are_warned_of(tmp_path):
    reg, problems = _registry(tmp_path, "", ("quick", "small", "full"), ("full", "small"))
    assert reg.scales == ("small", "full")
    assert problems == ["analysis/registry.yaml:4:1: warning: a1: its PROFILES list 'full' before "
                        "'small', those of 'a0' 'small' before 'full'; the scales are ordered as the "
                        "analyses list their profiles, smallest first, so 'a0' decides: list them "
                        "alike, or name the order in 'scales:' (see site/writing-analyses.md)"]
    reg, problems = _registry(tmp_path / "named", "scales: [small, full]\n", ("quick", "small", "full"),
                              ("full", "small"))
    assert problems == [] and reg.scales == ("small", "full")
