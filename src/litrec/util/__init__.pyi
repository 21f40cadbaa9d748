"""Types of `litrec.util`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.util.faces import lazy_face as lazy_face
from litrec.util.atomic import (
    fresh_dir as fresh_dir,
    fresh_name as fresh_name,
    leftovers as leftovers,
    replace_file as replace_file,
    rewrite_file as rewrite_file,
    sync_dir as sync_dir,
    write_new as write_new,
)
from litrec.util.canonical import (
    canonical_digest as canonical_digest,
    canonical_json as canonical_json,
)
from litrec.util.confine import (
    check as check,
    MAX_RECORD_BYTES as MAX_RECORD_BYTES,
    need_dir as need_dir,
    project_root as project_root,
    prune_linked as prune_linked,
    read_file as read_file,
    read_regular as read_regular,
    Refused as Refused,
    TooLarge as TooLarge,
    walk as walk,
)
from litrec.util.cores import (
    usable_cores as usable_cores,
)
from litrec.util.diagnostics import (
    Diagnostic as Diagnostic,
    format_field as format_field,
    PathDisplay as PathDisplay,
    Severity as Severity,
)
from litrec.util.errors import (
    AnalysisExited as AnalysisExited,
    ContractError as ContractError,
    DamagedResult as DamagedResult,
    EncodingProblem as EncodingProblem,
    ExecutorError as ExecutorError,
    InputError as InputError,
    InputsChanged as InputsChanged,
    InvalidRecords as InvalidRecords,
    LitrecError as LitrecError,
    NotCreated as NotCreated,
    ProfileError as ProfileError,
    ResultsLocked as ResultsLocked,
    ResultsUnwritable as ResultsUnwritable,
    RunError as RunError,
    SiteError as SiteError,
    SweepError as SweepError,
    TargetError as TargetError,
    Unconvertible as Unconvertible,
    UndeclaredInput as UndeclaredInput,
    UsageError as UsageError,
)
from litrec.util.formatting import (
    excerpt as excerpt,
    fmt as fmt,
    shorten as shorten,
)
from litrec.util.lockfile import (
    acquire as acquire,
    release as release,
)
from litrec.util.gitinfo import (
    commit_of as commit_of,
    head_of as head_of,
    held_by_git as held_by_git,
    refs_of as refs_of,
)
from litrec.util.pagenames import (
    GENERATED_PAGE_NAMES as GENERATED_PAGE_NAMES,
)
from litrec.util.mend import (
    data_loc as data_loc,
    explain_error as explain_error,
    found as found,
    syntax_fix as syntax_fix,
)
from litrec.util.signers import (
    allowed_signers as allowed_signers,
    config_path as config_path,
    git_config as git_config,
    signers_key as signers_key,
)
from litrec.util.safetext import (
    raw_stream as raw_stream,
    safe_streams as safe_streams,
    safe_text as safe_text,
    strip_unsafe as strip_unsafe,
)
from litrec.util.settled import (
    file_unchanged as file_unchanged,
    read_record as read_record,
)
from litrec.util.tables import (
    csv_text as csv_text,
    markdown_table as markdown_table,
    terminal_table as terminal_table,
)
from litrec.util.yamlsafe import (
    LazyRoot as LazyRoot,
    load_bytes as load_bytes,
    locate as locate,
    MAX_BYTES as MAX_BYTES,
    YamlProblem as YamlProblem,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
