"""Shared fixtures: the fixture project (tests/fixtures/project) copied into a temporary folder.

Two kinds of test read records:

- most tests run on the fixture project, a frozen copy of the seed records with
  a stub analysis registry (see tests/fixtures/README.md); they may name its
  records and count its links, since it changes only with the tests;
- the tests in tests/project check the project's own records, analyses and
  results (they validate, their results are current, every claim's analysis is
  tested, every record gets a page). They read PROJECT, the repository unless
  the environment variable LITREC_TEST_PROJECT names another project's root, and
  derive what they expect from the files they find there.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
PROJECT = Path(os.environ.get("LITREC_TEST_PROJECT") or REPO).resolve()

# Settings that make JAX keep every program it compiles in a folder, however small or quick.
COMPILE_CACHE_VARIABLES = ("JAX_COMPILATION_CACHE_DIR", "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS",
                           "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES")


def _share_compiled_programs() -> None:
    """One JAX compilation cache for the whole test session: the repository's own
    `.litrec-cache/jax/`, where `litrec run` keeps what it compiles (CI's quick run fills it
    before the tests). Every test, both xdist workers and every process they start (litrec
    runs, workers, scripts: they inherit the environment) then compile a program once and
    load it afterwards; compiling is most of a quick training's CPU time. A loaded program
    is the executable XLA compiled, so no number changes (tests/sweep/test_warm_workers.py
    checks it bit for bit). Set before JAX is imported, which reads these variables. Left
    alone with `LITREC_NO_CACHE=1` or a JAX_COMPILATION_CACHE_DIR of one's own; the tests
    of litrec's own compile cache, and of reruns compiled afresh, take it away again
    (`without_shared_compile_cache`)."""
    from litrec.cache import cache_dir

    if os.environ.get("JAX_COMPILATION_CACHE_DIR") or "jax" in sys.modules:
        return
    folder = cache_dir(REPO, "jax")
    if folder is not None:
        os.environ.update(dict(zip(COMPILE_CACHE_VARIABLES, (str(folder), "0", "-1"))))


_share_compiled_programs()

from litrec.commands import main  # noqa: E402

# Tests that take many seconds each on a two-core machine (training to the end of a quick
# profile, or many subprocess runs of one class of bad input). The everyday suite (`make test`) leaves them, like every
# test marked `slow`, to `make test-all`. They are named here rather than marked in their
# files; tests/test_layout.py checks that each name is still a test of its file.
SLOW_TESTS = (
    "tests/hardening/test_bad_input.py::test_bad_provenance_types",
    "tests/hardening/test_bad_input.py::test_metric_of_another_type_is_not_judged",
    "tests/hardening/test_data_loss.py::test_ctrl_c_and_sigterm_stop_the_run_and_its_workers",
    "tests/hardening/test_data_loss.py::test_two_runs_at_once_do_not_interleave",
    "tests/hardening/test_data_loss.py::test_site_build_replaces_its_own_build_and_nothing_else",
    "tests/hardening/test_bibtex.py::test_status_run_graph_and_export_never_print_record_text_raw",
    "tests/ecosystem/test_records_repo.py::test_the_example_workflow_builds_a_records_only_site",
    "tests/ecosystem/test_new_analysis.py::test_the_scaffold_validates_passes_its_test_and_runs",
    "tests/analyses/test_deeper_gdpp.py::test_position_and_noise",
    "tests/analyses/test_prop2_mlp_attention.py::test_every_random_quantity_follows_the_seed",
    "tests/analyses/test_prop3_token_building.py::test_official_format_leaves_the_plateau",
    "tests/analyses/test_conditioning.py::test_quick_profile_conditioning_vs_parameters",
    "tests/analyses/test_deeper_gdpp.py::test_recurrent_two_layers_beat_gd_and_align_with_gdpp",
    "tests/analyses/test_deeper_gdpp.py::test_five_layers_run_and_report",
    "tests/analyses/test_prop2_mlp_attention.py::test_both_models_learn_the_sine_family",
    "tests/analyses/test_prop2_mlp_attention.py::test_identity_and_baseline_layer_to_float64_precision",
    "tests/analyses/test_prop2_mlp_attention.py::test_fast_trained_predictor_equals_full_layers",
    "tests/analyses/test_prop3_token_building.py::test_quick_profile_copies_then_steps_once",
    "tests/analyses/test_single_layer.py::test_quick_profile_trained_layer_matches_one_gd_step",
    "tests/analyses/test_rerun_identical.py::test_proposition_1_float32_errors_are_identical_in_a_rerun",
    "tests/analyses/test_rerun_identical.py::test_a_short_training_is_identical_in_a_rerun",
    "tests/analyses/test_single_layer.py::test_a_batched_seed_equals_the_same_seed_run_alone",
    "tests/analyses/test_single_layer.py::test_seeds_trained_in_turn_equal_each_seed_run_alone",
    "tests/site/test_live.py::test_a_deleted_record_page_and_its_search_entries_go",
    "tests/site/test_live.py::test_a_new_record_gets_a_page_and_nothing_changed_rebuilds_nothing",
    "tests/site/test_live.py::test_a_change_to_the_nav_rebuilds_the_whole_site",
    "tests/hardening/test_fuzz.py::test_mutated_results_fast",
    "tests/hardening/test_fuzz.py::test_mutated_records_fast",
    "tests/analyses/test_lsa.py::test_query_forward_matches_token_forward",
    "tests/analyses/test_deeper_gdpp.py::test_spectral_gdpp_equals_lsa_construction",
    "tests/analyses/test_prop1_identity.py::test_quick_profile_holds_exactly",
    "tests/analyses/test_deeper_gdpp.py::test_token_forward_equals_plain_layers",
    "tests/analyses/test_metrics_train.py::test_train_is_chunk_invariant",
    "tests/analyses/test_gd_input_range.py::test_quick_profile_ranges",
    "tests/hardening/test_bad_input.py::test_bad_out_file",
    "tests/hardening/test_bad_input.py::test_figure_paths_outside_the_result",
    "tests/hardening/test_bad_input.py::test_site_says_a_result_is_damaged_and_a_figure_missing",
    "tests/hardening/test_bad_input.py::test_nan_or_null_in_an_expectation",
    "tests/hardening/test_bad_input.py::test_bad_out_folder",
    "tests/hardening/test_data_loss.py::test_site_out_may_not_be_the_project_or_one_of_its_folders",
    "tests/hardening/test_data_loss.py::test_an_analysis_that_exits_is_a_failure_and_keeps_the_old_result",
    "tests/ecosystem/test_schema.py::test_scalar_types_same_answer",
    "tests/ecosystem/test_schema.py::test_every_single_change_same_answer",
    "tests/sweep/test_warm_workers.py::test_a_damaged_cache_entry_is_compiled_afresh_and_replaced",
    "tests/site/test_live.py::test_generating_only_what_edits_change_gives_the_pages_of_a_whole_generation",
    "tests/analyses/test_seed_batch.py::test_unrolled_threefry_draws_the_same_bits_and_is_undone",
    "tests/analyses/test_prop3_token_building.py::test_construction_is_exactly_one_gd_step",
)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by mark
def pytest_collection_modifyitems(config, items):
    slow = set(SLOW_TESTS)
    for item in items:
        if item.nodeid.split("[")[0] in slow:
            item.add_marker(pytest.mark.slow)


def without_times(result: dict) -> dict:
    """A stored result without what differs between two runs of the same inputs: when it
    started, how long it and each of its points took, and the hash over them."""
    out = {k: v for k, v in result.items() if k not in ("started", "wall_time_s", "content_hash")}
    if isinstance(out.get("points"), list):
        out["points"] = [{k: v for k, v in p.items() if k != "wall_time_s"} for p in out["points"]]
    return out


def copy_project(dest: Path, *overlays: str) -> Path:
    """The fixture project in `dest`, with each overlay (a folder of tests/fixtures) copied over it."""
    shutil.copytree(FIXTURES / "project", dest, dirs_exist_ok=True)
    for overlay in overlays:
        shutil.copytree(FIXTURES / overlay, dest, dirs_exist_ok=True)
    return dest


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the fixture project (records and a stub registry); the working directory."""
    root = copy_project(tmp_path / "project")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""

    def run(*args):
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def without_shared_compile_cache(monkeypatch):
    """JAX as a user has it, without the session's compile cache (`_share_compiled_programs`):
    for the tests of litrec's own compile cache, and of reruns that must compile afresh."""
    for name in COMPILE_CACHE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    if "jax" not in sys.modules:
        yield
        return
    import jax
    from jax.experimental.compilation_cache import compilation_cache as cc

    names = ("jax_compilation_cache_dir", "jax_persistent_cache_min_compile_time_secs",
             "jax_persistent_cache_min_entry_size_bytes")
    saved = {name: getattr(jax.config, name) for name in names}
    for name, value in zip(names, (None, 1.0, 0)):  # JAX's defaults
        jax.config.update(name, value)
    cc.reset_cache()
    try:
        yield
    finally:
        for name, value in saved.items():
            jax.config.update(name, value)
        cc.reset_cache()
