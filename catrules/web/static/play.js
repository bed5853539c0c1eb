// The table page: one seat's (or a spectator's) view of a game, sent by the server over a WebSocket.
// The link's token is in the #fragment: the browser never sends it in a request, only in "hello".
"use strict";
const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.hash.slice(1));
let ws = null, msg = null, retry = 500;
const events = new Map();            // event number -> item, as this seat saw it
let replay = null, replayAt = 0, wantDownload = false;
// A race starts with a count-in (3 2 1) as at a real table, then its options show: the server
// times the race from when it sent it plus this count-in (catrules.web.links.COUNT_IN, seconds).
const COUNT_IN_MS = 1500;
let countedIn = -1, counting = null;     // the ask whose count-in is over; the one counting in

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
const nice = (name) => String(name).replace(/_/g, " ");
const face = (c) => c.face || c.label || `card ${c.id}`;

function playerName(p, short) {
  if (!msg) return `player ${p + 1}`;
  if (p === msg.seat) return "you";
  const n = msg.names[p];
  return short || !n ? `player ${p + 1}` : `player ${p + 1} (${n})`;
}

function valueText(v) {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(", ") : "none";
  if (typeof v === "object") {
    if ("player" in v) return playerName(v.player, true);
    if (v.hidden) return "a hidden card";
    if ("id" in v) return face(v);
    if ("label" in v) return v.label;
    return Object.entries(v).map(([k, x]) => `${nice(k)}: ${valueText(x)}`).join("; ");
  }
  return String(v);
}

// ------------------------------------------------------------ connection
function connect() {
  setStatus("connecting…");
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws`);
  // "pings": the server's pings are answered at once, so that it knows this page's round trip
  ws.onopen = () => { retry = 500; ws.send(JSON.stringify({type: "hello", token, pings: true})); };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = (e) => {       // a restarted server, a lost network, a limit: come back where we were
    setStatus(e.reason ? `${e.reason}; reconnecting…` : "reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  };
}

function setStatus(text) { $("status").textContent = text; }

function send(obj) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
}

function receive(m) {
  if (m.type === "ping") { send({type: "pong", n: m.n}); return; }
  if (m.type === "error") { $("notice").textContent = m.message; document.body.dataset.error = m.message; return; }
  if (m.type === "log") { gotLog(m.lines); return; }
  if (m.type !== "state") return;
  for (const it of m.events) events.set(it.n, it);
  msg = m;
  setStatus("connected");
  $("notice").textContent = m.broken || "";
  render();
}

// The decision this page may answer now: none during a race's count-in.
function liveDecision() {
  const d = msg && msg.view.decisions[0];
  return d && d.timed && countedIn !== msg.ask ? null : d;
}

function countIn(ask) {
  if (counting && counting.ask === ask) {       // drawn again meanwhile: the count-in stays
    $("prompt").textContent = counting.text;
    document.body.dataset.state = "counting";
    return;
  }
  if (counting) clearTimeout(counting.timer);
  counting = {ask, step: 3, text: ""};
  const tick = () => {
    if (!msg || msg.ask !== ask) { counting = null; return; }
    if (counting.step === 0) { counting = null; countedIn = ask; render(); return; }
    counting.text = `A race! Get ready: ${[3, 2, 1].filter((k) => k >= counting.step).join("… ")}…`;
    $("prompt").textContent = counting.text;
    document.body.dataset.state = "counting";
    counting.step -= 1;
    counting.timer = setTimeout(tick, COUNT_IN_MS / 3);
  };
  tick();
}

function choose(optionId) {
  const d = liveDecision();
  if (!d) return;
  // a race's time is measured by the server, from when it sent the race to when this arrives,
  // less this page's round trip (see "Fairness of races" in docs/web.rst)
  send({type: "choose", ask: msg.ask, option: optionId});
  document.body.dataset.sent = String(msg.ask);
}

// -------------------------------------------------------------- drawing
function render() {
  const v = msg.view;
  document.title = `${msg.title} — catrules`;
  $("title").textContent = msg.title;
  $("who").textContent = msg.seat === null ? "spectator (public information only)" : `you are player ${msg.seat + 1}`;
  drawSeedNote();
  const d = liveDecision();
  const legal = new Map(d ? d.options.map((o) => [o.id, o]) : []);
  drawZones(v, legal, d);
  drawDecision(v, d);
  drawScores(v);
  drawEvents();
  $("end").hidden = !v.finished;
  document.body.dataset.ask = String(msg.ask);
  document.body.dataset.state = v.finished ? "over" : d ? "deciding" : "waiting";
  if (!d && v.decisions[0] && !v.finished) countIn(msg.ask);     // a race: its options after the count-in
}

// A table whose creator chose the seed: they can work out every card, and every page says so.
function drawSeedNote() {
  let e = $("seed-note");
  if (!e) {
    e = el("p", "error seed-note");
    e.id = "seed-note";
    $("play").prepend(e);
  }
  e.hidden = !msg.seed_chosen;
  e.textContent = msg.seed_chosen ? "This table's seed was chosen by its creator: they can know every card." : "";
}

function drawDecision(v, d) {
  const box = $("decision"), ch = $("choices");
  ch.textContent = "";
  box.classList.toggle("idle", !d);
  if (v.finished) {
    const w = (v.winners || []).map((p) => playerName(p, true));
    $("prompt").textContent = `The game is over. ${w.length > 1 ? "Winners" : "Winner"}: ${w.join(", ") || "nobody"}.`;
    return;
  }
  if (!d) {
    const n = v.waiting_for.length;
    const who = v.waiting_for.map((p) => playerName(p, true)).join(", ");
    $("prompt").textContent = (v.answered ? "Your answer is in. " : "") +
      (n ? `Waiting for ${n} player${n === 1 ? "" : "s"} (${who}).` : "");
    return;
  }
  $("prompt").textContent = d.prompt + (d.timed ? " — quick, it is a race!" : "");
  const shown = new Set([...document.querySelectorAll("#table .card, #players .card, #players .pick")].map((c) => c.dataset.option));
  d.options.forEach((o, i) => {
    // cards are picked on the table; everything else (lines, places, players, menu entries) here
    if ((o.kind === "card" || o.kind === "player") && shown.has(o.id)) return;
    const b = el("button", "choice" + (o.id === d.default ? " default" : ""), `${i < 9 ? i + 1 + ". " : ""}${o.label}`);
    b.type = "button"; b.dataset.option = o.id;
    b.addEventListener("click", () => choose(o.id));
    ch.append(b);
  });
  if (d.default) {
    const o = d.options.find((x) => x.id === d.default);
    const b = el("button", "take-default", `Enter: ${o ? o.label : d.default}`);
    b.type = "button"; b.id = "take-default";
    b.addEventListener("click", () => choose(d.default));
    ch.append(b);
  }
}

function cardEl(c, legal, d) {
  if (!c) return el("span", "card empty", "·");
  if (c.hidden) return el("span", "card back", "?");
  const oid = `c${c.id}`;
  const o = legal.get(oid);
  let e;
  if (o) {
    e = el("button", "card legal" + (d && d.default === oid ? " default" : ""), face(c));
    e.type = "button";
    e.addEventListener("click", () => choose(oid));
  } else {
    e = el("span", "card", face(c));
  }
  e.dataset.option = oid;
  if (msg.view.my_choice && [].concat(msg.view.my_choice).includes(oid)) e.classList.add("chosen");
  if (c.text) e.title = c.text;
  const accent = accentOf(c);
  if (accent) e.style.borderLeft = `5px solid ${accent}`;
  return e;
}

// a card's first text attribute, when it names a colour (a suit), marks its edge
const META = new Set(["id", "type", "label", "face", "text", "hidden"]);
function accentOf(c) {
  for (const [k, v] of Object.entries(c)) {
    if (META.has(k)) continue;
    return typeof v === "string" && CSS.supports("color", v) ? v : null;
  }
  return null;
}

function zoneEl(z, legal, d) {
  const box = el("div", "zone");
  box.dataset.zone = z.zone;
  const name = el("div", "zone-name", nice(z.zone));
  box.append(name);
  if (!z.count) {
    box.classList.add("empty-zone");
    box.append(el("span", "hidden-count", "empty"));
    return box;
  }
  const open = z.cards || z.cells || z.lines;
  if (!open) {
    box.append(el("span", "hidden-count", `${z.count} card${z.count === 1 ? "" : "s"}, face down`));
    return box;
  }
  if (z.shape === "grid") {
    const g = el("div", "grid");
    g.style.gridTemplateColumns = `repeat(${z.cols}, minmax(0, max-content))`;
    for (const c of z.cells) g.append(cardEl(c, legal, d));
    box.append(g);
  } else if (z.shape === "lines") {
    for (const line of z.lines) {
      const l = el("div", "line");
      for (const c of line) l.append(cardEl(c, legal, d));
      box.append(l);
    }
  } else {
    const row = el("div", "cards");
    // a big open pile (a supply) shows its top cards and a count
    const many = z.cards.length > 24 && ![...legal.keys()].some((k) => z.cards.some((c) => `c${c.id}` === k));
    for (const c of many ? z.cards.slice(-6) : z.cards) row.append(cardEl(c, legal, d));
    if (many) row.append(el("span", "hidden-count", `${z.cards.length} in all`));
    box.append(row);
  }
  return box;
}

function drawZones(v, legal, d) {
  const table = $("table");
  table.textContent = "";
  table.append(el("h2", null, "The table"));
  for (const z of v.zones) if (z.owner === null && (z.visibility !== "hidden" || z.count)) table.append(zoneEl(z, legal, d));
  const shared = Object.entries(v.counters).filter(([, x]) => !Array.isArray(x) && !(x && typeof x === "object" && !("player" in x) && !("id" in x) && !("label" in x) && !x.hidden));
  if (shared.length) table.append(el("p", "counters", shared.map(([k, x]) => `${nice(k)}: ${valueText(x)}`).join(" · ")));
  const players = $("players");
  players.textContent = "";
  for (let p = 0; p < v.players; p++) {
    const box = el("div", "player" + (p === msg.seat ? " me" : "") + (v.waiting_for.includes(p) ? " turn" : ""));
    box.dataset.player = p;
    const total = v.running ? ` — ${v.running[p].total} points` : v.scores ? ` — ${v.scores[p].total} points` : "";
    box.append(el("h3", null, (p === msg.seat ? "You (player " + (p + 1) + ")" : playerName(p)) + total));
    const pick = legal.get(`p${p + 1}`);         // a choice of player: made on the player's area
    if (pick) {
      const b = el("button", "pick" + (d.default === pick.id ? " default" : ""), `Choose ${pick.label}`);
      b.type = "button"; b.dataset.option = pick.id;
      b.addEventListener("click", () => choose(pick.id));
      box.append(b);
    }
    for (const z of v.zones) if (z.owner === p && (z.count || z.cards || z.lines)) box.append(zoneEl(z, legal, d));
    const mine = Object.entries(v.counters).filter(([, x]) => Array.isArray(x) && x.length === v.players);
    if (mine.length) box.append(el("p", "counters", mine.map(([k, x]) => `${nice(k)}: ${valueText(x[p])}`).join(" · ")));
    players.append(box);
  }
}

function scoreTable(title, rows, winners) {
  const wrap = el("div", "scroll");
  const t = el("table", "score");
  t.append(el("caption", null, title));
  const head = el("tr");
  head.append(el("th", null, ""));
  rows.forEach((_, p) => head.append(el("th", winners && winners.includes(p) ? "winner" : null, playerName(p, true))));
  t.append(head);
  const items = msg.score_items.map(([name]) => name).filter((k) => rows[0] && k in rows[0]);
  for (const k of [...items, "total"]) {
    const tr = el("tr", k === "total" ? "total" : null);
    tr.append(el("td", null, nice(k)));
    rows.forEach((r) => tr.append(el("td", null, valueText(r[k]))));
    t.append(tr);
  }
  wrap.append(t);
  return wrap;
}

function drawScores(v) {
  const box = $("scores");
  box.textContent = "";
  box.append(el("h2", null, "Score"));
  if (v.finished && v.scores) {
    box.append(scoreTable("Final score, by item", v.scores, v.winners));
    const w = v.winners.map((p) => playerName(p, true)).join(", ");
    box.append(el("p", "winner", `${v.winners.length > 1 ? "Winners" : "Winner"}: ${w || "nobody"}`));
  } else if (v.running) {
    box.append(scoreTable("If the game ended now" + (v.running_note ? "*" : ""), v.running, null));
    if (v.running_note) box.append(el("p", "note", "* " + v.running_note));
  }
  const tallies = [...events.values()].filter((it) => it.t === "tally");
  for (const it of tallies.slice(-3)) if (it.ev.totals) box.append(scoreTable(it.text.split(":")[0], it.ev.totals, null));
  drawEnding(box, msg.ending);
}

// How the latest round's or the game's scores came about: the events of its end (the server
// picks them, as the full-screen table does: catrules.frontends.endings).
function drawEnding(box, ending) {
  if (!ending || !ending.items.length) return;
  const sec = el("details", "ending");
  sec.open = true;
  sec.append(el("summary", null, ending.kind === "end" ? ending.title : `How it came about (${ending.title})`));
  const ul = el("ul");
  for (const it of ending.items) ul.append(el("li", it.t, it.text));
  sec.append(ul);
  box.append(sec);
}

function drawEvents() {
  const list = $("events");
  list.textContent = "";
  const items = [...events.values()].sort((a, b) => b.n - a.n).slice(0, 40);
  for (const it of items) {
    const li = el("li", it.t, it.text);
    li.value = it.n;
    list.append(li);
  }
}

// ------------------------------------------------------------- the log
function gotLog(lines) {
  if (wantDownload) {
    wantDownload = false;
    const blob = new Blob([lines.join("\n") + "\n"], {type: "application/x-ndjson"});
    const a = el("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${(msg && msg.title || "game").replace(/\W+/g, "-").toLowerCase()}-${msg ? msg.table : ""}.jsonl`;
    document.body.append(a);
    a.click();
    a.remove();
    return;
  }
  replay = lines.map((l) => JSON.parse(l));
  replayAt = 0;
  $("replay").hidden = false;
  showReplay();
}

function showReplay() {
  const line = replay[replayAt];
  $("replay-pos").textContent = `${replayAt + 1} / ${replay.length}`;
  let text = line.type;
  if (line.type === "event") {
    const it = events.get(line.n);
    text = it ? it.text : `${line.event}`;
  } else if (line.type === "result") {
    text = "result: " + line.scores.map((s, p) => `${playerName(p, true)} ${s.total}`).join(", ");
  } else if (line.type === "header") {
    text = `${line.title}, ${line.players} players, seed ${line.seed}`;
  }
  $("replay-text").textContent = text;
  $("replay-line").textContent = JSON.stringify(line);
}

function step(by) {
  if (!replay) return;
  replayAt = Math.max(0, Math.min(replay.length - 1, replayAt + by));
  showReplay();
}

$("download").addEventListener("click", () => { wantDownload = true; send({type: "log"}); });
$("replay-open").addEventListener("click", () => send({type: "log"}));
$("back").addEventListener("click", () => step(-1));
$("forward").addEventListener("click", () => step(1));

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
  const d = liveDecision();
  if (replay && !$("replay").hidden && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    step(e.key === "ArrowLeft" ? -1 : 1);
    e.preventDefault();
    return;
  }
  if (!d) return;
  if (e.key === "Enter" && e.target.tagName !== "BUTTON" && d.default) {
    choose(d.default);
    e.preventDefault();
  } else if (/^[1-9]$/.test(e.key) && Number(e.key) <= d.options.length) {
    choose(d.options[Number(e.key) - 1].id);
    e.preventDefault();
  }
});

if (!token) {
  $("prompt").textContent = "This page needs the link of a seat (it ends with #…): ask whoever opened the table.";
  setStatus("no link");
} else {
  connect();
}
