"""Types of `litrec.results`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.results.fields import (
    json_line as json_line,
)
from litrec.results.ledger import (
    history_problems as history_problems,
    read_history as read_history,
)
from litrec.results.resume import (
    checkpoint_env as checkpoint_env,
    kept_summary as kept_summary,
)
from litrec.results.signing import (
    sign_results as sign_results,
    signature_state as signature_state,
    SigningError as SigningError,
    unsign as unsign,
)
from litrec.results.state import (
    check_profile as check_profile,
    modified_results as modified_results,
    result_state as result_state,
    result_states as result_states,
    ResultState as ResultState,
)
from litrec.results.store import (
    keep_elsewhere as keep_elsewhere,
    locked as locked,
    result_path as result_path,
    write_error_log as write_error_log,
    write_result as write_result,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
