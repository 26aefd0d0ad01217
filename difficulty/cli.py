"""``dungeon-env``: difficulty testing from the command line, and ``dungeon-env play`` (see ``play.cli``).

    dungeon-env balance --adventure all --games 400 --out reports/example
    dungeon-env balance --set light.start=15 --until 0.02 --out reports/light15
    dungeon-env balance --variant examples/variants/tougher_orcs.toml \\
        --variant examples/variants/darker.toml --games 1000
    dungeon-env sweep --param light.start --values 10:25:5 --games 400 --out reports/light_sweep

``balance`` plays the base rules and each variant (``--set`` entries make one variant, each
``--variant FILE`` another) for every adventure × party × pairing; ``sweep`` plays one variant per
value of ``--param``. Both write report.md, report.json, timing.json and PNG plots into ``--out``.
Mistakes in the experiment (an unknown or ill-typed override key, an unknown adventure, hero or
agent) stop before any game is played, with exit code 2 and a message naming what is wrong.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from difficulty.console import play_experiment, whole_number
from difficulty.spec import BACKENDS, Experiment, SpecError, parse_agent
from difficulty.verdict import LADDER_EXAMPLE

EXECUTION_FLAGS = ("--workers", "--backend", "--ray-address", "--out", "--quiet", "--records")
_RANGE = re.compile(r"^(-?[\d.]+):(-?[\d.]+)(?::(-?[\d.]+))?$")


def _common(parser: argparse.ArgumentParser) -> None:
    game = parser.add_argument_group("what to play")
    game.add_argument(
        "--adventure",
        action="append",
        metavar="NAME",
        help="an adventure (repeatable), a path to an adventure file, or 'all' (default: flooded_cellar)",
    )
    game.add_argument(
        "--heroes",
        action="append",
        metavar="N|IDS",
        help="a party: a count (3-5, the roster's first heroes) or comma-separated hero ids; "
        "repeatable (default: 3)",
    )
    game.add_argument(
        "--heroes-agent",
        default="scripted",
        help="the heroes' agent (default: scripted, the latest version: the strongest heroes shipped)",
    )
    game.add_argument(
        "--dm-agent", default="scripted", help="the DM's agent (default: scripted, the latest version)"
    )
    game.add_argument(
        "--pairing",
        action="append",
        metavar="H:D",
        help="heroes_agent:dm_agent, repeatable (replaces --heroes-agent/--dm-agent); every pairing plays "
        "the same game indices, and pairings sharing one side's agent are compared game by game; agents "
        "(agents.spec): scripted (the latest version), scripted@v1, scripted@v2, random, runaway (the "
        "DM), search (the search v2; options in brackets, search[iterations=24]), search@v1[rollouts=8], "
        "policy:FILE.zip (a checkpoint of your own, greedy) or FILE.zip (sampled)",
    )
    game.add_argument(
        "--max-turns", type=whole_number(1, "turns"), default=100, help="turn cap of a game (default: 100)"
    )
    game.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule or content override, repeatable (light.start=15, monsters.orc.fight=3, "
        "heroes.bram.traits=+perceptive); see docs/VARIANTS.md",
    )
    count = parser.add_argument_group("how many games").add_mutually_exclusive_group()
    count.add_argument(
        "--games", type=whole_number(1, "games"), default=None, help="games per cell (default: 200)"
    )
    count.add_argument(
        "--until",
        type=float,
        metavar="X",
        help="play until the 95%% intervals of both of every cell's win rates are within ±X (e.g. 0.02)",
    )
    parser.add_argument(
        "--max-games",
        type=whole_number(1, "games"),
        default=20_000,
        help="cap per cell with --until (default: 20000)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0),
        default=0,
        help="game i of every cell uses seed SEED + i, 0 or more (default: 0)",
    )
    run = parser.add_argument_group("where to run")
    run.add_argument(
        "--workers",
        type=whole_number(1, "processes"),
        default=0,  # the experiment's "all cores"; the option itself takes 1 or more
        help="worker processes or Ray CPUs, 1 or more (default: all cores)",
    )
    run.add_argument("--backend", choices=BACKENDS, default="local", help="local processes, ray, or serial")
    run.add_argument(
        "--ray-address", default=None, help="Ray cluster to join (default: start a local instance)"
    )
    out = parser.add_argument_group("output")
    out.add_argument("--out", default="reports/balance", help="output directory (default: reports/balance)")
    out.add_argument("--records", action="store_true", help="also write games.jsonl (one record per game)")
    out.add_argument("--quiet", action="store_true", help="no progress bar and no summary")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dungeon-env",
        description="Difficulty testing for dungeon_env adventures (see docs/DIFFICULTY.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{balance,sweep,league,play}")
    balance = commands.add_parser(
        "balance",
        help="win rates and every metric per adventure × party × pairing × variant",
        description="Play the base rules and each variant; report both win rates (completed, and "
        "completed with every primary goal met) with 95%% Wilson intervals, how adventures end, hero "
        "deaths, per-hero and per-trait figures, monsters, checks.",
    )
    _common(balance)
    balance.add_argument(
        "--variant",
        dest="variant_files",
        action="append",
        default=[],
        metavar="FILE",
        help="a variant TOML file, repeatable",
    )
    balance.add_argument("--no-base", action="store_true", help="leave out the base rules (no comparisons)")
    balance.add_argument(
        "--ladder",
        metavar="H1,H2,...",
        help=f"a skill ladder: hero agents in order of rising strength (e.g. {LADDER_EXAMPLE}), each "
        "played against --dm-agent (replaces --heroes-agent; not with --pairing)",
    )
    sweep = commands.add_parser(
        "sweep",
        help="one parameter over a range of values, plotted as a curve with interval bands",
        description="Play one variant per value of --param (on top of any --set overrides).",
    )
    _common(sweep)
    sweep.add_argument("--param", required=True, help="the key to sweep, e.g. light.start")
    sweep.add_argument(
        "--values",
        action="append",
        required=True,
        help="START:STOP[:STEP] (inclusive), or comma-separated values; repeat it for values holding commas",
    )
    from difficulty.league import add_parser as add_league_parser
    from play.cli import add_parser as add_play_parser

    add_league_parser(commands)
    add_play_parser(commands)
    return parser


def sweep_values(items: Sequence[str]) -> list[Any]:
    """``["10:25:5"]`` → ``[10, 15, 20, 25]``; ``["1,2,4"]`` → ``[1, 2, 4]``; several items stay as given."""
    values: list[Any] = []
    for item in items:
        match = _RANGE.match(item.strip())
        if match:
            start, stop, step = (_number(x) for x in (match[1], match[2], match[3] or "1"))
            if step <= 0 or stop < start:
                raise SpecError(f"--values {item}: expected START:STOP:STEP with START <= STOP and STEP > 0")
            k, value = 0, start
            while value <= stop + 1e-9:
                values.append(value)
                k += 1
                value = start + k * step
                value = round(value, 10) if isinstance(value, float) else value
        elif len(items) == 1:
            values += [_number(v.strip(), keep=True) for v in item.split(",") if v.strip()]
        else:
            values.append(_number(item.strip(), keep=True))
    if not values:
        raise SpecError("--values: no values")
    return values


def _number(text: str, keep: bool = False) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            if keep:
                return text
            raise SpecError(f"not a number: {text!r}") from None


def ladder_agents(text: str) -> list[str]:
    """``"random,scripted@v1,search@v1[rollouts=8,depth=50]"`` → the three hero agent specs, in order (commas
    inside an agent's brackets stay with it); each checked for the heroes' side."""
    agents, depth, start = [], 0, 0
    for i, char in enumerate(text + ","):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            agents.append(text[start:i].strip())
            start = i + 1
    if not all(agents):
        raise SpecError(f"--ladder {text!r}: expected comma-separated hero agents, e.g. {LADDER_EXAMPLE}")
    specs = [parse_agent(agent, "heroes").to_json() for agent in agents]
    if len(set(specs)) != len(specs):
        raise SpecError(f"--ladder {text!r}: a hero agent appears twice")
    return agents


def experiment_of(args: argparse.Namespace) -> Experiment:
    """The experiment the arguments describe (variants are validated here)."""
    from dungeon_env.content.variants import Variant

    pairings = args.pairing or [f"{args.heroes_agent}:{args.dm_agent}"]
    if getattr(args, "ladder", None) is not None:
        if args.pairing:
            raise SpecError(
                "--ladder and --pairing do not go together: the ladder plays each of its hero "
                "agents against --dm-agent; give the pairings or the ladder"
            )
        pairings = [f"{heroes}:{args.dm_agent}" for heroes in ladder_agents(args.ladder)]
    common: dict[str, Any] = {
        "adventures": tuple(args.adventure or ()),
        "parties": tuple(args.heroes or (3,)),
        "pairings": tuple(pairings),
        "games": args.games if args.games is not None else 200,
        "until": args.until,
        "max_games": args.max_games,
        "seed": args.seed,
        "max_turns": args.max_turns,
        "workers": args.workers,
        "backend": args.backend,
        "ray_address": args.ray_address,
    }
    if args.command == "sweep":
        values = sweep_values(args.values)
        variants = [
            Variant.parse([*args.overrides, f"{args.param}={v}"], name=f"{args.param}={v}") for v in values
        ]
        names = [v.name for v in variants]
        return Experiment(
            variants=tuple(variants),
            sweep={"param": args.param, "values": values, "variants": names},
            **common,
        )
    variants: list[Any] = [] if args.no_base else [None]
    if args.overrides:
        variants.append(Variant.parse(args.overrides))
    variants += [Variant.from_file(path) for path in args.variant_files]
    if not variants:
        raise SpecError("--no-base needs at least one variant (--set or --variant)")
    return Experiment(variants=tuple(variants), **common)


def reproduce_command(argv: Sequence[str]) -> str:
    """The command line without the flags that only say where and how the games ran."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        flag = arg.split("=", 1)[0]
        if flag in EXECUTION_FLAGS:
            skip = "=" not in arg and flag not in ("--quiet", "--records")
            continue
        kept.append(arg)
    return "dungeon-env " + shlex.join(kept)


def _summary(report: dict, out: Path, timing: dict) -> str:
    from difficulty.pairings import summary_lines
    from difficulty.report import _win_table
    from difficulty.verdict import ladder_lines, verdict_lines

    lines = [
        *verdict_lines(report),
        *ladder_lines(report),
        "completed: every surviving hero left (goals met or not); completed with goals: with every "
        "primary goal met. Intervals: 95% Wilson.",
        "",
        *_win_table(report),
    ]
    for c in report["comparisons"]:
        parts = []
        for key, name in (("completed_with_goals", "completed with goals"), ("completed", "completed")):
            d = c[key]
            lo, hi = d["difference_ci"]
            parts.append(
                f"{name} {100 * d['difference']:+.1f} pts (paired 95% [{100 * lo:+.1f}, {100 * hi:+.1f}])"
            )
        lines.append(f"{c['label']} against base: " + "; ".join(parts))
    lines += summary_lines(report)
    lines.append(
        f"{timing['games_played']} games in {timing['seconds']:.1f} s ({timing['games_per_second']} games/s, "
        f"{timing['workers']} {timing['backend']} workers); report: {out / 'report.md'}"
    )
    plots = sorted(p.name for p in out.glob("*.png"))
    if plots:
        lines.append(f"plots: {', '.join(str(out / name) for name in plots)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``dungeon-env``: a bad spec, adventure, variant or backend exits 2 with a message naming it."""
    from difficulty.backends import BackendUnavailable

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args, argv, parser)
    except BackendUnavailable as error:
        parser.exit(2, f"dungeon-env {args.command}: error: {error}\n")


def _run(args: argparse.Namespace, argv: list[str], parser: argparse.ArgumentParser) -> int:
    from dungeon_env.content import ContentError, load_adventure
    from dungeon_env.content.variants import VariantError

    if args.command == "play":
        from play.cli import run as run_play

        return run_play(args, parser)
    if args.command == "league":
        from difficulty.league import run as run_league

        return run_league(args, parser)
    try:
        experiment = experiment_of(args)
        for adventure in experiment.adventures:  # a broken adventure file stops here, not in a worker
            load_adventure(adventure)
    except (SpecError, VariantError, ContentError) as error:
        parser.exit(2, f"dungeon-env {args.command}: error: {error}\n")
    from difficulty import report as report_module

    result = play_experiment(experiment, args.quiet)
    out = Path(args.out)
    report = report_module.write(result, out, command=reproduce_command(argv), records=args.records)
    if not args.quiet:
        print(_summary(report, out, report_module.timing(result)))
    else:
        print(out / "report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
