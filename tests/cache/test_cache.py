"""The one cache (`litrec.cache`) and its refusal rules, tested once over every use of it.

Each use keeps an entry in a temporary project; then an untrue entry of the right
shape (a *lie*) is planted where the rule under test says the cache must not be
trusted: with caching off (`LITREC_NO_CACHE`, `--no-cache`), behind a symbolic link
(the cache folder, the use's folder, the entry), damaged, or of another format,
litrec or key. The use's answer must then be the answer with caching off, and
nothing may be written through a link or while caching is off. The same lie
planted breaking no rule is served: the premise that makes every case able to fail.
Uses that keep a folder, not entries (JAX's compile cache, training checkpoints),
are held to the rules about the folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
from pathlib import Path

import pytest

from litrec.cache import historymemo, sourcefacts, vcache
from litrec.cache import slots as cache
from litrec.cache.slots import Slot, named
from tests.conftest import copy_project
from tests.support.files import write
from tests.support.inprocess import run_inprocess
from tests.support.mini import ANALYSIS, NOTE, PAPER


@dataclasses.dataclass(frozen=True)
class Entry:
    name: str
    values: list


def test_a_value_is_kept_under_its_key_only(tmp_path, monkeypatch):
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)
    slot = Slot(tmp_path, "things", "one")
    assert slot.read("k") is None
    assert slot.write("k", Entry("a", [1, 2.5, None]))
    assert named(Entry, slot.read("k")) == Entry("a", [1, 2.5, None])
    assert slot.read("another key") is None
    assert named(Entry, {"name": "a"}) is None  # other fields: not an Entry


def test_a_folder_where_the_entry_should_be_and_a_read_only_project(tmp_path, monkeypatch):
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)
    slot = Slot(tmp_path, "things", "one")
    (tmp_path / ".litrec-cache" / "things" / "one.bin").mkdir(parents=True)
    assert slot.read("k") is None
    assert not slot.write("k", 1)  # silent
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert not Slot(ro, "things", "one").write("k", 1) or os.geteuid() == 0
    finally:
        ro.chmod(0o700)


# ------------------------------------------------------------------ the uses


class Validation:
    """`litrec validate`'s cache: a note's entry says it has a problem it has not."""

    folder, name = "validate", "records"

    def prime(self, root: Path) -> None:
        self.answer(root)

    def key(self, root: Path) -> str:
        return vcache.Cache(root, root / "records").key

    def falsify(self, held: dict) -> dict:
        files = {rel: dict(e) for rel, e in held["files"].items()}
        files["notes/NOTE-621.yaml"]["problems"] = (
            (1, 1, "", "a problem only the cache knows", "lie", "error", None),)
        return {**held, "files": files, "between": None}

    def answer(self, root: Path):
        from litrec.records.validate import check_collection

        return [d.format() for d in check_collection(root / "records").diagnostics]


class SuspectLinks:
    """`litrec validate`'s suspect-link answer: a reviewed link said to be suspect."""

    folder, name = "validate", "links"

    def prime(self, root: Path) -> None:
        self.answer(root)

    def key(self, root: Path) -> str | None:
        from litrec.records.validate import default_analysis_dir
        from litrec.verdicts.report import links_key

        records = root / "records"
        return links_key(records, default_analysis_dir(records), records.resolve().parent / "results")

    def falsify(self, held: dict) -> dict:
        links = [dict(r) for r in held["links"]]
        links[0].update(state="suspect", moved=["a lie only the cache tells"])
        return {**held, "links": links}

    def answer(self, root: Path):
        from litrec.verdicts.report import validation_report

        report = validation_report(root / "records")
        assert report.links and not report.checked.errors  # the baseline: every link reviewed
        return [(r.record, r.target, r.state, r.moved) for r in report.links]


class RunMemo:
    """A no-op run's kept verdicts: the claim's verdict flipped."""

    folder, name = "run", "quick"

    def prime(self, root: Path) -> None:
        self.answer(root)

    def _dirs(self, root: Path):
        return root / "records", root / "analysis", root / "results"

    def key(self, root: Path) -> str:
        from litrec.analyses.memo import memo_key

        return memo_key(*self._dirs(root), "quick", [])

    def falsify(self, held: dict) -> dict:
        claims = [dict(c) for c in held["claims"]]
        claims[0]["verdict"] = "not reproduced" if claims[0]["verdict"] == "reproduced" \
            else "reproduced"
        return {**held, "claims": claims}

    def answer(self, root: Path):
        from litrec.runs.options import RunOptions
        from litrec.runs.reproduce import reproduce

        out = reproduce(RunOptions.of(records=root / "records", analysis=root / "analysis",
                                      results=root / "results", profile="quick"))
        assert out.ran == [] and not out.failed  # a no-op: nothing stale (invalid records raise)
        return [s.row() for s in out.statuses]


class SourceFacts:
    """What a source says, kept per content: another answer for the same bytes."""

    folder = "sources"
    name = hashlib.blake2b(b"probe module.py", digest_size=16).hexdigest()

    def prime(self, root: Path) -> None:
        self.answer(root)

    def key(self, root: Path) -> str:
        return f"probe module.py {hashlib.sha256(b'x = 1').hexdigest()} {sourcefacts.reader_hash()}"

    def falsify(self, held):
        return {"x": "a lie"}

    def answer(self, root: Path):
        sourcefacts._HELD.clear()  # what another process would find: the slot only
        return sourcefacts.fact(root, "probe module.py", b"x = 1", lambda: {"x": 1})


class History:
    """What a file's committed versions say, kept per commit: another answer at the same commit."""

    folder = "history"
    name = hashlib.blake2b(b"record records/x.yaml", digest_size=16).hexdigest()
    head = "0" * 40

    def prime(self, root: Path) -> None:
        self.answer(root)

    def key(self, root: Path) -> str:
        return f"record records/x.yaml {self.head} {historymemo.reader_hash()}"

    def falsify(self, held):
        return {"x": "a lie"}

    def answer(self, root: Path):
        return historymemo.committed(root, self.head, "record records/x.yaml", lambda: {"x": 1})


class CompileCache:
    """JAX's compile cache: a folder of the cache (JAX keys its entries itself)."""

    folder = "jax"

    def answer(self, root: Path):
        from litrec.cache.jaxcache import compile_cache

        with compile_cache(root) as folder:
            return folder


ENTRY_USES = {"validate": Validation(), "suspect links": SuspectLinks(), "run memo": RunMemo(),
              "source facts": SourceFacts(), "history": History()}
FOLDER_USES = {"compile cache": CompileCache()}


@pytest.fixture(scope="module")
def ran_project(tmp_path_factory) -> Path:
    """A small project whose result is current (run once, in this process, caching off)."""
    root = tmp_path_factory.mktemp("ran") / "project"
    write(root, "analysis/__init__.py", "")
    write(root, "analysis/toy.py", ANALYSIS)
    write(root, "analysis/registry.yaml", "toy:\n  module: toy\n  title: Toy sum\n")
    write(root, "records/literature/ARXIV-0000.00001.yaml", PAPER)
    write(root, "records/notes/NOTE-1.yaml", NOTE)
    code, out, err = run_inprocess(["run", "--profile", "quick"], cwd=root, env={"LITREC_NO_CACHE": "1"})
    assert (root / "results" / "toy" / "quick.json").is_file(), out + err
    assert not (root / ".litrec-cache").exists()
    return root


@pytest.fixture
def root(request, tmp_path, monkeypatch, ran_project) -> Path:
    """The project of the use under test (a fresh copy), the working folder; caching on."""
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)
    monkeypatch.setattr(sourcefacts, "_HELD", {})
    dest = tmp_path / "project"
    if request.node.callspec.params.get("use") == "validate":
        copy_project(dest)
    else:
        shutil.copytree(ran_project, dest, symlinks=True)
    monkeypatch.chdir(dest)
    return dest


def _off_by_env(monkeypatch):
    monkeypatch.setenv("LITREC_NO_CACHE", "1")


def _off_by_flag(monkeypatch):
    monkeypatch.setenv("LITREC_NO_CACHE", "0")  # restored afterwards
    cache.turn_off()  # what --no-cache does for the command


OFF = {"LITREC_NO_CACHE": _off_by_env, "--no-cache": _off_by_flag}
LINKS = ("link: .litrec-cache", "link: the use's folder", "link: the entry")
NOT_A_FOLDER = "a file where .litrec-cache should be"
DAMAGE = {"garbage": lambda b: b"\x00not a cache entry" * 3, "truncated": lambda b: b[:-3],
          "empty": lambda b: b"", "a flipped byte": lambda b: b[:-1] + bytes([b[-1] ^ 1])}
FOREIGN = ("another format", "another litrec", "another key")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def _plant_through_link(root: Path, tmp_path: Path, where: str, folder: str,
                        write_there) -> Path:
    """The cache (or the use's folder, or one entry) of `root` made a link into another
    project `outside`, where `write_there(outside)` has kept what the link leads to."""
    outside = tmp_path / "outside"
    outside.mkdir()
    write_there(outside)
    base, theirs = root / ".litrec-cache", outside / ".litrec-cache"
    if base.exists():
        shutil.rmtree(base)
    if where == "link: .litrec-cache":
        base.symlink_to(theirs, target_is_directory=True)
    elif where == "link: the use's folder":
        base.mkdir()
        (base / folder).symlink_to(theirs / folder, target_is_directory=True)
    else:
        (base / folder).mkdir(parents=True)
        for entry in (theirs / folder).iterdir():
            (base / folder / entry.name).symlink_to(entry)
    return outside


def _not_a_folder(root: Path) -> None:
    shutil.rmtree(root / ".litrec-cache", ignore_errors=True)
    (root / ".litrec-cache").write_bytes(b"mine")


RULES = ["premise", *OFF, *LINKS, NOT_A_FOLDER, *DAMAGE, *FOREIGN]


def _cases() -> list:
    """Every (use, rule): in the everyday suite each use's premise (its cache is what is read)
    and each rule once, the uses taken in turn; the whole grid with the slow tests (CI)."""
    uses = sorted(ENTRY_USES)
    everyday = {(u, "premise") for u in uses} | {(uses[i % len(uses)], r) for i, r in enumerate(RULES)}
    return [pytest.param(u, r, id=f"{u}-{r}", marks=() if (u, r) in everyday else pytest.mark.slow)
            for u in uses for r in RULES]


@pytest.mark.parametrize("use, rule", _cases())
def test_every_use_refuses_what_the_rules_refuse(use, rule, root, tmp_path, monkeypatch):
    u = ENTRY_USES[use]
    with monkeypatch.context() as m:
        _off_by_env(m)
        truth = u.answer(root)
    u.prime(root)
    slot, key = Slot(root, u.folder, u.name), u.key(root)
    held = slot.read(key)
    assert held is not None, "the use kept no entry under its key"
    lie = u.falsify(held)
    entry = root / ".litrec-cache" / u.folder / f"{u.name}.bin"
    if rule == "premise":
        slot.write(key, lie)
        assert u.answer(root) != truth  # the lie is served: the cache is what is read
        return
    if rule in LINKS:
        outside = _plant_through_link(root, tmp_path, rule, u.folder,
                                      lambda there: Slot(there, u.folder, u.name).write(key, lie))
        before = _snapshot(outside)
        assert u.answer(root) == truth
        assert _snapshot(outside) == before  # nothing written through the link
        return
    if rule == NOT_A_FOLDER:
        _not_a_folder(root)
        assert u.answer(root) == truth
        assert (root / ".litrec-cache").read_bytes() == b"mine"  # left alone
        return
    if rule in FOREIGN:
        with monkeypatch.context() as m:
            if rule == "another format":
                m.setattr(cache, "FORMAT", cache.FORMAT + 1)
            elif rule == "another litrec":
                m.setattr(cache, "__version__", "0.0.0-another")
            slot.write("another key" if rule == "another key" else key, lie)
    else:
        slot.write(key, lie)
    if rule in DAMAGE:
        entry.write_bytes(DAMAGE[rule](entry.read_bytes()))
    if rule in OFF:
        before = entry.read_bytes()
        OFF[rule](monkeypatch)
        assert u.answer(root) == truth
        assert entry.read_bytes() == before  # nothing written while caching is off
        return
    assert u.answer(root) == truth
    assert slot.read(key) is not None  # the refused entry was replaced by a true one,
    assert u.answer(root) == truth     # which is what is read next


@pytest.mark.parametrize("rule", ["premise", *OFF, "link: .litrec-cache", "link: the use's folder",
                                  NOT_A_FOLDER])
@pytest.mark.parametrize("use", sorted(FOLDER_USES))
def test_every_folder_of_the_cache_is_refused_as_the_rules_say(use, rule, root, tmp_path,
                                                              monkeypatch, request):
    u = FOLDER_USES[use]
    if use == "compile cache":
        request.getfixturevalue("without_shared_compile_cache")  # JAX as a user has it
    if rule == "premise":
        folder = Path(u.answer(root))
        assert folder.resolve().is_relative_to((root / ".litrec-cache").resolve())
        return
    if rule in OFF:
        OFF[rule](monkeypatch)
        assert u.answer(root) is None
        assert not (root / ".litrec-cache" / u.folder).exists()
        return
    if rule == NOT_A_FOLDER:
        _not_a_folder(root)
        assert u.answer(root) is None
        assert (root / ".litrec-cache").read_bytes() == b"mine"
        return

    def there(outside):
        (outside / ".litrec-cache" / u.folder).mkdir(parents=True)

    outside = _plant_through_link(root, tmp_path, rule, u.folder, there)
    assert u.answer(root) is None
    assert _snapshot(outside) == {} and list((outside / ".litrec-cache" / u.folder).iterdir()) == []


@pytest.mark.parametrize("command", [("validate",), ("status", "--profile", "quick"),
                                     ("run", "--profile", "quick")])
def test_no_cache_on_the_command_line_reads_and_writes_nothing(command, root, cli):
    assert cli(*command, "--no-cache")[0] in (0, 1)
    assert not (root / ".litrec-cache").exists()
    assert "LITREC_NO_CACHE" not in os.environ  # off for the command only
    sourcefacts._HELD.clear()  # as a new process: nothing worked out yet
    cli(*command)
    assert (root / ".litrec-cache").is_dir()  # the premise: without it, the command keeps some


def test_a_code_key_follows_the_imports_of_its_modules(tmp_path):
    """`litrec_closure`: the named modules and what they import of litrec, transitively, also
    inside functions and in parenthesised lists; a key's entry that is not there is an error."""
    pkg = tmp_path / "litrec"
    for rel, text in {"__init__.py": "", "a/__init__.py": "", "b/__init__.py": "",
                      "a/one.py": "from litrec.a import two\n\ndef f():\n    import litrec.b.three\n",
                      "a/two.py": "from litrec.b import (\n    four,\n    five as v,\n)\n",
                      "b/three.py": "x = 'from litrec.b import six'\n", "b/four.py": "",
                      "b/five.py": "", "b/six.py": ""}.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text, encoding="utf-8")
    assert cache.litrec_closure(["a/one"], pkg) == (
        "a/__init__", "a/one", "a/two", "b/__init__", "b/five", "b/four", "b/three")
    with pytest.raises(LookupError, match="no litrec module a/gone"):
        cache.litrec_closure(["a/gone"], pkg)
    before = cache.litrec_code_hash(cache.litrec_closure(["a/one"], pkg), pkg)
    (pkg / "b/five.py").write_text("y = 1\n", encoding="utf-8")  # reached only through a/two
    assert cache.litrec_code_hash(cache.litrec_closure(["a/one"], pkg), pkg) != before
