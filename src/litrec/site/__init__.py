"""The published site: pages generated from the records and `results/`, built by MkDocs Material.

- `pagedata`: what pages are made from (project, verdicts, results) and where pages live;
- `safe_markdown`: record text made safe for Markdown (raw HTML escaped, ids linked);
- `stored_html`: the pages' structure as HTML that Markdown stores untouched (fast at scale);
- `record_page`, `index_pages`, `graph_page`: the page generators (BibTeX from
  `litrec.bibtex.write`), with what they share: `claim_pieces` (verdict badges, outcome
  tables, provenance, link lists), `claim_history` (a claim's ledger), `reasons`, `plots`,
  `graph` and `mermaid` (the drawings);
- `build`: the docs folder (record pages rendered in parallel by `render`) and the build;
  `mkdocs_build`: `mkdocs build --strict`, sharded when large; `outdir`: the folders it may replace;
- `serve`: `litrec site serve`; `live`: its site, rebuilt page by page as the docs folder changes;
- `mdext`: the Markdown extension: stored HTML blocks, no `javascript:` links;
- `svg`: figures made safe to publish (no script, no event attributes).

MkDocs is imported only when a site is built or served.
"""
