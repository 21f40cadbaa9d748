"""The published site: pages generated from the records and `results/`, built by MkDocs Material.

- `data`: what pages are made from (project, verdicts, results) and where pages live;
- `text`: record text made safe for Markdown (raw HTML escaped, ids linked);
- `markup`: the pages' structure as HTML that Markdown stores untouched (fast at scale);
- `record_page`, `index_pages`, `graph`, `parts`: the page generators (BibTeX from
  `litrec.bibtex.write`);
- `build`: the docs folder (record pages rendered in parallel by `render`) and the build;
  `engine`: `mkdocs build --strict`, sharded when large;
- `serve`: `litrec site serve`; `live`: its site, rebuilt page by page as the docs folder changes;
- `mdext`: the Markdown extension: stored HTML blocks, no `javascript:` links;
- `svg`: figures made safe to publish (no script, no event attributes).

MkDocs is imported only when a site is built or served.
"""
