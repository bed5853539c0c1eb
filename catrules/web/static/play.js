// The table page: one seat's (or a spectator's) view of a game, sent by the server over a WebSocket.
// The link's token is in the #fragment: the browser never sends it in a request, only in "hello".
"use strict";
const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.hash.slice(1));
let ws = null, msg = null, retry = 500;
let pending = null;                  // a choice made while the server could not be reached
let badLink = false;                 // the server said this link is not valid: no more tries
let typedBad = false;                // an invalid number was typed: Enter first says so
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
    if (badLink) return;
    setStatus(e.reason ? `${e.reason}; reconnecting…` : "reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  };
}

function setStatus(text) { $("status").textContent = text; }

function send(obj) {
  if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(obj)); return true; }
  return false;
}

// A link the server does not know: stop trying, say so, and show the way to the lobby.
function linkNotValid(message) {
  badLink = true;
  setStatus("not connected: link not valid");
  document.body.dataset.state = "bad-link";
  const p = $("prompt");
  p.textContent = `${message}. Ask whoever opened the table for your link, or open a new table: `;
  p.append(Object.assign(el("a", null, "the lobby"), {href: "/"}));
  $("choices").textContent = "";
  if (ws) ws.close();
}

function receive(m) {
  if (m.type === "ping") { send({type: "pong", n: m.n}); return; }
  if (m.type === "error" && !msg && /link is not valid/.test(m.message)) { linkNotValid(m.message); return; }
  if (m.type === "error") { $("notice").textContent = m.message; document.body.dataset.error = m.message; return; }
  if (m.type === "log") { gotLog(m.lines); return; }
  if (m.type !== "state") return;
  for (const it of m.events) events.set(it.n, it);
  msg = m;
  setStatus("connected");
  $("notice").textContent = m.broken || "";
  render();
  if (pending) {                    // a click made while the server was away, sent now
    const o = pending;
    pending = null;
    if (o.ask === msg.ask && liveDecision()) choose(o.option);
    else $("notice").textContent = "Your choice made while the server was away no longer applies: the game moved on.";
  }
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
  typedBad = false;
  if (!send({type: "choose", ask: msg.ask, option: optionId})) {
    pending = {ask: msg.ask, option: optionId};
    $("notice").textContent = `Not connected: your choice (${optionLabel(d, optionId)}) is kept and will be sent when the server is back.`;
    document.body.dataset.pending = String(msg.ask);
    return;
  }
  document.body.dataset.sent = String(msg.ask);
}

function optionLabel(d, oid) {
  const o = d && d.options.find((x) => x.id === oid);
  return o ? o.label : oid;
}

// -------------------------------------------------------------- drawing
function render() {
  const v = msg.view;
  document.title = `${msg.title} — catrules`;
  $("title").textContent = msg.title;
  $("who").textContent = msg.seat === null ? "spectator (public information only)" : `you are player ${msg.seat + 1}`;
  drawSeedNote();
  drawHowTo();
  const d = msg.pause ? null : liveDecision();
  const legal = new Map(d ? d.options.map((o) => [o.id, o]) : []);
  if (v.zones) drawZones(v, legal, d);     // paused after a round's end: the next round is not sent yet
  document.body.classList.toggle("paused", !!msg.pause);
  if (msg.pause) {       // the table drawn before the pause stays, dimmed: nobody is to play now
    document.querySelectorAll("#players .player.turn").forEach((e) => e.classList.remove("turn"));
    drawPause(msg.pause);
  }
  else drawDecision(v, d);
  drawScores(v);
  drawEvents();
  $("end").hidden = !v.finished;
  document.body.dataset.ask = String(msg.ask);
  document.body.dataset.state = v.finished ? "over" : msg.pause ? "paused" : d ? "deciding" : "waiting";
  if (msg.pause) return;
  if (!d && v.decisions[0] && !v.finished) countIn(msg.ask);     // a race: its options after the count-in
}

// The game's own "how to play" text (sent with a page's first message): a link in the bar opens it.
let howTo = null;
function drawHowTo() {
  if (!msg.how_to_play || howTo) return;
  howTo = msg.how_to_play;
  const box = $("howto-text");
  let list = null;
  for (const [kind, text] of howTo) {
    if (kind === "item") {
      if (!list) { list = el("ul"); box.append(list); }
      list.append(el("li", null, text));
    } else {
      list = null;
      box.append(el("p", null, text));
    }
  }
  $("howto").hidden = $("howto-link").hidden = howTo.length === 0;
  $("howto-link").onclick = (e) => {
    e.preventDefault();
    $("howto").open = true;
    $("howto").scrollIntoView();
  };
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
  const shown = new Set([...document.querySelectorAll("#table .card, #players .card, #players .pick, #table .line-pick")].map((c) => c.dataset.option));
  d.options.forEach((o, i) => {
    // cards are picked on the table; everything else (lines, places, players, menu entries) here
    if ((o.kind === "card" || o.kind === "player" || /^(row|col):/.test(o.id)) && shown.has(o.id)) return;
    const b = el("button", "choice" + (o.id === d.default ? " default" : ""));
    keyBadge(b, d, o.id);
    b.append(o.label);
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

// After a round's end the table waits until every person has pressed Continue, or for its time
// (catrules.web.pauses): the round's tally and how it came about are shown here, on top.
let pauseTimer = null;
function drawPause(pause) {
  const box = $("decision"), ch = $("choices");
  box.classList.remove("idle");
  ch.textContent = "";
  const mine = msg.seat !== null && pause.waiting.includes(msg.seat);
  const others = pause.waiting.filter((p) => p !== msg.seat).map((p) => playerName(p, true));
  const title = msg.ending && msg.ending.kind === "round" ? msg.ending.title : "The round is over";
  const all = pause.waiting.map((p) => playerName(p, true)).join(", ");
  $("prompt").textContent = msg.seat === null ? `${title}. Waiting for the players to continue (${all}).`
    : mine ? `${title}. Read how the scores came about, then press Continue.`
    : `${title}. You continued; waiting for ${others.join(", ") || "the others"} to continue.`;
  const tally = [...events.values()].filter((it) => it.t === "tally").pop();
  if (tally && tally.ev.scores) ch.append(scoreTable(tally.text.split(":")[0], tally.ev.scores, null));
  if (tally && tally.ev.totals && JSON.stringify(tally.ev.totals) !== JSON.stringify(tally.ev.scores)) {
    ch.append(scoreTable("Totals so far", tally.ev.totals, null));     // (after the first round: the same)
  }
  const pane = el("div", "pause-ending");
  drawEnding(pane, msg.ending);
  ch.append(pane);
  if (mine) {
    const b = el("button", "choice default", "Continue");
    b.type = "button"; b.id = "continue";
    b.addEventListener("click", goOn);
    ch.append(b);
  }
  const left = el("p", "note pause-left");
  left.id = "pause-left";
  ch.append(left);
  const until = Date.now() + pause.seconds * 1000;
  const tick = () => {
    const s = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    left.textContent = `The game goes on once everyone has pressed Continue, or by itself in ${s} s.`;
  };
  tick();
  clearInterval(pauseTimer);
  pauseTimer = setInterval(() => { if (msg && msg.pause) tick(); else clearInterval(pauseTimer); }, 1000);
  if (mine) $("continue").focus();
}

function goOn() {
  if (!msg || !msg.pause) return;
  if (send({type: "continue", ask: msg.ask})) {
    const b = $("continue");
    if (b) { b.disabled = true; b.textContent = "Continued: waiting for the others…"; }
    document.body.dataset.continued = String(msg.ask);
  } else {
    $("notice").textContent = "Not connected: press Continue again once the server is back.";
  }
}

function cardEl(c, legal, d) {
  if (!c) return el("span", "card empty", "·");
  if (c.hidden) return el("span", "card back", "?");
  const oid = `c${c.id}`;
  const o = legal.get(oid);
  let e;
  if (o) {
    e = el("button", "card legal" + (d && d.default === oid ? " default" : ""));
    keyBadge(e, d, oid);
    e.append(face(c));
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

// the digit key that chooses an option (1 to 9), shown on its button
function keyBadge(e, d, oid) {
  const i = d ? d.options.findIndex((x) => x.id === oid) : -1;
  if (i >= 0 && i < 9) e.append(el("kbd", "key", String(i + 1)));
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

// The lines of a grid that counters name ("blocked: row 2"): line id -> the counters' names.
function markedLines(z) {
  const out = new Map();
  for (const [k, x] of Object.entries(msg.view.counters)) {
    if (x && typeof x === "object" && !Array.isArray(x) && x.zone === z.zone && (x.line === "row" || x.line === "col"))
      out.set(`${x.line}:${x.index}`, [...(out.get(`${x.line}:${x.index}`) || []), nice(k)]);
  }
  return out;
}

// A row's or a column's head: its name, what counters say of it, a button when it can be chosen.
function lineHead(kind, i, slot, marks, legal, d) {
  const id = `${kind}:${slot}:${i}`, o = legal.get(id);
  const mark = marks.get(`${kind}:${i}`);
  const text = `${kind === "row" ? "row" : "column"} ${i + 1}` + (mark ? ` (${mark.join(", ")})` : "");
  let e;
  if (o) {
    e = el("button", "line-pick" + (d.default === id ? " default" : ""));
    e.type = "button";
    keyBadge(e, d, id);
    e.append(text);
    e.addEventListener("click", () => choose(id));
  } else {
    e = el("span", "line-head", text);
  }
  e.dataset.option = id;
  if (mark) { e.classList.add("marked"); e.title = mark.join(", "); }
  return e;
}

function gridEl(z, slot, legal, d) {
  const g = el("div", "grid"), marks = markedLines(z);
  g.style.gridTemplateColumns = `max-content repeat(${z.cols}, minmax(0, max-content))`;
  g.append(el("span", "corner"));
  for (let c = 0; c < z.cols; c++) g.append(lineHead("col", c, slot, marks, legal, d));
  for (let r = 0; r < z.rows; r++) {
    g.append(lineHead("row", r, slot, marks, legal, d));
    for (let c = 0; c < z.cols; c++) {
      const e = cardEl(z.cells[r * z.cols + c], legal, d);
      if (marks.has(`row:${r}`) || marks.has(`col:${c}`)) e.classList.add("on-marked");
      g.append(e);
    }
  }
  return g;
}

// A big open pile (a supply) as counts per kind ("20× milk"); the top cards when they are all different.
function pileSummary(z) {
  const kinds = new Map();
  for (const c of z.cards) kinds.set(face(c), (kinds.get(face(c)) || 0) + 1);
  const row = el("div", "cards");
  if (kinds.size <= 12) {
    for (const [f, n] of kinds) row.append(el("span", "card count", `${n}× ${f}`));
  } else {
    for (const c of z.cards.slice(-6)) row.append(cardEl(c, new Map(), null));
  }
  row.append(el("span", "hidden-count", `${z.cards.length} in all`));
  return row;
}

function zoneEl(z, legal, d, slot) {
  const box = el("div", "zone");
  box.dataset.zone = z.zone;
  const name = el("div", "zone-name", nice(z.zone));
  box.append(name);
  if (z.count === null) {                       // another player's secret zone: not even how many
    box.append(el("span", "hidden-count", "hidden"));
    return box;
  }
  if (!z.count) {
    box.classList.add("empty-zone");
    box.append(el("span", "hidden-count", "empty"));
    return box;
  }
  const open = z.cards || z.cells || z.lines;
  if (!open && z.top) {                         // a pile with its top card face up
    box.append(cardEl(z.top, legal, d));
    box.append(el("span", "hidden-count", `on top of ${z.count} card${z.count === 1 ? "" : "s"} in all`));
    return box;
  }
  if (!open) {
    box.append(el("span", "hidden-count", `${z.count} card${z.count === 1 ? "" : "s"}, face down`));
    return box;
  }
  if (z.shape === "grid") {
    box.append(gridEl(z, slot, legal, d));
  } else if (z.shape === "lines") {
    for (const line of z.lines) {
      const l = el("div", "line");
      for (const c of line) l.append(cardEl(c, legal, d));
      box.append(l);
    }
  } else {
    // a big open pile (a supply) shows how many of each kind
    const many = z.cards.length > 24 && ![...legal.keys()].some((k) => z.cards.some((c) => `c${c.id}` === k));
    if (many) { box.append(pileSummary(z)); return box; }
    const row = el("div", "cards");
    for (const c of z.cards) row.append(cardEl(c, legal, d));
    box.append(row);
  }
  return box;
}

// Where each card lies now (card id -> zone index), and where a counter's card lay when the
// counter took it: a counter whose card has moved on since ("lead" after the trick) is old news.
const counterHome = new Map();
function whereCards(v) {
  const at = new Map();
  v.zones.forEach((z, slot) => {
    for (const c of [...(z.cards || []), ...(z.cells || []), ...(z.lines || []).flat()]) if (c && "id" in c) at.set(c.id, slot);
  });
  return at;
}
function fresh(key, x, at) {
  if (!x || typeof x !== "object" || !("id" in x) || x.hidden) return true;
  const old = counterHome.get(key);
  if (!old || old.id !== x.id) { counterHome.set(key, {id: x.id, slot: at.get(x.id)}); return true; }
  return old.slot === at.get(x.id);
}

function drawZones(v, legal, d) {
  const at = whereCards(v);
  const table = $("table");
  table.textContent = "";
  table.append(el("h2", null, "The table"));
  v.zones.forEach((z, slot) => {
    if (z.owner === null && (z.visibility !== "hidden" || z.count)) table.append(zoneEl(z, legal, d, slot));
  });
  const shared = Object.entries(v.counters).filter(([, x]) => !Array.isArray(x) && !(x && typeof x === "object" && !("player" in x) && !("id" in x) && !("label" in x) && !x.hidden));
  const sharedNow = shared.filter(([k, x]) => fresh(k, x, at));
  if (sharedNow.length) table.append(el("p", "counters", sharedNow.map(([k, x]) => `${nice(k)}: ${valueText(x)}`).join(" · ")));
  const players = $("players");
  players.textContent = "";
  for (let p = 0; p < v.players; p++) {
    const box = el("div", "player" + (p === msg.seat ? " me" : "") + (v.waiting_for.includes(p) ? " turn" : ""));
    box.dataset.player = p;
    const total = v.running ? ` — ${v.running[p].total} points` : v.scores ? ` — ${v.scores[p].total} points` : "";
    box.append(el("h3", null, (p === msg.seat ? "You (player " + (p + 1) + ")" : playerName(p)) + total));
    const pick = legal.get(`p${p + 1}`);         // a choice of player: made on the player's area
    if (pick) {
      const b = el("button", "pick" + (d.default === pick.id ? " default" : ""));
      keyBadge(b, d, pick.id);
      b.append(`Choose ${pick.label}`);
      b.type = "button"; b.dataset.option = pick.id;
      b.addEventListener("click", () => choose(pick.id));
      box.append(b);
    }
    v.zones.forEach((z, slot) => {
      if (z.owner === p && (z.count || z.cards || z.lines)) box.append(zoneEl(z, legal, d, slot));
    });
    const mine = Object.entries(v.counters).filter(([, x]) => Array.isArray(x) && x.length === v.players);
    const mineNow = mine.filter(([k, x]) => fresh(`${k}/${p}`, x[p], at) && x[p] !== null);
    if (mineNow.length) box.append(el("p", "counters", mineNow.map(([k, x]) => `${nice(k)}: ${valueText(x[p])}`).join(" · ")));
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
  const has = (k) => rows[0] && k in rows[0];
  const items = msg.score_items.filter(([k, counted]) => counted && has(k)).map(([k]) => k);
  const notes = msg.score_items.filter(([k, counted]) => !counted && has(k)).map(([k]) => k);
  for (const k of [...items, "total", ...notes]) {
    const note = notes.includes(k);
    const tr = el("tr", k === "total" ? "total" : note ? "note" : null);
    tr.append(el("td", null, note ? `${nice(k)} (not in the total)` : nice(k)));
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
  if (msg && msg.pause && e.key === "Enter" && $("continue") && e.target.tagName !== "BUTTON") {
    e.preventDefault();
    goOn();
    return;
  }
  if (!d) return;
  const n = Math.min(9, d.options.length);
  if (e.key === "Enter" && e.target.tagName !== "BUTTON" && d.default) {
    e.preventDefault();
    if (typedBad) {           // the number typed was not an option: Enter does not play another one
      typedBad = false;
      $("notice").textContent = `Nothing played. Press a number from 1 to ${n}, or Enter again for ${optionLabel(d, d.default)}.`;
      return;
    }
    choose(d.default);
  } else if (/^[0-9]$/.test(e.key)) {
    e.preventDefault();
    if (e.key !== "0" && Number(e.key) <= d.options.length) { choose(d.options[Number(e.key) - 1].id); return; }
    typedBad = true;
    $("notice").textContent = `There is no option ${e.key}: press a number from 1 to ${n}` +
      (d.options.length > 9 ? " or click an option." : ".");
  }
});

if (!token) {
  $("prompt").textContent = "This page needs the link of a seat (it ends with #…): ask whoever opened the table.";
  setStatus("no link");
} else {
  connect();
}
