"""Export a trained checkpoint as a small file to keep: the weights in float16, no optimizer state.

    python -m training.export runs/<run>/checkpoints/heroes_600000_steps.zip --out runs/<run>/heroes_small.zip

A training checkpoint carries Adam's two moment estimates per weight (three times the weights'
size) and float32 weights; a policy kept to play needs neither. ``MaskablePPO.load`` reads the result as
usual (the float16 weights are copied into the float32 network); the action logits move by about
1e-3 of their size, so evaluate the exported file, not the checkpoint, before you keep it.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def export(checkpoint: str | Path, out: str | Path) -> Path:
    """Write ``checkpoint`` to ``out`` with float16 weights and a fresh optimizer; returns ``out``."""
    import torch
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(checkpoint), device="cpu")
    policy = model.policy
    with torch.no_grad():
        for parameter in policy.parameters():
            parameter.data = parameter.data.half()
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=1e-4, **policy.optimizer_kwargs)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return out


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="a MaskablePPO .zip saved during training")
    parser.add_argument("--out", required=True, help="where to write the small file")
    args = parser.parse_args(argv)
    if not Path(args.checkpoint).is_file():
        raise SystemExit(f"no checkpoint at {args.checkpoint}")
    out = export(args.checkpoint, args.out)
    before, after = Path(args.checkpoint).stat().st_size, out.stat().st_size
    print(f"{args.checkpoint} ({before / 1e6:.1f} MB) -> {out} ({after / 1e6:.1f} MB)")
    return out


if __name__ == "__main__":
    main()
