// The lobby: pick a game, players, options and seats; the server answers with one link per person.
"use strict";
let games = [];
const $ = (id) => document.getElementById(id);
const SEAT_KINDS = [["human", "a person (gets a link)"], ["bot", "greedy bot"], ["random", "random bot"],
                    ["bot:fast", "greedy bot, fast reflexes"], ["bot:slow", "greedy bot, slow reflexes"]];

// The seats a game offers: the kinds above, and the searching bot within the server's cap (its
// spec, e.g. "ismcts:1s", comes from /api/games).
function seatKinds() {
  const g = current(), offered = (g && g.seats) || [], kinds = [...SEAT_KINDS];
  for (const v of offered) {
    if (v.startsWith("ismcts:")) kinds.push([v, `searching bot, ${v.slice(7)} a decision`]);
  }
  return kinds;
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function current() { return games.find((g) => g.id === $("game").value); }

function drawSeats() {
  const n = Number($("players").value) || 0, box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.textContent = "";
  for (let i = 0; i < n; i++) {
    const lab = el("label", {}, `Player ${i + 1} `);
    const sel = el("select", {name: `seat${i}`, "data-seat": i});
    for (const [v, t] of seatKinds()) sel.append(el("option", {value: v}, t));
    sel.value = old[i] || (i < 2 ? "human" : "bot");
    lab.append(sel);
    box.append(lab);
  }
}

function drawGame() {
  const g = current();
  if (!g) return;
  $("players").min = g.min_players; $("players").max = g.max_players;
  const p = Number($("players").value);
  if (!(p >= g.min_players && p <= g.max_players)) $("players").value = Math.min(g.max_players, Math.max(g.min_players, 3));
  $("game-note").textContent = `${g.min_players} to ${g.max_players} players`;
  const box = $("options");
  box.textContent = "";
  const names = Object.keys(g.options);
  $("options-box").hidden = names.length === 0;
  const valued = g.option_values || {};
  for (const name of names) {
    const lab = el("label", {});
    if (name in valued) {        // an option with values: a select, its default chosen
      const sel = el("select", {name: "option-value", "data-option": name});
      for (const v of valued[name].values) {
        const o = el("option", {value: `${name}=${v}`}, String(v) + (v === valued[name].default ? " (default)" : ""));
        if (v === valued[name].default) o.selected = true;
        sel.append(o);
      }
      lab.append(`${name}: ${g.options[name]} `, sel);
    } else {
      const cb = el("input", {type: "checkbox", value: name, name: "option"});
      lab.append(cb, ` ${name}: ${g.options[name]}`);
    }
    box.append(lab);
  }
  drawSeats();
}

async function start() {
  const r = await fetch("/api/games");
  games = await r.json();
  for (const g of games) $("game").append(el("option", {value: g.id}, g.title));
  $("game").addEventListener("change", drawGame);
  $("players").addEventListener("input", drawSeats);
  drawGame();
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("lobby-error").textContent = "";
    const seed = $("seed").value.trim();
    const spec = {game: $("game").value, players: Number($("players").value),
                  options: [...document.querySelectorAll("#options input:checked"),
                            ...document.querySelectorAll("#options select")].map((c) => c.value),
                  seats: [...document.querySelectorAll("#seats select")].map((s) => s.value),
                  race_level: $("race-level").value};
    if (seed !== "") spec.seed = Number(seed);
    const r = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(spec)});
    const made = await r.json();
    if (!r.ok) { $("lobby-error").textContent = made.error; return; }
    const list = $("link-list");
    list.textContent = "";
    const add = (label, path, cls) => {
      const li = el("li", {class: cls});
      const url = new URL(path, location.href).href;
      li.append(`${label}: `, el("a", {href: url, target: "_blank", rel: "noopener"}, url));
      list.append(li);
    };
    for (const l of made.links) add(`Player ${l.seat + 1}`, l.link, "seat-link");
    add("Spectators (public information only)", made.spectator, "spectator-link");
    $("links").hidden = false;
  });
}
start();
