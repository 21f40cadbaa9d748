"""The published site: pages generated from the records and `results/`, built by MkDocs Material.

- `data`: what pages are made from (project, verdicts, results) and where pages live;
- `text`: record text made safe for Markdown (raw HTML escaped, ids linked);
- `markup`: the pages' structure as HTML that Markdown stores untouched (fast at scale);
- `record_page`, `index_pages`, `graph`, `parts`: the page generators (BibTeX from
  `litrec.bibtex`);
- `build`: the docs folder and `serve`; `engine`: `mkdocs build --strict`, sharded when large;
- `mdext`: the Markdown extension: stored HTML blocks, no `javascript:` links.

`cmd_site` is what `litrec site build|serve` calls; MkDocs is imported only then.
"""

from __future__ import annotations

import sys


def cmd_site(args) -> int:
    from litrec.cli import UsageError
    from litrec.site.build import SiteError, build_site, serve_site

    if args.site_command is None:
        raise UsageError("site needs an action: 'litrec site build' or 'litrec site serve'")
    if not args.records.is_dir():
        raise UsageError(f"records folder '{args.records}' does not exist")
    try:
        if args.site_command == "serve":
            serve_site(args.records, args.analysis, args.results, args.profile)
            return 0
        report = build_site(args.records, args.analysis, args.results, args.out, args.profile)
    except SiteError as exc:
        print(f"litrec site: error: {exc}", file=sys.stderr)
        return 1
    print(f"generated {report.pages} pages and {report.figures} figures from {report.records} "
          f"records in {report.generate_s:.1f} s; mkdocs build --strict: {report.mkdocs_s:.1f} s, "
          "no warnings", file=sys.stderr)
    if report.errors:
        n = len(report.errors)
        print(f"litrec site: the records have {n} error{'s' * (n != 1)} (listed on the home page; "
              "a record that fails its schema is left out); see `litrec validate`", file=sys.stderr)
    print(f"site built: {report.out / 'index.html'}")
    return 1 if report.errors else 0
