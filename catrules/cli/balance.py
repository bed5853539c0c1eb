"""The ``catrules balance`` command: the balance lab's report from the command line.

:func:`cmd_balance` checks the arguments as ``catrules simulate`` does (players, options,
bots, ``--jobs``), runs :func:`catrules.lab.balance.balance` with a progress bar on a terminal,
writes the JSON and the HTML report (:mod:`catrules.lab.report`) and prints the
verdicts.  Its options and help are in :mod:`catrules.cli.parser`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from . import (SEATS_HINT, Failure, UsageError, _check_bot_specs, _check_budget, _err, _is_human, _load, _options, _players, _progress_bar, _run_games, _split_specs)


def _outputs(args, game) -> tuple:
    """``(html, json)`` paths: ``--output`` (default ``<game>-balance.html`` here) and the JSON beside it."""
    html = Path(args.output) if args.output else Path(f"{Path(args.game).stem}-balance.html")
    if html.suffix.lower() == ".json":
        raise UsageError(f"--output {html} names the HTML report", "the JSON is written beside it, with .json")
    return html, html.with_suffix(".json")


def cmd_balance(args) -> int:
    from ..lab.balance import BalanceError, balance
    from ..lab.parallel import ParallelError
    game = _load(args.game)
    players = _players(game, args.players)
    options = _options(game, args.option)
    compare = None
    if args.compare is not None:
        named = _options(game, [args.compare])
        if len(named) != 1:
            raise UsageError("--compare takes one option", "compare one option at a time")
        compare = named[0]
        if compare in options:
            raise UsageError(f"--compare {compare} is also given with --option",
                             "the games are played without it and with it: leave it out of --option")
    bots = _split_specs(args.bots) or ["random"]
    if any(_is_human(s) for s in bots):
        raise UsageError("the balance lab is played by bots only", SEATS_HINT)
    _check_bot_specs(bots)
    if len(bots) not in (1, players):
        raise UsageError(f"{len(bots)} bots for {players} players", "give one bot for everyone or one per player")
    if args.games < 1:
        raise UsageError("--games must be 1 or more", "10,000 games give intervals of about ±1 point")
    if args.skill_games < 0:
        raise UsageError("--skill-games must be 0 or more", "0 leaves out the skill games")
    _check_budget(args)
    html_path, json_path = _outputs(args, game)

    total = (args.games + args.skill_games) * (2 if compare else 1)
    bar, progress = _progress_bar("balance", total)
    result = _run_games(bar, lambda: balance(
        game, players, args.games, args.seed, bots=bots[0] if len(bots) == 1 else bots, options=options,
        compare_option=compare, skill_games=args.skill_games, max_decisions=args.max_decisions,
        jobs=args.jobs, progress=progress), (BalanceError, ParallelError))
    if result is None:
        return 130
    data = result.to_dict()
    data["path"] = args.game                # as the user named it: the report's command line
    print(_summary(data))
    return _write(args, data, html_path, json_path, result.elapsed)


def _summary(data: dict) -> str:
    bots = ", ".join(sorted(set(data["bots"])))
    opts = ", ".join(data["options"]) or "none"
    head = (f"{data['game']}: {data['games']:,} games, {data['players']} players, {bots} bots, "
            f"seed {data['seed']}, options: {opts}")
    if data["compare"]:
        head += f", compared with {data['compare']}"
    lines = textwrap.wrap(head, 80)
    for v in data["verdicts"]:
        lines += textwrap.wrap(v, 80, initial_indent="- ", subsequent_indent="  ")
    return "\n".join(lines)


def _write(args, data: dict, html_path: Path, json_path: Path, elapsed: float) -> int:
    from ..lab.report import ReportError, to_json, write_report
    try:
        if args.json_only:
            json_path.write_text(to_json(data), encoding="utf-8")
            written = [str(json_path)]
        else:
            written = write_report(data, html_path, json_path, args.figures)
    except ReportError as exc:
        _err(f"{exc.message}: wrote {json_path} only", exc.hint + "; or give --json-only")
        return 1
    except OSError as exc:
        raise Failure(f"cannot write {exc.filename or html_path}: {exc.strerror or exc}",
                      "give a file in a folder you can write to with --output") from None
    print("wrote " + ", ".join(written[:2]) + (f" and {len(written) - 2} PNG files" if len(written) > 2 else ""))
    print(f"time: {elapsed:.1f} s")
    return 0
