"""The names the site gives its generated pages in the sections where record and analysis
pages go (records/index.md, analyses/index.md): no record id or analysis name may take one."""

GENERATED_PAGE_NAMES = frozenset({"index"})
