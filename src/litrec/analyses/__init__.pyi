"""Types of `litrec.analyses`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.analyses.analysisimport import (
    compiled_sources as compiled_sources,
    expecting as expecting,
    load_analysis as load_analysis,
)
from litrec.analyses.contract import (
    bound_names as bound_names,
    check_figure_names as check_figure_names,
    check_module as check_module,
    check_output as check_output,
    check_seed_outputs as check_seed_outputs,
    declares as declares,
    FIGURE_NAME_FIX as FIGURE_NAME_FIX,
    figure_name_problem as figure_name_problem,
    source_problems as source_problems,
)
from litrec.analyses.datafiles import (
    data_files as data_files,
    watch_paths as watch_paths,
)
from litrec.analyses.environ import (
    cleaned as cleaned,
    replace_environ as replace_environ,
)
from litrec.analyses.inputs import (
    Inputs as Inputs,
    interpreter as interpreter,
    is_numeric_variable as is_numeric_variable,
    machine_cores as machine_cores,
    machine_isa as machine_isa,
    module_imports as module_imports,
    numeric_env as numeric_env,
    RESULT_FORMAT as RESULT_FORMAT,
    result_inputs as result_inputs,
)
from litrec.analyses.machine import (
    device_info as device_info,
    platform_info as platform_info,
)
from litrec.analyses.memo import (
    data_now as data_now,
    memo_key as memo_key,
)
from litrec.analyses.observe import (
    check as check,
    named_when_it_fails as named_when_it_fails,
    observing as observing,
    refusal as refusal,
)
from litrec.analyses.packages import (
    dependency_versions as dependency_versions,
    editable_places as editable_places,
    JAX_IMPORTS as JAX_IMPORTS,
    package_versions as package_versions,
)
from litrec.analyses.registry import (
    Entry as Entry,
    load_registry as load_registry,
    Registry as Registry,
)
from litrec.analyses.scales import (
    FALLBACK as FALLBACK,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
