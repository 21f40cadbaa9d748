"""The project for other tools: `document` (the record graph as one JSON document, and the link
graph as DOT or Mermaid: `litrec export json`, `litrec graph`) and `tex` (claims' verdicts and
numbers as LaTeX macros: `litrec export tex`)."""
