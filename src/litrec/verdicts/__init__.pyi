"""Types of `litrec.verdicts`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.verdicts.cited import (
    cited_problems as cited_problems,
    rendered_fields as rendered_fields,
    StoredNumbers as StoredNumbers,
)
from litrec.verdicts.claims import (
    claim_statuses as claim_statuses,
    ClaimStatus as ClaimStatus,
    EXTENSION as EXTENSION,
    headline as headline,
    project_scales as project_scales,
    result_problems as result_problems,
    scales_of as scales_of,
    VERDICTS as VERDICTS,
    with_scales as with_scales,
)
from litrec.verdicts.change import (
    DIFF_TABLE as DIFF_TABLE,
    metric_table as metric_table,
)
from litrec.verdicts.diff import (
    compare as compare,
    notes as notes,
)
from litrec.verdicts.elsewhere import (
    duration_words as duration_words,
    Elsewhere as Elsewhere,
    said_once as said_once,
)
from litrec.verdicts.events import (
    how_judged as how_judged,
)
from litrec.verdicts.grid import (
    GRID_FORMATS as GRID_FORMATS,
    grid_text as grid_text,
    scale_rows as scale_rows,
)
from litrec.verdicts.judge import (
    deciding as deciding,
    get_metric as get_metric,
    JUDGED_VERDICTS as JUDGED_VERDICTS,
    leaning as leaning,
    Outcome as Outcome,
)
from litrec.verdicts.registration import (
    Registrations as Registrations,
)
from litrec.verdicts.report import (
    validation_report as validation_report,
)
from litrec.verdicts.rows import (
    claim_rows as claim_rows,
)
from litrec.verdicts.status import (
    by_result as by_result,
    first_scale as first_scale,
    headline_profile as headline_profile,
    judged_project as judged_project,
    on_other_machine as on_other_machine,
    rerun_under_way as rerun_under_way,
)
from litrec.verdicts.stored import (
    expectation_record as expectation_record,
    judged_in as judged_in,
)
from litrec.verdicts.suspect import (
    link_reviews as link_reviews,
    review_records as review_records,
    suspects as suspects,
)
from litrec.verdicts.summary import (
    Count as Count,
    counts_words as counts_words,
    is_papers as is_papers,
    tally as tally,
    Tally as Tally,
    tally_statuses as tally_statuses,
    tally_words as tally_words,
    verdict_counts as verdict_counts,
)
from litrec.verdicts.words import (
    mark as mark,
    STYLE as STYLE,
    threshold_words as threshold_words,
    word as word,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
