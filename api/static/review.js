// The review page: /review/<game>?as=<seat|spectator|omniscient>[#token=<seat token>]
// The review opens once the game is over, when every perspective is open to all: no link it makes carries the token
// (a copied link would hand the seat over; after the game a seat token still opens and votes on disputes).
"use strict";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const params = new URLSearchParams(location.search);
const token = takeToken(gameId); // token.js
const $ = (id) => document.getElementById(id);
let as = params.get("as") || "spectator";

async function api(path) {
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch(path, { headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = new Error(body.detail || response.statusText);
    err.status = response.status;
    throw err;
  }
  return body;
}

// a review that cannot be shown reads as a page: what is wrong, why, and where to go instead
function showProblem(err) {
  const game = encodeURIComponent(gameId);
  const ways = [];
  let heading;
  let hint;
  if (err.status === 409) {
    heading = "Not yet: the review opens when the game is over";
    hint = "During the game its odds would help the players. Anyone may watch the game meanwhile.";
    ways.push([`/replay/${game}?as=spectator`, "Watch it as a spectator"]);
  } else if (err.status === 404) {
    heading = "No finished game to review here";
    hint = "Check the link: the game may not exist, or may not have started.";
    ways.push([`/replay/${game}?as=spectator`, "Its replay, once it has started"]);
    ways.push(["/api/games?status=finished", "The finished games (their ids)"]);
  } else if (err.status === 400) {
    heading = "This link asks for a perspective the game does not have";
    hint = "A perspective is one of the game's seat numbers, spectator or omniscient.";
    ways.push([`/review/${game}?as=spectator`, "The review as a spectator"]);
  } else {
    heading = "The review could not be loaded";
    hint = "The server may be busy or out of reach: try again in a moment.";
    ways.push([location.pathname + location.search, "Try again"]);
  }
  $("problem-heading").textContent = heading;
  $("problem-detail").textContent = err.message ? `The server says: ${err.message}.` : "";
  $("problem-hint").textContent = hint;
  $("problem-ways").replaceChildren(
    ...ways.map(([href, text]) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      li.append(a);
      return li;
    }),
  );
  $("controls").hidden = true;
  $("intro").hidden = true;
  $("players").textContent = "";
  document.title = `${heading} · Aegis review`;
  $("problem").hidden = false;
  $("problem-heading").focus();
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;  // names and card names are text, never markup
  if (className) td.className = className;
  row.append(td);
  return td;
}

const count = (n, word, words = word + "s") => `${n} ${n === 1 ? word : words}`;
// whole percents, as the viewer's odds line says them
const percent = (p) => (p === null || p === undefined ? "–" : `${Math.round(100 * p)}%`);

// the review's outcome codes (the API's) in a player's words
const OUTCOMES = {
  right: "right: the claim was not proven",
  wrong: "wrong: the claim was proven",
  void: "someone called first: not heard",
  unsettled: "the game ended before it was settled",
  "not called": "nobody called it",
  proven: "called, and proven",
  exposed: "called, and not proven",
  "no window": "nobody could call it (no reaction window)",
};

// a move's step, linked to its claim's step in the viewer with the claim's audit open (its odds, who held what,
// every answer): where a call is judged, not only where it was made
function replayLink(move, names) {
  const a = document.createElement("a");
  const claim = move.claim_step ?? move.step;
  a.href = `/replay/${encodeURIComponent(gameId)}?step=${claim}&as=${encodeURIComponent(as)}&audit=${claim}`;
  a.textContent = String(move.step);
  const who = move.kind === "claim" ? "" : ` on ${names[move.claimant] ?? `seat ${move.claimant}`}'s claim`;
  a.setAttribute("aria-label", `step ${move.step}: ${move.kind}${who} of the ${move.claim}, in the replay with its audit`);
  return a;
}

function moveRow(move, names) {
  const tr = document.createElement("tr");
  if (move.against_odds) tr.classList.add("against");
  if (move.bluff_through) tr.classList.add("through");
  if (move.undone) tr.classList.add("undone");
  cell(tr, "").append(replayLink(move, names));
  const what =
    move.kind === "claim"
      ? move.about === "guard" ? "guards with a claimed card" : "claims an action"
      : move.kind === "guard" ? `guards${move.means ? ` with ${move.means === "card" ? "a claimed card" : `the ${move.means}`}` : ""}` : move.kind;
  cell(tr, what);
  cell(tr, move.kind === "claim" ? "–" : names[move.claimant] ?? `seat ${move.claimant}`);
  cell(tr, move.claim);
  cell(tr, percent(move.probability), "num");
  cell(tr, move.held ? "held" : "bluff");
  const notes = [];
  if (move.against_odds) notes.push("against the odds");
  if (move.bluff_through) notes.push("got through");
  if (move.undone) notes.push("undone");
  cell(tr, (OUTCOMES[move.outcome] || move.outcome) + (notes.length ? ` · ${notes.join(", ")}` : ""));
  return tr;
}

// "(2 after someone else's call: not heard)": a later caller's calls are counted among the calls, never right
function heard(moves, calls) {
  const late = moves.filter((m) => m.kind === "call" && m.outcome === "void").length;
  return late ? ` (${late} after someone else's call: not heard)` : "";
}

function render(review) {
  $("game-id").textContent = review.id;
  const names = Object.fromEntries(review.players.map((p) => [p.seat, p.name]));
  const root = $("players");
  root.textContent = "";
  for (const p of review.players) {
    const box = document.createElement("section");
    box.className = "player";
    box.dataset.seat = p.seat;
    const h = document.createElement("h2");
    h.textContent = `${p.name} (seat ${p.seat})`;
    const s = p.summary;
    const c = p.calibration;
    const summary = document.createElement("p");
    summary.className = "summary";
    summary.textContent =
      `${count(s.claims, "claim")}, ${count(s.bluffs, "bluff")}, ${s.bluffs_through} got through · ` +
      `${count(s.calls, "call")}${heard(p.moves, s.calls)}, ${s.calls_right} right, ${s.calls_against_odds} against the odds · ` +
      `${count(s.passes, "pass", "passes")}, ${count(s.guards, "guard")} · calibration of calls: mean odds ${percent(c.mean_probability)}, ` +
      `held ${percent(c.held_rate)}, Brier ${c.brier === null ? "–" : c.brier.toFixed(3)}`;
    box.append(h, summary);
    if (p.moves.length) {
      const table = document.createElement("table");
      const head = document.createElement("tr");
      for (const title of ["step", "move", "claimant", "claim", "odds held", "truth", "what happened"]) {
        const th = document.createElement("th");
        th.textContent = title;
        head.append(th);
      }
      table.append(head);
      for (const m of p.moves) table.append(moveRow(m, names));
      const wrap = document.createElement("div"); // a table wider than a phone scrolls in its own box, not the page
      wrap.className = "table-wrap";
      wrap.tabIndex = 0; // reachable, so the keyboard can scroll it
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", `${p.name}'s moves`);
      wrap.append(table);
      box.append(wrap);
    }
    root.append(box);
  }
  const select = $("perspective");
  select.textContent = "";
  for (const [value, label] of [["spectator", "spectator"], ...review.players.map((p) => [String(p.seat), p.name]), ["omniscient", "omniscient (what was true)"]]) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    option.selected = value === String(review.as);
    select.append(option);
  }
  $("replay-link").href = `/replay/${encodeURIComponent(gameId)}?as=${encodeURIComponent(as)}`;
}

async function load() {
  $("game-id").textContent = gameId;  // also when the review cannot be shown: which game, and its replay
  $("replay-link").href = `/replay/${encodeURIComponent(gameId)}?as=${encodeURIComponent(as)}`;
  try {
    showError("");
    $("problem").hidden = true;
    $("controls").hidden = false;
    $("intro").hidden = false;
    render(await api(`/api/games/${encodeURIComponent(gameId)}/review?as=${encodeURIComponent(as)}`));
    document.title = `Review of game ${gameId} · as ${as} · Aegis`;
  } catch (err) {
    showProblem(err);
  }
}

$("perspective").addEventListener("change", (e) => {
  as = e.target.value;
  history.replaceState(null, "", `?as=${encodeURIComponent(as)}`);
  load();
});

load();
