// The step-through viewer: /replay/<game>?step=N&as=<seat|spectator|omniscient>[#token=<seat token>]
"use strict";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const params = new URLSearchParams(location.search);
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const state = { step: params.has("step") ? Number(params.get("step")) : null, as: params.get("as") || "spectator", steps: 0, timeline: [] };
const $ = (id) => document.getElementById(id);

async function api(path) {
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch(path, { headers });
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail || response.statusText);
  return body;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function cardElement(card) {
  const el = document.createElement("span");
  el.className = "card";
  if (card.revealed) {
    el.classList.add("revealed");
    el.textContent = card.name;
  } else if (card.name) {
    el.classList.add("known");
    el.textContent = card.name;
    el.title = card.discovery ? "face down, with a discovery token" : "face down, known to this perspective";
  } else {
    el.classList.add("hidden");
    el.textContent = "?";
    el.title = "face down, unknown to this perspective";
  }
  el.dataset.card = card.id;
  return el;
}

function renderTable(replay) {
  const table = replay.table;
  const current = table.current;
  $("status").textContent = table.status === "finished" && table.result
    ? `Game over: ${table.result.result} (${table.result.reason})`
    : `Turn ${table.turn ?? "-"} · ${current === null || current === undefined ? "setup" : table.players[current].name}'s ${table.phase ?? ""} phase`;
  $("current-event").textContent = replay.event ? `${replay.event.seq}. ${replay.event.text}` : "Before the first event";
  const seats = $("seats");
  seats.textContent = "";
  for (const p of table.players) {
    const box = document.createElement("div");
    box.className = "seat";
    box.dataset.seat = p.seat;
    if (p.seat === current) box.classList.add("current");
    if (p.eliminated) box.classList.add("eliminated");
    const h = document.createElement("h3");
    h.textContent = `${p.name}${p.eliminated ? " (eliminated)" : ""}`;
    const cards = document.createElement("div");
    cards.className = "cards";
    for (const c of p.cards) cards.append(cardElement(c));
    const meta = document.createElement("div");
    meta.className = "meta";
    const items = p.items && p.items.length ? ` · ${p.items.join(", ")}` : "";
    const sanctions = p.sanctions && p.sanctions.length ? ` · sanctioned: ${p.sanctions.join(", ")}` : "";
    meta.textContent = `${p.soldiers} soldiers · ${p.revealed} revealed, ${p.unrevealed} face down${items}${sanctions}`;
    box.append(h, cards, meta);
    seats.append(box);
  }
  const known = (table.deck.known_top || []).map((c) => c.name).join(", ");
  const rubble = table.rubble ? ` · rubble: ${table.rubble.map((c) => c.name).join(", ") || "empty"}` : "";
  $("deck").textContent = `Deck: ${table.deck.size} cards${known ? ` (known on top: ${known})` : ""}${rubble}`;
}

function renderLog() {
  const log = $("log");
  log.textContent = "";
  for (const e of state.timeline) {
    const li = document.createElement("li");
    li.value = e.seq;
    li.textContent = e.text;
    li.dataset.seq = e.seq;
    if (e.undone) {
      li.classList.add("undone");
      li.title = "undone by an undo claim";
    }
    li.addEventListener("click", () => go(e.seq));
    log.append(li);
  }
}

function markLog() {
  for (const li of $("log").children) {
    const seq = Number(li.dataset.seq);
    li.classList.toggle("current", seq === state.step);
    li.classList.toggle("future", seq > state.step);
  }
  const current = $("log").querySelector("li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function permalink() {
  const url = `/replay/${gameId}?step=${state.step}&as=${encodeURIComponent(state.as)}`;
  history.replaceState(null, "", url + location.hash);
  $("permalink").href = url;
}

async function go(step) {
  const target = Math.max(0, Math.min(state.steps, step));
  try {
    const replay = await api(`/api/games/${gameId}/replay?step=${target}&as=${encodeURIComponent(state.as)}`);
    state.step = replay.step;
    $("slider").value = replay.step;
    $("step-label").textContent = `step ${replay.step} / ${replay.steps}`;
    renderTable(replay);
    markLog();
    permalink();
    showError("");
  } catch (err) {
    showError(err.message);
  }
}

async function load() {
  $("game-id").textContent = gameId;
  try {
    const first = await api(`/api/games/${gameId}/replay?as=${encodeURIComponent(state.as)}`);
    state.steps = first.steps;
    $("slider").max = first.steps;
    const select = $("perspective");
    select.textContent = "";
    const choices = [["spectator", "spectator"], ...first.seats.map((s) => [String(s.seat), s.name]), ["omniscient", "omniscient"]];
    for (const [value, label] of choices) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      select.append(option);
    }
    select.value = state.as;
    const timeline = await api(`/api/games/${gameId}/timeline?as=${encodeURIComponent(state.as)}`);
    state.timeline = timeline.events;
    renderLog();
    await go(state.step === null ? state.steps : state.step);
  } catch (err) {
    showError(err.message);
  }
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(state.step - 1));
$("next").addEventListener("click", () => go(state.step + 1));
$("last").addEventListener("click", () => go(state.steps));
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
$("perspective").addEventListener("change", async (e) => {
  state.as = e.target.value;
  try {
    state.timeline = (await api(`/api/games/${gameId}/timeline?as=${encodeURIComponent(state.as)}`)).events;
    renderLog();
    await go(state.step);
  } catch (err) {
    showError(err.message);
  }
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") go(state.step + 1);
  else if (e.key === "ArrowLeft") go(state.step - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(state.steps);
});
load();
