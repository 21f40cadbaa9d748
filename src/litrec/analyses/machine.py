"""The machine a result was computed on, for its provenance.

Float32 results of a JAX analysis are bit-identical from run to run on one
machine with the same cores at its disposal, under any load, but two machine
facts change their last digits:

- the instruction set: XLA compiles for the host CPU's, so on a CPU with other
  vector features the same code rounds differently;
- the number of cores the process may run on (its CPU affinity), which XLA
  sizes its thread pool by (its larger sums are then likely split across the
  threads). Measured by `bench/cores_digits.py` (20 steps of each paper-scale
  training at its `paper_full` settings, one core against two): Proposition 2's
  MLP + LSA training gives other float32 digits on one core (its curve
  0.02286115289 against 0.02286115475, and `model_diff`), and a long training
  carries such a difference on into its result; deeper-gdpp's and Proposition
  3's trainings, Proposition 1 and single-layer-lsa were identical.

A result therefore records the CPU's model, the instruction-set features that
change what XLA emits, the cores it could use, and any `XLA_FLAGS` it ran
under; the instruction set and the cores are among its inputs
(`litrec.analyses.inputs`).
"""

from __future__ import annotations

import os
import platform

from litrec.util.cores import usable_cores


def platform_info() -> dict:
    """The machine a point ran on, for provenance."""
    return {
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "processor": cpu_model(),
        "isa": cpu_isa(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "cores": usable_cores(),
        **({"xla_flags": os.environ["XLA_FLAGS"]} if os.environ.get("XLA_FLAGS") else {}),
    }


# The CPU features that change what XLA compiles on a CPU, hence float32 round-off:
# vector width and fused multiply-add. Measured on prop1-identity and single-layer-lsa:
# the same run gives bit-identical metrics under load and on one core or two, but
# compiled for AVX or SSE4.2 instead of AVX2 its float32 figures move in the 7th digit.
ISA_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_bf16",
             "avx512_fp16", "amx_tile", "asimd", "sve", "sve2")


def cpu_isa(cpuinfo: str | None = None) -> list[str]:
    """The CPU's instruction-set features among `ISA_FLAGS`, from /proc/cpuinfo's flags."""
    if cpuinfo is None:
        cpuinfo = _cpuinfo()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            have = set(value.split())
            return [f for f in ISA_FLAGS if f in have]
    return []


def _cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            return fh.read(65536)
    except OSError:
        return ""


def cpu_model(cpuinfo: str | None = None) -> str:
    """The CPU's model name: Linux's /proc/cpuinfo `model name`, else `platform.processor()`."""
    if cpuinfo is None:
        cpuinfo = _cpuinfo()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "cpu model") and value.strip():
            return " ".join(value.split())
    return platform.processor()


def device_info(uses_jax: bool) -> dict:
    """The JAX backend and devices when the analysis imports JAX; the CPU otherwise.

    Whether it does is read from its fingerprint (the packages it imports), not
    from what happens to be loaded, so the same analysis records the same device
    here and in a worker; one that imports NumPy alone never pays for JAX.
    """
    if not uses_jax:
        return {"platform": "cpu", "devices": []}
    import jax

    return {"platform": jax.default_backend(), "devices": [str(d.device_kind) for d in jax.devices()]}


def other_cpu(result: dict, was, now: list | None) -> str:
    """Why a result of another CPU is stale here, in words: which features differ (or that the
    instruction set is no longer one of its inputs: its analysis stopped importing what
    computes with floats, e.g. JAX)."""
    if not isinstance(was, list):
        return f"instruction set not recorded (here: {isa_text(now)})"
    if not isinstance(now, list):
        return ("its analysis no longer imports a numerics package, so the instruction set it "
                "recorded is no longer one of its inputs")
    plat = result.get("platform")
    cpu = str(plat.get("processor") or "") if isinstance(plat, dict) else ""
    there = [f for f in was if f not in now]
    here = [f for f in now if f not in was]
    diff = "; ".join(p for p in (f"{' '.join(map(str, there))} not here" if there else "",
                                 f"{' '.join(here)} only here" if here else "") if p)
    return (f"computed on another CPU, rerun it here (float32 digits differ between CPUs; "
            f"{cpu + ': ' if cpu else ''}{diff or 'other features'})")


def other_cores(was, now) -> str:
    """Why a result computed with another number of usable cores is stale here, in words."""
    return (f"computed with {was if was is not None else 'an unrecorded number of'} usable cores, "
            f"here {now}: rerun it here (XLA splits its sums by the cores, so float32 digits differ)")


def isa_text(isa) -> str:
    """An instruction set as a result records it, in words."""
    return "(not recorded)" if not isinstance(isa, list) else " ".join(map(str, isa)) or "(none)"
