"""Figures of the deeper-gdpp analysis (von Oswald et al., "Transformers learn in-context
by gradient descent", ICML 2023, §3, Figure 3): training curves against the GD and
GD++ levels, alignment over training, and one curve per seed."""
from matplotlib.figure import Figure

from analysis.lib import seeds as seed_lib


def loss_figure(out, config):
    """Training loss per depth against its GD and GD++ levels."""
    fig = Figure(figsize=(5 * len(config.depths), 3.8))
    axes = fig.subplots(1, len(config.depths), squeeze=False)
    for ax, depth in zip(axes[0], config.depths):
        m = out[f"k{depth.K}"]
        h = m["training"]
        ax.plot(h["step"], h["loss_trained"], label="trained LSA" + (" (separate layers)" if depth.separate else " (recurrent)"))
        ax.plot(h["chunk_step"], h["train_loss"], alpha=0.35, label="training batches")
        ax.axhline(m["loss_gd"], color="k", linestyle="--", label=f"{depth.K} steps of GD")
        ax.axhline(m["loss_gd_shared_eta"], color="grey", linestyle=":", label="GD, one shared eta")
        ax.axhline(m["loss_gdpp"], color="C3", linestyle="--", label="GD++, per-step eta, gamma")
        ax.axhline(m["loss_gdpp_shared"], color="C2", linestyle="-.", label="GD++, shared eta, gamma")
        ax.set_yscale("log")
        ax.set_xlabel("training step")
        ax.set_ylabel("loss")
        ax.set_title(f"K = {depth.K}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def alignment_figure(out, config):
    """Cosine and model diff against GD and GD++ over training, per depth."""
    fig = Figure(figsize=(5 * len(config.depths), 6))
    axes = fig.subplots(2, len(config.depths), squeeze=False)
    for col, depth in enumerate(config.depths):
        h = out[f"k{depth.K}"]["training"]
        ax_cos, ax_md = axes[0, col], axes[1, col]
        for name, label, color in (("gd", "GD", "k"), ("gdpp", "GD++ per step", "C3"),
                                   ("gdpp_shared", "GD++ shared", "C2")):
            ax_cos.plot(h["step"], h[f"cos_vs_{name}"], color=color, label=f"vs {label}")
            ax_md.plot(h["step"], h[f"model_diff_vs_{name}"], color=color, label=f"vs {label}")
        ax_cos.set_ylim(0.5, 1.02)
        ax_cos.set_ylabel("cosine of sensitivities")
        ax_cos.set_title(f"trained LSA, K = {depth.K}")
        ax_md.set_ylabel("model diff")
        ax_md.set_ylim(bottom=0)
        for ax in (ax_cos, ax_md):
            ax.set_xlabel("training step")
            ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def seed_figures(points: list[dict]) -> dict:
    """Every seed's training curve per depth (dotted: that seed's GD++ matched to the model's tying)."""
    depths = sorted(k for k in points[0]["metrics"] if k.startswith("k") and isinstance(points[0]["metrics"][k], dict))
    return {"seeds_training": seed_lib.seed_curves(points, [
        (f"{name}: trained loss on curve tasks (dotted: GD++ {points[0]['metrics'][name]['comparator']})",
         lambda m, name=name: (m[name]["training"]["step"], m[name]["training"]["loss_trained"],
                               m[name]["loss_gdpp_matched"]))
        for name in depths])}
