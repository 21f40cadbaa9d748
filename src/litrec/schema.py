"""JSON Schemas of the record kinds, generated from the pydantic models.

Editors that speak the YAML language server protocol validate and complete a
record when its first line names the schema:

    # yaml-language-server: $schema=../../schema/literature.schema.json
"""

from __future__ import annotations

import json
from pathlib import Path

from litrec import model as m


def schema_for(kind: str) -> dict:
    schema = m.MODELS[kind].model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"litrec {kind} record"
    schema.setdefault("properties", {})["id"]["pattern"] = rf"^(?:{m.ID_PATTERNS[kind]})$"
    return schema


def schema_filename(kind: str) -> str:
    return f"{kind}.schema.json"


def write_schemas(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in m.KINDS:
        path = out / schema_filename(kind)
        text = json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        written.append(path)
    return written
