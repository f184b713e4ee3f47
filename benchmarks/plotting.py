"""The benchmarks' one kind of picture: lines against n on a log scale, saved as PNG."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"

Series = tuple[str, Sequence[int], Sequence[float], str]
"""(label, n values, y values, matplotlib style)."""


def log_plot(name: str, title: str, ylabel: str, series: Sequence[Series]) -> Path:
    """Draw every series against n on a log y axis to benchmarks/out/NAME.png."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    OUT.mkdir(exist_ok=True)
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for label, ns, values, style in series:
        axes.semilogy(list(ns), list(values), style, label=label)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("n")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    path = OUT / f"{name}.png"
    figure.savefig(path, dpi=120)
    plt.close(figure)
    print(f"plot: {path}")
    return path
