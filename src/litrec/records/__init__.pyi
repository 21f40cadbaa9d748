"""Types of `litrec.records`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.records.braces import (
    bibtex_unbalanced as bibtex_unbalanced,
    brace_parts as brace_parts,
    Unbalanced as Unbalanced,
)
from litrec.records.criteria import (
    base_claim as base_claim,
    criterion as criterion,
    EXTENSION as EXTENSION,
)
from litrec.records.expectation import (
    Expectation as Expectation,
)
from litrec.records.filecheck import (
    reading_of as reading_of,
)
from litrec.records.kinds import (
    ID_RE as ID_RE,
    KIND as KIND,
    KINDS as KINDS,
    page_of as page_of,
)
from litrec.records.load import (
    load_project as load_project,
    load_valid_project as load_valid_project,
)
from litrec.records.model import (
    RELATIONS as RELATIONS,
)
from litrec.records.newrecord import (
    display as display,
    existing_ids as existing_ids,
    new_record as new_record,
    record_path as record_path,
    schema_comment as schema_comment,
    today as today,
    write_new as write_new,
    write_replace as write_replace,
    yaml_scalar as yaml_scalar,
)
from litrec.records.operators import (
    COMPARISONS as COMPARISONS,
    Comparison as Comparison,
    OPERATORS as OPERATORS,
    Operator as Operator,
    operator as operator,
)
from litrec.records.placeholders import (
    prose_fields as prose_fields,
    scan_placeholders as scan_placeholders,
)
from litrec.records.project import (
    Edge as Edge,
    Project as Project,
)
from litrec.records.schema import (
    write_schemas as write_schemas,
)
from litrec.records.upgrade import (
    upgrade_records as upgrade_records,
)
from litrec.records.validate import (
    check_collection as check_collection,
    default_analysis_dir as default_analysis_dir,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
