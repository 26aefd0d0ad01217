"""Record the observation layout of an older commit, for policies trained on it (agents/obs_layout.py).

    git worktree add /tmp/layout_v0 2df847b
    PYTHONPATH=/tmp/layout_v0 python scripts/record_layout.py 2df847b agents/policies/layout_2df847b.json
    git worktree remove /tmp/layout_v0

The observation module and the action table come from PYTHONPATH (the old checkout); the layout
description is this checkout's ``agents/obs_layout.py``, loaded by path so that the old
``dungeon_env`` is the one described.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit("usage: record_layout.py COMMIT OUT.json (PYTHONPATH: the commit's checkout)")
    commit, out = argv
    spec = importlib.util.spec_from_file_location("obs_layout", HERE / "agents" / "obs_layout.py")
    obs_layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(obs_layout)
    from dungeon_env import observation
    from dungeon_env.engine import actions

    print(f"describing {observation.__file__}", file=sys.stderr)
    layout = obs_layout.describe(observation, actions, commit=commit)
    Path(out).write_text(json.dumps(layout, separators=(",", ":")) + "\n")
    print(f"{out}: {layout['size']} floats, {len(layout['actions'])} actions", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
