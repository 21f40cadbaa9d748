"""`litrec new analysis NAME`: a module from the contract, its registry entry and its test,
valid and passing out of the box; taken and malformed names refused."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from litrec.analyses.contract import source_problems, source_profiles
from litrec.runs.newanalysis import module_name

from .conftest import run_cli


@pytest.mark.slow
def test_the_scaffold_validates_passes_its_test_and_runs(project):
    registry = project / "analysis" / "registry.yaml"
    before = registry.read_text(encoding="utf-8")
    code, out, err = run_cli("litrec new analysis lln-mean --title 'The mean of draws'", project)
    assert (code, err) == (0, "")
    assert out == ("created analysis/lln_mean.py\ncreated tests/analyses/test_lln_mean.py\n"
                   "registered lln-mean in analysis/registry.yaml\n")
    after = registry.read_text(encoding="utf-8")
    assert after.startswith(before)  # appended: the comments and entries kept as they were
    assert after[len(before):].lstrip("\n") == ("lln-mean:\n  module: lln_mean\n"
                                                "  title: The mean of draws\n")

    source = (project / "analysis" / "lln_mean.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert ast.get_docstring(tree).startswith("The mean of draws.")
    assert source_problems(source) == [] and source_profiles(source) == {"quick", "paper"}
    # nothing runs at import: only imports, the Config class, PROFILES and functions
    assert all(isinstance(n, (ast.Expr, ast.ImportFrom, ast.Import, ast.ClassDef, ast.Assign,
                              ast.FunctionDef)) for n in tree.body)
    assert "frozen=True" in source and "seed: int = 0" in source

    code, out, err = run_cli("litrec validate", project)
    assert code == 0, out + err

    test = project / "tests" / "analyses" / "test_lln_mean.py"
    assert "from analysis import lln_mean" in test.read_text(encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--noconftest", "--rootdir", str(project), str(test)],
                          cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr

    done = subprocess.run([sys.executable, "-m", "litrec", "run", "lln-mean", "--profile", "quick",
                           "--format", "json"], cwd=project, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["ran"] == ["lln-mean"]
    result = json.loads((project / "results" / "lln-mean" / "quick.json").read_text(encoding="utf-8"))
    assert set(result["metrics"]) == {"mean", "std"} and set(result["noise"]) == {"mean"}
    assert (project / "results" / "lln-mean" / "quick" / "histogram.svg").is_file()


def test_json_output_and_a_registry_without_a_final_newline(project):
    registry = project / "analysis" / "registry.yaml"
    registry.write_text(registry.read_text(encoding="utf-8").rstrip("\n"), encoding="utf-8")
    code, out, _ = run_cli("litrec new analysis toy-two --format json", project)
    assert code == 0
    assert json.loads(out) == {"analysis": "toy-two", "module": "toy_two", "files": [
        "analysis/toy_two.py", "tests/analyses/test_toy_two.py", "analysis/registry.yaml"]}
    assert "\ntoy-two:\n  module: toy_two\n  title: Toy two\n" in registry.read_text(encoding="utf-8")
    assert run_cli("litrec validate", project)[0] == 0


def test_a_taken_name_is_refused_and_nothing_changes(project):
    registry = project / "analysis" / "registry.yaml"
    name = next(ln.rstrip(":") for ln in registry.read_text(encoding="utf-8").splitlines()
                if ln and ln[0].isalpha())
    line = registry.read_text(encoding="utf-8").splitlines().index(f"{name}:") + 1
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    code, out, err = run_cli(f"litrec new analysis {name}", project)
    assert (code, out) == (1, "")
    assert err == (f"litrec new: analysis '{name}' is registered: analysis/registry.yaml:{line}; "
                   "choose another name\n")
    (project / "analysis" / "helper_mod.py").write_text("X = 1\n", encoding="utf-8")
    before[project / "analysis" / "helper_mod.py"] = b"X = 1\n"
    code, _, err = run_cli("litrec new analysis helper-mod", project)
    assert code == 1 and err == "litrec new: analysis/helper_mod.py exists; choose another name\n"
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("name,extra", [("Bad_Name", ""), ("2fast", ""), ("a--b", ""),
                                        ("lln-", ""), ("class", "; it is a Python keyword")])
def test_a_malformed_name_is_a_usage_error_naming_the_rule(project, name, extra):
    code, out, err = run_cli(["new", "analysis", name], project)
    assert (code, out) == (2, "")
    assert err == (f"litrec: error: analysis name '{name}' must be lower-case words joined by '-', "
                   f"starting with a letter (e.g. lln-uniform-mean){extra}\n")
    assert not (project / "tests").exists()


def test_no_name_and_no_folder(project, tmp_path):
    code, _, err = run_cli("litrec new analysis", project)
    assert code == 2 and "give the analysis's name: lower-case words joined by '-'" in err
    code, _, err = run_cli("litrec new analysis x", tmp_path)
    assert code == 2 and "analysis folder 'analysis' does not exist" in err


def test_a_broken_registry_is_reported_not_appended_to(project):
    registry = project / "analysis" / "registry.yaml"
    registry.write_text("a: [\n", encoding="utf-8")
    code, _, err = run_cli("litrec new analysis fresh", project)
    assert code == 1 and err.startswith("litrec new: error: analysis/registry.yaml:") \
        and "fix the registry first" in err
    assert registry.read_text(encoding="utf-8") == "a: [\n"
    assert not (project / "analysis" / "fresh.py").exists()


def test_module_names():
    assert module_name("lln-uniform-mean") == "lln_uniform_mean"
    with pytest.raises(ValueError, match="lower-case words"):
        module_name("Lln")
