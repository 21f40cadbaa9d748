"""Figures of the prop3-token-building analysis (von Oswald et al., "Transformers learn
in-context by gradient descent", ICML 2023, §4, Figure 5): the training loss against one and
two GD steps, how the first layer copies (attention, selectivity, sensitivity and Figure 5's own
measure) over training, and the first layer's attention against the construction's."""
from matplotlib.figure import Figure


def loss_figure(m):
    h = m["training"]
    fig = Figure(figsize=(6, 3.8))
    ax = fig.subplots()
    ax.plot(h["step"], h["loss"], label="trained 2 layers (softmax, linear)")
    ax.plot(h["chunk_step"], h["train_loss"], alpha=0.35, label="training batches")
    ax.axhline(m["loss_gd1"], color="k", linestyle="--", label="1 step of GD")
    ax.axhline(m["loss_gd2"], color="C3", linestyle="--", label="2 steps of GD")
    ax.axhline(m["loss_zero"], color="grey", linestyle=":", label="zero prediction")
    ax.set_ylim(0.5 * m["loss_gd2"], 1.3 * m["loss_zero"])
    ax.set_xlabel("training step")
    ax.set_ylabel("loss")
    ax.set_title("separate input and target tokens")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def copy_figure(m):
    h = m["training"]
    fig = Figure(figsize=(15, 3.8))
    ax_a, ax_s, ax_f = fig.subplots(1, 3)
    for key, label in (("fig5_own", "own token"), ("fig5_next", "next token"), ("fig5_other", "other tokens")):
        ax_f.plot(h["step"], h[key], label=label)
    ax_f.set_xlabel("training step")
    ax_f.set_ylabel("|| mean d sum h1(e_k) / d e_t ||")
    ax_f.set_title("Figure 5's measure (the code's analyse_copy)")
    ax_f.legend(fontsize=8)
    ax_a.plot(h["step"], h["copy_attention"], label="x-token j -> its target token")
    ax_a.plot(h["step"], h["reverse_copy_attention"], label="target token j -> its x-token")
    ax_a.plot(h["step"], h["copy_selectivity"], label="own-target share of d h1(x_j)/d y")
    ax_a.set_ylim(0, 1.05)
    ax_a.set_xlabel("training step")
    ax_a.set_title("first layer: attention and selectivity")
    ax_a.legend(fontsize=8)
    ax_s.plot(h["step"], h["copy_sensitivity"], color="C3")
    ax_s.axhline(m["construction_copy_sensitivity"], color="k", linestyle="--", label="construction")
    ax_s.set_xlabel("training step")
    ax_s.set_ylabel("||d h1(x-token j) / d y_j||")
    ax_s.set_title("copy sensitivity")
    ax_s.legend(fontsize=8)
    fig.tight_layout()
    return fig


def attention_figure(A_trained, A_built):
    fig = Figure(figsize=(10, 4.2))
    axes = fig.subplots(1, 2)
    labels = [f"{'x' if t % 2 == 0 else 'y'}{t // 2 + 1}" for t in range(A_built.shape[1])]
    for ax, A, title in ((axes[0], A_trained, "trained first layer"),
                         (axes[1], A_built, "construction")):
        im = ax.imshow(A, cmap="viridis", vmin=0.0, vmax=1.0)
        ax.set_xticks(range(len(labels)), labels, fontsize=6, rotation=90)
        ax.set_yticks(range(len(labels) + 1), labels + ["query"], fontsize=6)
        ax.set_xlabel("key (context token)")
        ax.set_ylabel("token (query of the attention)")
        ax.set_title(f"{title}: softmax weights, one task", fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.8)
    fig.tight_layout()
    return fig
