"""A MkDocs hook that `litrec site serve` loads: the hand-written pages in the nav, as in a build.

`litrec site build` adds every page of site/ that mkdocs.yml's nav does not
name to its Guide section (`engine.add_to_nav`). MkDocs' own server loads
the configuration again on every rebuild, so the same is done here, on each
load: a page added to site/ while serving joins the nav without a warning.
"""

from __future__ import annotations

from pathlib import Path

from litrec.site.engine import add_to_nav, page_title


def on_config(config):
    """Name each hand-written page of the docs folder in the nav (MkDocs calls this)."""
    site = Path(config.config_file_path).parent / "site"
    docs = Path(config.docs_dir)
    pages: dict[str, str] = {}
    for path in sorted(docs.rglob("*.md")):
        rel = path.relative_to(docs).as_posix()
        if rel != "index.md" and path.is_file() and (site / rel).is_file():
            pages[rel] = page_title(path.read_text(encoding="utf-8", errors="replace"), rel)
    add_to_nav(config.nav, pages)
    return config
