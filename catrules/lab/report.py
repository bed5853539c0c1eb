"""The balance lab's report: the figures of :mod:`catrules.lab.balance` as plots, tables and words.

:func:`write_report` writes one self-contained HTML file (the plots are PNG images embedded
as base64, so the file can be mailed or attached alone) and the JSON of the figures beside
it.  Everything drawn comes from the JSON data (:meth:`catrules.lab.balance.BalanceResult.to_dict`)
alone, so a report can be drawn again from a saved JSON file; nothing in the HTML depends
on the time (the JSON's ``timing`` is not shown), so the same seed gives the same bytes.

The plots need matplotlib (``pip install 'catrules[balance]'``), imported only here and only
when a report is drawn, with the Agg backend (no display needed).  Without it
:func:`plots` raises :class:`ReportError` with that hint, and the command still writes the JSON.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Optional

from ..errors import CatrulesError

INSTALL_HINT = "install matplotlib with: pip install 'catrules[balance]'"
#: The plots' size in inches and their resolution: 800 x 400 pixels.
SIZE = (8.0, 4.0)
DPI = 100
COLOURS = ("#3b6ea8", "#d9822b")


class ReportError(CatrulesError):
    """The report cannot be drawn (no matplotlib); ``hint`` says how to get it."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ReportError("the report's plots need matplotlib, which is not installed", INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def labels(data: dict) -> list:
    """The name of each condition: ``without X`` / ``with X`` with --compare, else the options."""
    if data.get("conditions"):
        return list(data["conditions"])
    if data.get("compare"):
        return [f"without {data['compare']}", f"with {data['compare']}"]
    return ["options: " + (", ".join(data["options"]) or "none")]


def command(data: dict) -> str:
    """The command line that gives this report."""
    bots = data["bots"]
    rows = (data.get("sweep") or {}).get("rows") or []
    counts = sorted({r["players"] for r in rows})
    players = ",".join(map(str, counts)) if len(counts) > 1 else str(data["players"])
    parts = ["catrules", "balance", data["path"], "--players", players, "--games",
             str(data["games"]), "--seed", str(data["seed"])]
    if set(bots) != {"random"}:
        parts += ["--bots", bots[0] if len(set(bots)) == 1 else ",".join(bots)]
    for o in data["options"]:
        parts += ["--option", o]
    if data.get("compare"):
        parts += ["--compare", data["compare"]]
    if (data.get("sweep") or {}).get("option"):
        parts += ["--sweep", data["sweep"]["option"]]
    elif len(counts) == 1 and len(rows) == 2:
        parts += ["--sweep", [o for o in rows[1]["options"] if o not in rows[0]["options"]][0]]
    parts += ["--skill-games", str(data["skill_games"])]
    return " ".join(parts)


# ================================================================== plots

def _png(fig, plt) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return out.getvalue()


def _offsets(k: int) -> list:
    return [0.0] if k == 1 else [-0.2, 0.2]


def _errors(rows: list) -> list:
    return [[max(0.0, r["rate"] - r["low"]) for r in rows], [max(0.0, r["high"] - r["rate"]) for r in rows]]


def plot_wins(plt, data: dict) -> bytes:
    fig, ax = plt.subplots(figsize=SIZE, layout="constrained")
    res = data["results"]
    names = [f"seat {s['seat']}" for s in res[0]["wins"]["seats"]] + ["first player"]
    for c, (r, off, lab) in enumerate(zip(res, _offsets(len(res)), labels(data))):
        rows = list(r["wins"]["seats"]) + ([r["first_player"]] if r["first_player"] else [])
        xs = [i + off for i in range(len(rows))]
        width = 0.8 / len(res)
        bars = ax.bar(xs, [x["rate"] for x in rows], width, yerr=_errors(rows), capsize=4, color=COLOURS[c],
                      label=lab)
        if r["first_player"]:
            bars[-1].set_hatch("//")
            bars[-1].set_edgecolor("white")
        ax.hlines(r["fair_share"], -0.5, len(names) - 0.5, colors=COLOURS[c], linestyles="dashed", linewidth=1)
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title("Wins per seat; dashed: the fair share")
    ax.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    if len(res) > 1:
        ax.legend(loc="lower right", fontsize="small")
    return _png(fig, plt)


def plot_scores(plt, data: dict) -> bytes:
    fig, ax = plt.subplots(figsize=SIZE, layout="constrained")
    res = data["results"]
    for c, (r, off, lab) in enumerate(zip(res, _offsets(len(res)), labels(data))):
        stats = [{"med": s["median"], "q1": s["p25"], "q3": s["p75"], "whislo": s["p5"], "whishi": s["p95"],
                  "mean": s["mean"], "fliers": [], "label": f"seat {s['seat']}"} for s in r["scores"]["total"]]
        ax.bxp(stats, positions=[i + 1 + off for i in range(len(stats))], widths=0.7 / len(res),
               showmeans=True, patch_artist=True,
               boxprops={"facecolor": COLOURS[c], "alpha": 0.6}, medianprops={"color": "black"},
               meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black"})
        ax.plot([], [], color=COLOURS[c], linewidth=8, alpha=0.6, label=lab)
    n = len(res[0]["scores"]["total"])
    ax.set_xticks(range(1, n + 1), [f"seat {i + 1}" for i in range(n)])
    ax.set_ylabel("total score")
    ax.set_title("Total scores: box 25-75%, whiskers 5-95%, line median, diamond mean")
    if len(res) > 1:
        ax.legend(loc="best", fontsize="small")
    return _png(fig, plt)


def plot_items(plt, data: dict) -> Optional[bytes]:
    res = data["results"]
    names = []
    for r in res:
        names += [i["name"] for i in r["scores"]["items"] if i["name"] not in names and i["per_player"]["games"]]
    if not names:
        return None
    fig, ax = plt.subplots(figsize=SIZE, layout="constrained")
    if len(res) == 1:
        items = {i["name"]: i for i in res[0]["scores"]["items"]}
        seats = len(res[0]["wins"]["seats"])
        width = 0.8 / seats
        cmap = plt.get_cmap("tab10")
        for p in range(seats):
            rows = [items[n]["seats"][p] for n in names]
            xs = [k - 0.4 + width * (p + 0.5) for k in range(len(names))]
            ax.bar(xs, [x["mean"] for x in rows], width, color=cmap(p % 10), label=f"seat {p + 1}",
                   yerr=[[x["mean"] - x["low"] for x in rows], [x["high"] - x["mean"] for x in rows]], capsize=2)
    else:
        for c, (r, off, lab) in enumerate(zip(res, _offsets(2), labels(data))):
            items = {i["name"]: i["per_player"] for i in r["scores"]["items"]}
            rows = [items.get(n, {"mean": 0, "low": 0, "high": 0}) for n in names]
            ax.bar([k + off for k in range(len(names))], [x["mean"] for x in rows], 0.4, color=COLOURS[c], label=lab,
                   yerr=[[x["mean"] - x["low"] for x in rows], [x["high"] - x["mean"] for x in rows]], capsize=3)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(names)), names, rotation=20 if len(names) > 5 else 0)
    ax.set_ylabel("mean per game (95% interval)")
    ax.set_title("Score items" + (" per seat" if len(res) == 1 else " per player"))
    ax.legend(loc="best", fontsize="small")
    return _png(fig, plt)


def _hist(ax, h: dict, colour, label: str, games: int) -> None:
    edges, counts = h["edges"], h["counts"]
    if not counts:
        return
    share = [c / games for c in counts] if games else counts
    ax.stairs(share, edges, fill=True, alpha=0.45, color=colour, label=label)
    ax.stairs(share, edges, color=colour)


def plot_length(plt, data: dict) -> bytes:
    fig, ax = plt.subplots(figsize=SIZE, layout="constrained")
    for c, (r, lab) in enumerate(zip(data["results"], labels(data))):
        d = r["length"]["decisions"]
        name = f"{lab}: median {d['median']:g}" if len(data["results"]) > 1 else f"median {d['median']:g}"
        _hist(ax, d["histogram"], COLOURS[c], name, d["games"])
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    ax.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    ax.legend(loc="best", fontsize="small")
    return _png(fig, plt)


def plot_drama(plt, data: dict) -> Optional[bytes]:
    res = [r for r in data["results"] if r["drama"]]
    if not res:
        return None
    fig, (a1, a2) = plt.subplots(1, 2, figsize=SIZE, layout="constrained")
    for c, (r, lab) in enumerate(zip(data["results"], labels(data))):
        dr = r["drama"]
        if not dr:
            continue
        pts = [x for x in dr["leader_wins"] if x["games"]]
        xs = [x["fraction"] for x in pts]
        a1.plot(xs, [x["rate"] for x in pts], marker="o", color=COLOURS[c], label=lab)
        a1.fill_between(xs, [x["low"] for x in pts], [x["high"] for x in pts], color=COLOURS[c], alpha=0.2)
        a1.axhline(r["fair_share"], color=COLOURS[c], linestyle="dashed", linewidth=1)
        _hist(a2, dr["lead_changes"]["histogram"], COLOURS[c], lab, dr["lead_changes"]["games"])
    a1.axvline(2 / 3, color="grey", linewidth=0.8)
    a1.set_ylim(0, 1.02)
    a1.set_xlabel("fraction of the game's decisions")
    a1.set_ylabel("the leader then wins")
    a1.set_title("Decisiveness (dashed: a lead worth nothing)", fontsize="medium")
    a1.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    a1.xaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    a2.set_xlabel("lead changes in a game")
    a2.set_ylabel("share of games")
    a2.set_title("Lead changes (drama)", fontsize="medium")
    a2.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    if len(res) > 1:
        a1.legend(loc="lower right", fontsize="small")
    return _png(fig, plt)


def plot_skill(plt, data: dict) -> Optional[bytes]:
    res = data["results"]
    if not any(r["skill"] for r in res):
        return None
    fig, ax = plt.subplots(figsize=SIZE, layout="constrained")
    seats = len(res[0]["wins"]["seats"])
    names = ["all seats"] + [f"at seat {p + 1}" for p in range(seats)]
    for c, (r, off, lab) in enumerate(zip(res, _offsets(len(res)), labels(data))):
        sk = r["skill"]
        if not sk:
            continue
        from .stats import wilson
        rows = [{"rate": sk["rate"], "low": sk["low"], "high": sk["high"]}]
        for s in sk["by_seat"]:
            lo, hi = wilson(s["wins"], s["games"])
            rows.append({"rate": s["wins"] / s["games"] if s["games"] else 0.0, "low": lo, "high": hi})
        ax.bar([i + off for i in range(len(rows))], [x["rate"] for x in rows], 0.8 / len(res), yerr=_errors(rows),
               capsize=4, color=COLOURS[c], label=lab)
        ax.hlines(sk["fair_share"], -0.5, len(names) - 0.5, colors=COLOURS[c], linestyles="dashed", linewidth=1)
    sk = next(r["skill"] for r in res if r["skill"])
    ax.set_xticks(range(len(names)), names)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(f"Skill: one {sk['strong']} bot against {sk['weak']} bots; dashed: the fair share")
    ax.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    if len(res) > 1:
        ax.legend(loc="upper right", fontsize="small")
    return _png(fig, plt)


def plot_compare(plt, data: dict) -> Optional[bytes]:
    comp = data.get("comparison")
    if not comp or not comp["effects"]:
        return None
    props = [e for e in comp["effects"] if e["unit"] == "proportion"]
    means = [e for e in comp["effects"] if e["unit"] == "mean" and e["without"]]
    tall = max(len(props), len(means))
    fig, axes = plt.subplots(1, 2, figsize=(SIZE[0] + 3, max(SIZE[1], 0.32 * tall + 1.2)), layout="constrained")
    for ax, rows, scale, unit in ((axes[0], props, 100.0, "difference in points"),
                                  (axes[1], means, None, "difference in % of the value without")):
        ys = list(range(len(rows)))[::-1]
        for y, e in zip(ys, rows):
            k = scale if scale else 100.0 / abs(e["without"])
            colour = COLOURS[1] if e["clear"] else "grey"
            ax.errorbar(e["difference"] * k, y, xerr=[[(e["difference"] - e["low"]) * k],
                                                      [(e["high"] - e["difference"]) * k]],
                        fmt="o", color=colour, capsize=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(ys, [e["label"] for e in rows], fontsize="small")
        ax.set_xlabel(unit)
    axes[0].set_title("Rates", fontsize="medium")
    axes[1].set_title("Means", fontsize="medium")
    fig.suptitle(f"The effect of {comp['option']} (95% intervals; orange: clear)")
    return _png(fig, plt)


#: The report's sections: (name, title, plot function).
SECTIONS = (("wins", "Fairness: wins per seat and the first player", plot_wins),
            ("scores", "Scores per seat", plot_scores),
            ("items", "Score items", plot_items),
            ("length", "Game length", plot_length),
            ("drama", "Drama and decisiveness", plot_drama),
            ("skill", "Skill versus luck", plot_skill),
            ("compare", "The effect of the option", plot_compare),
            ("choices", "Choices", lambda plt, data: None),
            ("sweep", "The sweep", lambda plt, data: None))


def plots(data: dict) -> dict:
    """``{name: PNG bytes}`` of every plot that has data (raises :class:`ReportError` without matplotlib)."""
    plt = _pyplot()
    if data.get("sweep"):           # the sweep has its own plot (plot_sweep): here its first condition
        data = dict(data, results=data["results"][:1], conditions=labels(data)[:1], comparison=None)
    with plt.rc_context({"font.size": 10, "svg.hashsalt": "catrules"}):
        out = {}
        for name, _title, fn in SECTIONS:
            png = fn(plt, data)
            if png is not None:
                out[name] = png
    return out


# ================================================================== HTML

def _e(x) -> str:
    return html.escape(str(x))


def _pc(x) -> str:
    return f"{x * 100:.1f}%"


def _gap(sk: dict) -> str:
    """The skill ladder's rating gap of the skill games, a paragraph (none in an older JSON)."""
    g = sk.get("rating_gap")
    if not g:
        return ""
    return (f"<p>on the skill ladder {_e(sk['strong'])} rates {g['elo']:+.0f} Elo above {_e(sk['weak'])} "
            f"(95% interval {g['elo_low']:+.0f} to {g['elo_high']:+.0f}; {_e(g['method'])})</p>")


def _ci(row: dict, pct: bool = True) -> str:
    f = _pc if pct else (lambda v: f"{v:.3g}")
    return f"{f(row['low'])} – {f(row['high'])}"


def _table(head: list, rows: list) -> str:
    h = "".join(f"<th>{_e(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{_e(x)}</td>" for x in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _tables(name: str, data: dict) -> str:
    out = []
    for r, lab in zip(data["results"], labels(data)):
        cap = f"<p class='cond'>{_e(lab)}</p>" if len(data["results"]) > 1 else ""
        if name == "wins":
            rows = [[f"seat {s['seat']}", s["bot"], s["wins"], _pc(s["rate"]), _ci(s)] for s in r["wins"]["seats"]]
            fp = r["first_player"]
            if fp:
                rows.append(["first player", "", fp["wins"], _pc(fp["rate"]), _ci(fp)])
                rows += [[f"turn position {x['position']}", f"{x['turns']['mean']:.2f} turns", x["wins"],
                          _pc(x["rate"]), _ci(x)] for x in fp.get("positions", ())]
            t = r["wins"]["test"]
            out.append(cap + _table(["", "bot", "wins", "win rate", "95% interval"], rows) +
                       f"<p>{_e(t['name'])}: χ² = {t['statistic']:.2f}, df = {t['df']}, p = {t['p_value']:.3g}; "
                       f"fair share {_pc(r['fair_share'])}; {r['wins']['shared_games']} games with a shared win"
                       + (f"; first player: exact binomial p = {fp['test']['p_value']:.3g}, who it was: "
                          + ", ".join(f"seat {i + 1} {n}" for i, n in enumerate(fp["by_seat"])) if fp else "")
                       + "</p>" + (f"<p>The first player: {_e(fp['definition'])}.</p>" if fp and "definition" in fp
                                   else ""))
        elif name == "scores":
            rows = [[f"seat {s['seat']}", f"{s['mean']:.2f}", _ci(s, False), f"{s['median']:g}",
                     f"{s['p5']:g} – {s['p95']:g}", f"{s['min']:g} – {s['max']:g}"] for s in r["scores"]["total"]]
            out.append(cap + _table(["", "mean total", "95% interval", "median", "5% – 95%", "min – max"], rows))
        elif name == "items":
            seats = len(r["wins"]["seats"])
            rows = [[i["name"] + ("" if i["counted"] else " (note)")] +
                    [f"{s['mean']:.2f}" for s in i["seats"]] + [f"{i['per_player']['mean']:.2f}"]
                    for i in r["scores"]["items"]]
            out.append(cap + _table(["item"] + [f"seat {p + 1}" for p in range(seats)] + ["per player"], rows))
        elif name == "length":
            rows = [[k, f"{d['mean']:.1f}", _ci(d, False), f"{d['median']:g}", f"{d['p5']:g} – {d['p95']:g}",
                     f"{d['min']:g} – {d['max']:g}"] for k, d in r["length"].items() if d["games"]]
            out.append(cap + _table(["per game", "mean", "95% interval", "median", "5% – 95%", "min – max"], rows) +
                       (f"<p>{r['unfinished']} unfinished games (left out)</p>" if r["unfinished"] else ""))
        elif name == "drama" and r["drama"]:
            dr = r["drama"]
            rows = [[_pc(x["fraction"]), x["games"], _pc(x["rate"]), _ci(x)] for x in dr["leader_wins"]]
            lc, g = dr["lead_changes"], dr["games_with_lead_change"]
            out.append(cap + _table(["at", "games with one leader", "the leader wins", "95% interval"], rows) +
                       f"<p>lead changes per game: {lc['mean']:.2f} ({_ci(lc, False)}); games with at least "
                       f"one: {_pc(g['rate'])} ({_ci(g)})</p>")
        elif name == "skill" and r["skill"]:
            sk = r["skill"]
            rows = [[f"at seat {s['seat']}", s["games"], s["wins"]] for s in sk["by_seat"]]
            out.append(cap + f"<p>{sk['wins']} wins in {sk['finished']} games: {_pc(sk['rate'])} ({_ci(sk)}); "
                       f"fair share {_pc(sk['fair_share'])}; skill index {sk['skill_index']:.2f}; exact binomial "
                       f"p = {sk['test']['p_value']:.3g}</p>" + _gap(sk) +
                       _table(["the strong bot", "games", "wins"], rows))
    if name == "choices" and data.get("choices"):
        out.append("<pre>" + _e(choices_text(data["choices"][0], 12)) + "</pre>")
    if name == "sweep" and data.get("sweep"):
        out.append("<pre>" + _e(sweep_text(data)) + "</pre>")
    if name == "compare" and data.get("comparison"):
        rows = []
        for e in data["comparison"]["effects"]:
            k = 100.0 if e["unit"] == "proportion" else 1.0
            u = " pts" if e["unit"] == "proportion" else ""
            rows.append([e["label"], f"{e['without'] * k:.3g}", f"{e['with'] * k:.3g}",
                         f"{e['difference'] * k:+.3g}{u}", f"{e['low'] * k:+.3g} – {e['high'] * k:+.3g}",
                         "yes" if e["clear"] else "no"])
        out.append(_table(["figure", "without", "with", "difference", "95% interval", "clear"], rows))
    return "".join(out)


_STYLE = """body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f3f3f3}td:first-child{text-align:left}img{max-width:100%}code{background:#f3f3f3;padding:.1em .3em}
.cond{font-weight:bold;margin-bottom:0}li{margin:.3em 0}"""


def render(data: dict, images: dict, json_name: Optional[str] = None) -> str:
    """The HTML report of ``data`` with ``images`` (``{section: PNG bytes}``) embedded."""
    title = f"Balance of {data['game']}"
    skill = f", and {data['skill_games']:,} skill games" if data["skill_games"] else ""
    parts = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>", f"<title>{_e(title)}</title>",
             f"<style>{_STYLE}</style></head><body>", f"<h1>{_e(title)}</h1>",
             f"<p>{data['games']:,} games of {data['players']} players with "
             f"{_e(', '.join(sorted(set(data['bots']))))} bots, seed {data['seed']}"
             f"{skill}.  "
             f"The command: <code>{_e(command(data))}</code></p>",
             "<h2>Verdicts</h2><ul>" + "".join(f"<li>{_e(v)}</li>" for v in data["verdicts"]) + "</ul>"]
    for name, heading, _fn in SECTIONS:
        body = _tables(name, data)
        if name not in images and not body:
            continue
        parts.append(f"<h2>{_e(heading)}</h2>")
        if name in images:
            b64 = base64.b64encode(images[name]).decode("ascii")
            parts.append(f"<img alt='{_e(heading)}' src='data:image/png;base64,{b64}'>")
        parts.append(body)
    if json_name:
        parts.append(f"<p>The same figures as JSON: <code>{_e(json_name)}</code>.</p>")
    parts.append("<p>How to read this report: the catrules documentation, “The balance lab”.</p></body></html>")
    return "\n".join(parts) + "\n"


def to_json(data: dict) -> str:
    """The JSON text of the figures (the same bytes for the same data)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_report(data: dict, html_path, json_path=None, figures_dir=None) -> list:
    """Write the JSON (``json_path``), then the HTML report with its plots (and each plot as a PNG
    in ``figures_dir``); returns the paths written.  Without matplotlib the JSON is written and
    :class:`ReportError` raised."""
    written = []
    if json_path is not None:
        Path(json_path).write_text(to_json(data), encoding="utf-8")
        written.append(str(json_path))
    images = plots(data)
    Path(html_path).write_text(render(data, images, Path(json_path).name if json_path else None), encoding="utf-8")
    written.append(str(html_path))
    if figures_dir is not None:
        d = Path(figures_dir)
        d.mkdir(parents=True, exist_ok=True)
        for name, png in images.items():
            (d / f"balance-{name}.png").write_bytes(png)
            written.append(str(d / f"balance-{name}.png"))
    return written


# ================================================================== text tables

def _pm(x: dict) -> str:
    return f"{x['rate'] * 100:5.1f}% [{x['low'] * 100:4.1f}, {x['high'] * 100:4.1f}]"


def sweep_text(data: dict) -> str:
    """The response table of a sweep, as text of at most 80 columns."""
    lines = [f"{'condition':<22}{'first player wins':>26}{'fair':>7}{'decisions':>11}{'choices':>9}"]
    for row in data["sweep"]["rows"]:
        fp = _pm(row["first_player"]) if row["first_player"] else "-"
        lines.append(f"{row['condition'][:21]:<22}{fp:>26}{row['fair_share'] * 100:6.1f}%"
                     f"{row['decisions']['mean'] or 0:>11.1f}{row['choices']['mean'] or 0:>9.1f}")
    return "\n".join(lines)


def choices_text(prompts: list, most: int = 6) -> str:
    """The per-choice table of one condition: each prompt's options, the most taken first."""
    lines = ["choices (takers: took the option at least once in a game; others: were offered",
             "it and never took it; a forced choice is no answer):",
             f"  {'option':<24}{'share':>7}{'takers win':>21}{'others win':>21}"]
    for pr in prompts[:most]:
        lines.append(f"line {pr['line']}: {pr['prompt']}"[:80])
        for o in pr["options"][:8]:
            flag = "  DOMINANT" if o["dominant"] else ""
            lines.append(f"  {o['option'][:23]:<24}{o['share'] * 100:6.1f}%{_pm(o['takers']):>21}"
                         f"{_pm(o['others']):>21}{flag}")
        more = len(pr["options"]) - 8 + pr.get("more_options", 0)
        if more > 0:
            lines.append(f"  ... and {more} more options (in the JSON)")
    return "\n".join(lines)


def plot_sweep(data: dict, path) -> None:
    """The sweep's response curves as a PNG file: the first player's win rate against its fair
    share, and each seat's, per condition (raises :class:`ReportError` without matplotlib)."""
    plt = _pyplot()
    rows = data["sweep"]["rows"]
    with plt.rc_context({"font.size": 10, "svg.hashsalt": "catrules"}):
        fig, ax = plt.subplots(figsize=SIZE, layout="constrained")
        xs = list(range(len(rows)))
        fp = [(x, r["first_player"]) for x, r in zip(xs, rows) if r["first_player"]]
        if fp:
            ax.errorbar([x for x, _ in fp], [f["rate"] for _, f in fp], yerr=_errors([f for _, f in fp]),
                        marker="o", capsize=4, color=COLOURS[0], label="the first player")
        ax.plot(xs, [r["fair_share"] for r in rows], linestyle="dashed", color=COLOURS[1], label="fair share")
        ax.set_xticks(xs, [r["condition"] for r in rows])
        ax.set_ylabel("win rate (95% interval)")
        ax.set_title(f"{data['game']}: the sweep")
        ax.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
        ax.legend(loc="best", fontsize="small")
        Path(path).write_bytes(_png(fig, plt))
