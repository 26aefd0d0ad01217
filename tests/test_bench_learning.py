"""scripts/bench_learning.py runs end to end with a tiny budget (a smoke test, never a timing)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not importlib.util.find_spec("sb3_contrib"), reason="the training extra is not installed")
def test_bench_learning_prints_both_figures():
    done = subprocess.run(
        [sys.executable, "scripts/bench_learning.py", "--seconds", "0.5", "--steps", "16", "--n-steps", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for phase in ("env only", "MaskablePPO"):
        line = rf"^{phase}: +\d+ steps in +[\d.]+ s = +[\d.]+ steps/s"
        assert re.search(line, done.stdout, re.M), done.stdout
