// The step-through viewer: /replay/<game>?step=N&as=<seat|spectator|omniscient>[#token=<seat token>]
//
// Sections, in order: helpers and the API; navigation (every key press a step, one fetch at a time for the latest
// step wanted); the table as the perspective knew it; the log; the audit panel; friendly pages for a problem; then
// the parts read from fields and endpoints other helpers add (odds, lineage and branching, disputes), each of them
// tolerating a missing field or a 404. Every name and text goes in through textContent: nothing is parsed as HTML.
"use strict";

// ----- helpers and the API -----

const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const segment = location.pathname.split("/").filter(Boolean).pop() || "";
const gameId = (() => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
})();
const gamePath = `/api/games/${enc(gameId)}`;
const params = new URLSearchParams(location.search);
const token = takeToken(gameId);
const CLAIM_EVENTS = new Set(["ActionDeclared", "GuardDeclared"]); // the events an audit explains

const state = {
  as: params.get("as") || (token ? "" : "spectator"), // a seat's link without ?as= opens that seat's view (the server's answer says which)
  steps: 0,
  seats: [],
  finished: false, // the game is over: the whole log and branching are offered
  timeline: [],
  whole: false, // show the whole game in the log (once it is over)
  shown: null, // the replay on the table
  shownAs: null,
  disputes: new Map(), // step -> the disputes about it
  notice: "", // what the page says of its link until the reader moves (a step the game does not have)
  announcedAs: undefined, // the perspective the live region last named
  audit: null, // the step whose audit the panel shows (kept in the link: ?audit=N)
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

function fill(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

class Problem extends Error {
  constructor(status, title, detail) {
    super(detail || title);
    this.status = status;
    this.title = title;
    this.detail = detail;
  }
}

// ``auth``: the token to send instead of the page's (null: none), for another game's requests (a new branch)
async function request(path, { method = "GET", body, signal, auth = token } = {}) {
  const headers = auth ? { Authorization: "Bearer " + auth } : {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new Problem(0, "The server could not be reached", String(err.message || err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : response.statusText;
    throw new Problem(response.status, data && typeof data.title === "string" ? data.title : response.statusText, detail);
  }
  return data;
}

function name(seat) {
  const found = state.seats.find((s) => s.seat === seat);
  return found ? found.name : `seat ${seat}`;
}

function names(seats) {
  return (seats || []).map(name).join(", ");
}

function perspectiveLabel(as) {
  if (as === "spectator" || as === null || as === undefined || as === "") return "a spectator";
  if (as === "omniscient") return "the omniscient";
  const who = name(Number(as));
  return who === `seat ${as}` ? who : `${who} (seat ${as})`; // before the names are known: "seat 1", once
}

function replayUrl(step, as = state.as, game = gameId) {
  return `/replay/${enc(game)}?step=${step}&as=${enc(as)}`;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

// ----- navigation: every press a step; one fetch at a time, for the latest step wanted -----

const nav = { wanted: 0, inflight: null };
const PROGRESS_MS = 250; // a fetch this old is let land (the table moves while a key is held), then the latest follows

function clampStep(n) {
  return Math.max(0, Math.min(state.steps, Number.isFinite(n) ? Math.trunc(n) : state.steps));
}

function settled() {
  return state.shown !== null && state.shown.step === nav.wanted && state.shownAs === state.as;
}

function want(step) {
  state.notice = ""; // what the link asked for is answered once the reader moves on
  nav.wanted = clampStep(step);
  showWanted();
  pump();
}

// the next (or previous) step whose event is a claim or a declaration, among the events this perspective may see
function jumpToClaim(direction) {
  const claims = state.timeline.filter((e) => CLAIM_EVENTS.has(e.type)).map((e) => e.seq);
  const found = direction > 0 ? claims.find((seq) => seq > nav.wanted) : claims.reverse().find((seq) => seq < nav.wanted);
  if (found === undefined) showError(direction > 0 ? "No claim after this step." : "No claim before this step.");
  else want(found);
}

function showWanted() {
  $("step-label").textContent = `step ${nav.wanted} / ${state.steps}`;
  $("goto").max = String(state.steps);
  $("slider").value = String(nav.wanted);
  $("slider").setAttribute("aria-valuetext", `step ${nav.wanted} of ${state.steps}`);
  // at an end, its buttons say they do nothing there (aria-disabled keeps the focus where a disabled button would lose it)
  for (const [id, end] of [["first", 0], ["prev", 0], ["next", state.steps], ["last", state.steps]]) {
    $(id).setAttribute("aria-disabled", String(nav.wanted === end));
  }
  $("table-area").setAttribute("aria-busy", String(!settled()));
}

function pump() {
  const flight = nav.inflight;
  if (flight) {
    if (flight.step === nav.wanted && flight.as === state.as) return;
    if (flight.as === state.as && performance.now() - flight.started > PROGRESS_MS) return; // lands, then pump() again
    flight.controller.abort(); // stale: nobody wants that step any more
    nav.inflight = null;
  }
  if (settled()) return;
  const next = { step: nav.wanted, as: state.as, controller: new AbortController(), started: performance.now() };
  nav.inflight = next;
  request(`${gamePath}/replay?step=${next.step}&as=${enc(next.as)}`, { signal: next.controller.signal }).then(
    (replay) => {
      if (nav.inflight !== next) return;
      nav.inflight = null;
      render(replay, next.as);
      pump();
    },
    (err) => {
      if (err.name === "AbortError" || nav.inflight !== next) return;
      nav.inflight = null;
      if (state.shown !== null && state.shownAs === state.as) {
        nav.wanted = state.shown.step; // the label, the slider and the table agree again, on the step still shown
        showWanted();
      }
      showError(`Step ${next.step} could not be shown: ${err.message}. Ask for it again to retry.`);
    },
  );
}

function render(replay, as) {
  state.shown = replay;
  state.shownAs = as;
  const table = replay.table;
  renderStatus(table);
  renderEvent(replay);
  renderOdds(replay.odds);
  renderPrompts(replay.prompts || [], as);
  renderPlay(table);
  renderSeats(table, as);
  renderBoard(table);
  renderLineage(replay.branch_of, replay.branches, replay.copied);
  if (state.finished) renderBranchPanel();
  renderStepDisputes(replay.step);
  markLog(replay.step);
  if (state.audit !== null) {
    // the panel stays open while the reader steps on: its heading says which step it is about
    const away = replay.step === state.audit ? "" : ` (the table shows step ${replay.step})`;
    $("audit-heading").textContent = `Audit of the claim at step ${state.audit}${away}`;
  }
  showWanted();
  if (settled()) {
    showError(state.notice || "");
    const said = replay.event ? replay.event.text : "before the first event";
    const switched = state.announcedAs !== undefined && state.announcedAs !== as;
    const seen = switched ? `, now as ${perspectiveLabel(as)}` : ""; // a switch of perspective is said, once
    state.announcedAs = as;
    $("announce").textContent = `Step ${replay.step} of ${replay.steps}${seen}: ${said}`;
    document.title = `Step ${replay.step} of ${replay.steps} · as ${perspectiveLabel(as)} · Aegis replay`;
    permalink(replay.step);
  }
}

function permalink(step) {
  const url = replayUrl(step) + (state.audit !== null ? `&audit=${state.audit}` : "");
  history.replaceState(null, "", url);
  $("permalink").href = url;
  $("review-link").href = `/review/${enc(gameId)}?as=${enc(state.as)}`; // every claim and call with its odds
}

// ----- the table as the perspective knew it (Ever Aegis's table, from rules.view: already redacted) -----

// the engine's words of the table, as a player says them (an unknown one is shown as it is)
const PHASE_WORDS = { begin: "Begin Phase", draw: "Draw Phase", action: "Action Phase", end: "End Phase", demise: "Demise Phase", conquest: "Conquest Phase", over: "turn ending" };
const STAGE_WORDS = { declared: "just declared", window: "waiting for answers", guards: "guards being settled", execute: "being carried out" };
const WAR_WORDS = { designate: "the attack is declared", battle: "the battle", resolution: "the battle is won", reveal: "the loser reveals cards", casualties: "casualties", over: "over", ended: "over" };
const withoutRuleIds = (text) => String(text || "").replace(/\s*\((?:[RAS]\d+[^()]*)\)/g, "");

function renderStatus(table) {
  const result = table.result;
  const status = $("status");
  if (table.status === "finished" && result) {
    const winners = result.winners || [];
    const outcome = winners.length ? `${names(winners)} ${winners.length === 1 ? "wins" : "win"}` : result.result === "draw" ? "a draw" : result.result;
    const why = withoutRuleIds(result.reason);
    status.textContent = `Game over: ${outcome}${why ? `: ${why}` : ""}`;
    status.title = result.reason || ""; // the rule it rests on, for who wants it
    return;
  }
  status.title = "";
  const current = table.current;
  if (current === null || current === undefined) {
    status.textContent = "Setting up the game";
    return;
  }
  const phase = PHASE_WORDS[table.phase] || `${table.phase ?? ""} phase`;
  status.textContent = `Turn ${table.turn ?? "-"} · ${name(current)}'s ${phase}`;
}

function renderEvent(replay) {
  const event = replay.event;
  $("current-event").textContent = event ? `${event.seq}. ${event.text}` : "Before the first event";
  const audit = $("current-audit");
  audit.hidden = !(event && CLAIM_EVENTS.has(event.type));
  if (event) {
    audit.href = auditPageUrl(event.seq);
    audit.dataset.seq = event.seq;
  }
}

function renderPrompts(prompts, as) {
  const section = $("prompts");
  section.hidden = !/^\d+$/.test(String(as)); // a seat's prompts; a spectator and the omniscient have none
  if (section.hidden) return;
  $("prompts-heading").textContent = `${name(Number(as))}'s prompts at this step`;
  const MAX_OPTIONS = 12;
  const items = prompts.map((p) => {
    const options = p.options || [];
    const shown = options.slice(0, MAX_OPTIONS).map((o) => el("li", { text: o.label }));
    if (options.length > MAX_OPTIONS) shown.push(el("li", { class: "more", text: `… and ${options.length - MAX_OPTIONS} more` }));
    return el(
      "li",
      { class: "prompt", "data-kind": p.kind },
      el("p", { text: `${p.text}${p.free ? " (any time)" : ""}` }),
      shown.length ? el("ul", { class: "options", "aria-label": "options" }, ...shown) : null,
    );
  });
  fill($("prompt-list"), ...(items.length ? items : [el("li", { class: "none", text: "Nothing to decide at this step." })]));
}

function renderPlay(table) {
  const action = table.action;
  const window_ = table.window;
  const challenge = table.challenge;
  const awaiting = table.awaiting || [];
  $("play").hidden = !(action || window_ || challenge || awaiting.length);
  const a = $("action");
  a.hidden = !action;
  if (action) {
    const claim = action.claim ? `, claiming the ${action.claim}` : "";
    const sanctioned = action.sanctioned ? " (SANCTIONED)" : "";
    const guardStatus = { claimed: "claimed", closed: "nobody called it", held: "it stands", failed: "it failed" };
    const guards = (action.guards || []).map(
      (g) => `${name(g.seat)} guards ${g.means === "card" ? "with a claimed card" : `with the ${g.means}`} (${guardStatus[g.status] || g.status})`,
    );
    const war = action.war ? [`war: ${name(action.war.attacker)} against ${name(action.war.defender)}, ${WAR_WORDS[action.war.stage] || action.war.stage}`] : [];
    const stage = STAGE_WORDS[action.stage] || action.stage;
    const declared = `${name(action.declarer)}'s ${actionWord(action.action)}${claim}${sanctioned}: ${stage}`;
    a.textContent = [declared, ...guards, ...war].join(" · ");
  }
  renderWindow(window_);
  const c = $("challenge");
  c.hidden = !challenge;
  if (challenge) {
    c.textContent = `${name(challenge.caller)} challenges ${name(challenge.claimant)}'s ${challenge.claim} (${challenge.about}) · ${challenge.stage}`;
  }
  const w = $("awaiting");
  w.hidden = !awaiting.length;
  w.textContent = awaiting.length ? `Waiting for: ${awaiting.map((n) => `${name(n.seat)} (${n.kind})`).join(", ")}` : "";
}

function actionWord(action) {
  return action ? `${action.charAt(0).toUpperCase()}${action.slice(1)}` : "action";
}

function renderWindow(window_) {
  const box = $("window");
  box.hidden = !window_;
  if (!window_) return fill(box);
  const waiting = new Set(window_.waiting_for || []);
  const answers = (window_.asked || []).map((seat) => {
    const given = (window_.answers || {})[String(seat)];
    let said;
    if (!given) said = waiting.has(seat) ? "not answered yet" : "no answer";
    else if (given.answer) said = `${given.answer}${given.means ? ` with ${given.means}` : ""}`;
    else said = "answered (what, this perspective cannot see yet)";
    return el("li", { "data-seat": seat }, el("strong", { text: name(seat) }), `: ${said}`);
  });
  const closes = window_.deadline ? ` · closes at ${new Date(window_.deadline * 1000).toLocaleTimeString()}` : "";
  fill(
    box,
    el("p", { class: "window-head", text: `${name(window_.claimant)} claims the ${window_.claim} (${window_.about === "guard" ? "to guard" : "for an action"}): the others answer${closes} (reaction window ${window_.id})` }),
    el("ul", { class: "answers", "aria-label": "answers" }, ...answers),
  );
}

function cardElement(card) {
  const node = el("span", { class: "card", "data-card": card.id });
  // each state said in words too (title, and the name a screen reader reads), not by its colour alone
  if (card.revealed) {
    node.classList.add("revealed");
    node.textContent = card.name;
    node.title = "revealed";
  } else if (card.name) {
    node.classList.add("known");
    node.textContent = card.name;
    node.title = card.discovery ? "face down, with a discovery token" : "face down, known to this perspective";
  } else {
    node.classList.add("hidden");
    node.textContent = "?";
    node.title = "face down, unknown to this perspective";
  }
  node.setAttribute("role", "img"); // a card's picture: its name and state are read as one (a plain span's label is not)
  node.setAttribute("aria-label", card.name ? `${card.name}, ${node.title}` : `a card ${node.title}`);
  return node;
}

function badge(text, kind) {
  return el("span", { class: `badge ${kind}`, text });
}

function renderSeats(table, as) {
  const boxes = table.players.map((p) => {
    const flags = [
      p.eliminated && "eliminated",
      p.resigned && "resigned",
      p.abandoned && "a bot plays on",
      p.mob && "played by the rules",
      String(p.seat) === String(as) && "this perspective",
    ].filter(Boolean);
    const box = el(
      "div",
      { class: "seat", "data-seat": p.seat },
      el("h3", { text: `${p.name}${flags.length ? ` (${flags.join(", ")})` : ""}` }),
      p.leader ? el("p", { class: "leader", text: `Leader: ${p.leader}` }) : null,
      el("div", { class: "cards" }, ...p.cards.map(cardElement)),
      el("p", { class: "meta", text: `${p.soldiers} soldier${p.soldiers === 1 ? "" : "s"} · ${p.revealed} revealed, ${p.unrevealed} face down` }),
      p.items && p.items.length ? el("p", { class: "items" }, "Items: ", ...p.items.map((i) => badge(i, i === "TREATY" ? "treaty" : "item"))) : null,
      p.sanctions && p.sanctions.length ? el("p", { class: "sanctions" }, "SANCTIONED: ", ...p.sanctions.map((s) => badge(actionWord(s), "sanction"))) : null,
      p.sacrifices ? el("p", { class: "meta", text: `Sacrifices: ${p.sacrifices}` }) : null,
    );
    if (p.seat === table.current) box.classList.add("current");
    if (p.eliminated) box.classList.add("eliminated");
    return box;
  });
  fill($("seats"), ...boxes);
}

function renderBoard(table) {
  const deck = table.deck || { size: 0 };
  // the whole order, when the perspective has it (the omniscient), says all that the known top would
  const known = deck.cards ? "" : (deck.known_top || []).map((c) => c.name).join(", ");
  $("deck").textContent = `Deck: ${deck.size} cards${known ? ` (known on top: ${known})` : ""}`;
  const order = $("deck-cards");
  order.hidden = !deck.cards;
  order.textContent = deck.cards ? `Deck, top first: ${deck.cards.map((c) => c.name).join(", ") || "empty"}` : "";
  const years = table.years || [];
  fill(
    $("years"),
    el("p", { class: "years-head", text: years.length ? "Years still to come:" : "No years left to come." }),
    years.length
      ? el(
          "ul",
          { class: "years", "aria-label": "years" },
          ...years.map((y) => {
            const parts = Object.entries(y.composition || {}).map(([card, n]) => `${card} ×${n}`);
            return el("li", { text: `Year ${y.year}: ${y.size} cards${parts.length ? ` (${parts.join(", ")})` : ""}` });
          }),
        )
      : null,
  );
  const reserve = Object.entries(table.reserve || {}).map(([item, n]) => `${item} ${n}`);
  $("reserve").textContent = reserve.length ? `Reserve: ${reserve.join(" · ")}` : "";
  const extras = [];
  if (table.rubble) extras.push(`Rubble: ${table.rubble.map((c) => c.name).join(", ") || "empty"}`);
  if (table.estate_deck) extras.push(`Estate deck: ${table.estate_deck.size} cards`);
  if (table.allies) {
    extras.push(`Allies: ${Object.entries(table.allies).map(([seat, with_]) => `${name(Number(seat))} with ${names(with_)}`).join("; ")}`);
  }
  if (table.overlord) extras.push(`Overlord: ${name(table.overlord.seat)}`);
  if (table.blasphemy) extras.push(`Blasphemy tokens: ${(table.blasphemy.tokens || []).length} of ${table.blasphemy.to_win}`);
  if (table.effects && table.effects.length) extras.push(`Effects in progress: ${table.effects.map((e) => e.source).join(", ")}`);
  $("extras").hidden = !extras.length;
  $("extras").textContent = extras.join(" · ");
}

// ----- the log: up to the step shown (the whole game once it is over, on request) -----

function renderLog() {
  const items = state.timeline.map((e) => {
    const li = el(
      "li",
      { value: e.seq, "data-seq": e.seq, class: e.undone ? "undone" : null, title: e.undone ? "undone by an undo claim" : null },
      el("a", { class: "step", href: replayUrl(e.seq) }, e.text, e.undone ? el("span", { class: "visually-hidden", text: " (undone by an undo claim)" }) : null),
      CLAIM_EVENTS.has(e.type) ? el("a", { class: "audit-link", href: auditPageUrl(e.seq), "aria-label": `audit of step ${e.seq}` }, "audit") : null,
      disputeMark(e.seq),
    );
    return li;
  });
  fill($("log"), ...items);
  if (state.shown) markLog(state.shown.step);
}

function markLog(step) {
  for (const li of $("log").children) {
    const seq = Number(li.dataset.seq);
    const hide = !state.whole && seq > step;
    if (li.hidden !== hide) li.hidden = hide;
    li.classList.toggle("current", seq === step);
    li.classList.toggle("future", seq > step);
    const link = li.firstElementChild;
    if (seq === step) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
  const current = $("log").querySelector("li.current");
  const focused = document.activeElement;
  if (focused && focused.closest && focused.closest("#log li[hidden]") && current) current.firstElementChild.focus();
  if (current) keepInView(current, $("log-box"));
}

function keepInView(item, box) {
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

// ----- the audit of a claim (GET /api/games/{id}/audit?step=N&as=P), shown in a panel -----

function auditUrl(step) {
  return `${gamePath}/audit?step=${step}&as=${enc(state.as)}`;
}

// the page at a claim's step with its audit open: a link an arbiter can cite, opened in a new tab or shared
function auditPageUrl(step) {
  return `${replayUrl(step)}&audit=${step}`;
}

let auditOpener = null;

async function openAudit(step, opener) {
  auditOpener = opener || null;
  state.audit = step;
  if (state.shown) permalink(state.shown.step);
  const panel = $("audit");
  panel.hidden = false;
  $("audit-heading").textContent = `Audit of the claim at step ${step}`;
  fill($("audit-body"), el("p", { text: "Loading…" }));
  $("audit-heading").focus();
  try {
    fill($("audit-body"), ...auditParts(await request(auditUrl(step))));
  } catch (err) {
    fill($("audit-body"), el("p", { class: "problem-text", text: `The audit is not available: ${err.message}` }));
  }
}

// a server time as an arbiter can cite it: the date and the time to the millisecond, in UTC
function citeTime(seconds) {
  return typeof seconds === "number" ? `${new Date(seconds * 1000).toISOString().replace("T", " ").replace("Z", "")} UTC` : null;
}

function auditParts(audit) {
  const who = audit.claimant ? audit.claimant.name : "?";
  const parts = [];
  if (audit.as === "omniscient" && state.as !== "omniscient") {
    // the game is over: the audit shows the whole record, whichever perspective the page shows
    parts.push(el("p", { class: "note", text: "The game is over: this audit shows the full record, not only what this perspective knew then." }));
  }
  parts.push(el("p", { text: `${audit.declared && audit.declared.text ? audit.declared.text : `${who} declared`} (step ${audit.declared ? audit.declared.seq : "?"})` }));
  const held = audit.claimant_held;
  if (held) {
    const holds = held.holds_claimed_card === null || held.holds_claimed_card === undefined ? "" : ` — ${held.holds_claimed_card ? "held" : "did not hold"} the ${audit.claim}`;
    parts.push(el("p", { text: `${who} held: ${held.cards.join(", ") || "no face-down card"}${holds}` }));
  } else {
    parts.push(el("p", { text: `What ${who} held is not known to ${perspectiveLabel(audit.as)} (yet).` }));
  }
  const knew = Object.entries(audit.others_knew || {}).map(([player, cards]) => el("li", { text: `${player} knew: ${cards.length ? cards.join(", ") : "none of them"}` }));
  if (knew.length) parts.push(el("ul", { "aria-label": "what the others knew" }, ...knew));
  const windows = (audit.windows || []).map((w) => {
    const opened = `opened at step ${w.opened_step}${citeTime(w.opened_at) ? ` (${citeTime(w.opened_at)})` : ""}`;
    const deadline = citeTime(w.deadline) ? `, deadline ${citeTime(w.deadline)}` : ", no deadline";
    const closedHow = { deadline: "its deadline", answers: "every answer", undo: "an undo claim" }[w.closed_by] || w.closed_by;
    const closed = w.closed_step === null || w.closed_step === undefined
      ? ", still open"
      : `, closed at step ${w.closed_step} by ${closedHow}${citeTime(w.closed_at) ? ` (${citeTime(w.closed_at)})` : ""}`;
    const silent = w.no_answer_from && w.no_answer_from.length ? `; no answer from ${w.no_answer_from.join(", ")}` : "";
    return el("li", { text: `Window ${w.window} (${w.about} of ${w.claimant}; asked: ${(w.asked || []).join(", ")}): ${opened}${deadline}${closed}${silent}` });
  });
  if (windows.length) parts.push(el("p", { text: "Reaction windows:" }), el("ul", { "aria-label": "reaction windows" }, ...windows));
  const answers = (audit.answers || []).map((a) => {
    const said = a.answer ? `${a.answer}${a.means ? ` with ${a.means}` : ""}` : "answered";
    const how = a.by_undo ? " by an undo claim, after the window's deadline" : "";
    const at = citeTime(a.at) ? ` at ${citeTime(a.at)}` : "";
    const undone = a.undone ? " (undone: the undo made it void)" : "";
    return el("li", { class: a.undone ? "undone" : null, text: `${a.name ?? name(a.seat)}: ${said}${how} (step ${a.step})${at}${undone}` });
  });
  parts.push(el("p", { text: answers.length ? "Answers:" : "No answers." }));
  if (answers.length) parts.push(el("ul", { "aria-label": "answers" }, ...answers));
  const undo = audit.undo;
  if (undo && undo.open) parts.push(el("p", { text: `Whether an undo can be claimed is not settled yet: ${undo.why}.` }));
  else if (undo) parts.push(el("p", { text: `An undo could ${undo.possible ? "" : "not "}have been claimed${undo.why ? `: ${undo.why}` : ""}.` }));
  if (undo && undo.claimed) {
    const span = undo.undone && undo.undone.length ? `steps ${undo.undone[0]} to ${undo.undone[1]}` : "nothing";
    const kept = undo.answers_kept && undo.answers_kept.length ? `, but for the answers given in the window (steps ${undo.answers_kept.join(", ")}), which stand` : "";
    parts.push(el("p", { text: `${undo.claimed_by} claimed the undo: it made ${span} void${kept}.` }));
  }
  const voided = new Set(state.timeline.filter((t) => t.undone).map((t) => t.seq));
  const followed = (audit.followed || []).map((f) => {
    const isVoid = voided.has(f.seq);
    return el("li", { class: isVoid ? "undone" : null }, el("a", { class: "followed", href: replayUrl(f.seq), "data-seq": f.seq }, `${f.seq}. ${f.text}${isVoid ? " (undone)" : ""}`));
  });
  if (followed.length) parts.push(el("p", { text: "What followed:" }), el("ol", { class: "followed-list" }, ...followed));
  return parts;
}

function closeAudit() {
  $("audit").hidden = true;
  state.audit = null;
  if (state.shown) permalink(state.shown.step);
  if (auditOpener && document.contains(auditOpener) && !auditOpener.closest("[hidden]")) auditOpener.focus();
  auditOpener = null;
}

// ----- friendly pages: an unknown game, a perspective not open yet, a bad link, a server out of reach -----

function showProblem(err) {
  $("viewer").hidden = true;
  $("controls").hidden = true;
  showError("");
  const status = err.status ?? 0;
  const ways = [];
  let heading;
  let hint;
  if (status === 404) {
    heading = "Nothing to replay here";
    hint = "Check the link: the game may not exist, or may not have started yet.";
    recentGames();
  } else if (status === 401) {
    heading = "This link's token is not valid for this game";
    hint = "A seat's link ends in #token= and the token its seat was given; this one is not a seat's or the host's token of this game. Anyone may watch the game as a spectator.";
    ways.push(el("li", {}, el("a", { href: `/replay/${enc(gameId)}?as=spectator`, id: "as-spectator" }, "Watch it as a spectator")));
  } else if (status === 403) {
    heading = `Not yet: ${perspectiveLabel(state.as)}'s view of this game is not open to you`;
    hint = "While a game is on, each player may replay it as themself (with their seat's link, ending in #token=…) and anyone may watch it as a spectator; every view opens once the game is over.";
    ways.push(el("li", {}, el("a", { href: `/replay/${enc(gameId)}?as=spectator`, id: "as-spectator" }, "Watch it as a spectator")));
  } else if (status === 400) {
    heading = "This link asks for something the replay cannot show";
    hint = "A perspective is a seat number, spectator or omniscient.";
    ways.push(el("li", {}, el("a", { href: `/replay/${enc(gameId)}?as=spectator`, id: "as-spectator" }, "Watch it as a spectator")));
  } else {
    heading = "The replay could not be loaded";
    hint = "The server may be busy or out of reach.";
    ways.push(el("li", {}, el("button", { type: "button", id: "retry" }, "Try again")));
  }
  if (history.length > 1) ways.push(el("li", {}, el("button", { type: "button", id: "go-back" }, "Go back")));
  $("problem-heading").textContent = heading;
  $("problem-detail").textContent = err.detail ? `The server says: ${err.detail}.` : "";
  $("problem-hint").textContent = hint;
  fill($("problem-ways"), ...ways);
  const retry = $("retry");
  if (retry) retry.addEventListener("click", () => location.reload());
  const back = $("go-back");
  if (back) back.addEventListener("click", () => history.back());
  document.title = `${heading} · Aegis replay`;
  $("problem").hidden = false;
  $("problem-heading").focus();
}

async function recentGames() {
  try {
    const found = await request("/api/games?status=finished&limit=5");
    const links = (found.games || []).map((g) => el("li", {}, el("a", { href: `/replay/${enc(g.id)}` }, `Replay finished game ${g.id}`)));
    $("problem-ways").prepend(...links);
  } catch {
    // the list is a courtesy: without it the page still says what went wrong
  }
}

// ----- loading and wiring -----

function fillPerspectives() {
  const choices = [
    ["spectator", "spectator"],
    ...state.seats.map((s) => [String(s.seat), `${s.name} (seat ${s.seat})`]),
    ["omniscient", "omniscient (everything)"],
  ];
  fill($("perspective"), ...choices.map(([value, label]) => el("option", { value }, label)));
  $("perspective").value = state.as;
}

async function switchPerspective(value) {
  const before = state.as;
  try {
    const timeline = await request(`${gamePath}/timeline?as=${enc(value)}`);
    state.as = value;
    state.timeline = timeline.events;
    $("audit").hidden = true;
    state.audit = null;
    renderLog();
    want(nav.wanted);
  } catch (err) {
    $("perspective").value = before;
    const why = err.status === 403 ? "it is not open to you yet" : "it could not be loaded";
    showError(`${perspectiveLabel(value)}'s view: ${why} (${err.message}).`);
  }
}

async function load() {
  $("game-id").textContent = gameId;
  let last;
  try {
    last = await request(`${gamePath}/replay?as=${enc(state.as)}`);
  } catch (err) {
    showProblem(err);
    return;
  }
  state.steps = last.steps;
  state.seats = last.seats;
  state.as = String(last.as ?? state.as);
  state.finished = last.table && last.table.status === "finished";
  $("slider").max = String(state.steps);
  fillPerspectives();
  $("whole-game-switch").hidden = !state.finished;
  $("branch").hidden = !state.finished;
  $("review-link").hidden = !state.finished; // the review, like the odds, is for finished games only
  try {
    state.timeline = (await request(`${gamePath}/timeline?as=${enc(state.as)}`)).events;
  } catch (err) {
    showProblem(err);
    return;
  }
  renderLog();
  loadDisputes();
  const raw = params.get("step");
  const asked = raw === null ? state.steps : /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN; // below 0: the first
  nav.wanted = clampStep(asked);
  if (raw !== null && asked !== nav.wanted) {
    state.notice = `The link asks for step "${raw}", which this game does not have (its steps are 0 to ${state.steps}): here is step ${nav.wanted}.`;
  }
  if (nav.wanted === last.step) render(last, state.as);
  else {
    showWanted(); // not want(): the link's notice stays until the reader moves
    pump();
  }
  const cited = params.get("audit"); // a link with ?audit=N opens that claim's audit, as it was shared
  if (cited !== null && /^\d+$/.test(cited.trim())) openAudit(Number(cited), null);
  follow();
}

// ----- a game still on: its new steps as they are played -----
// The spectator's event stream, resumed after the last step known: every event's seq (it shows nothing hidden, and
// needs no token in its URL), whatever perspective the page shows. A reader at the last step follows the game; one
// elsewhere stays where they are, the slider and "last" reaching the new steps. Once the game is over every view
// opens, so the page loads again (at the step its address holds).

let following = null;
const timelineRead = { busy: false, again: false };

function follow() {
  if (state.finished || following || typeof EventSource === "undefined") return;
  following = new EventSource(`${gamePath}/stream?last_event_id=${state.steps}`);
  following.onmessage = (e) => {
    const seq = Number(e.lastEventId);
    if (seq > state.steps) grew(seq);
  };
  following.addEventListener("end", () => {
    following.close();
    following = null;
    location.reload();
  });
}

function grew(seq) {
  const atLast = nav.wanted === state.steps;
  state.steps = seq;
  $("slider").max = String(seq);
  if (atLast) want(seq);
  else showWanted();
  readTimeline();
}

async function readTimeline() {
  if (timelineRead.busy) {
    timelineRead.again = true; // a command brings several events at once: one more read after this one
    return;
  }
  timelineRead.busy = true;
  try {
    state.timeline = (await request(`${gamePath}/timeline?as=${enc(state.as)}`)).events;
    renderLog();
  } catch {
    // the next step heard reads it again
  } finally {
    timelineRead.busy = false;
    if (timelineRead.again) {
      timelineRead.again = false;
      readTimeline();
    }
  }
}

function wire() {
  $("first").addEventListener("click", () => want(0));
  $("prev").addEventListener("click", () => want(nav.wanted - 1));
  $("next").addEventListener("click", () => want(nav.wanted + 1));
  $("last").addEventListener("click", () => want(state.steps));
  $("slider").addEventListener("input", (e) => want(Number(e.target.value)));
  // a long game on a phone: the slider cannot land on one step, so a step number, and the claims one by one
  $("goto-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = $("goto").value.trim();
    if (/^\d+$/.test(value)) want(Number(value));
    else showError(`"${value}" is not a step number: give one from 0 to ${state.steps}.`);
  });
  $("prev-claim").addEventListener("click", () => jumpToClaim(-1));
  $("next-claim").addEventListener("click", () => jumpToClaim(1));
  $("perspective").addEventListener("change", (e) => switchPerspective(e.target.value));
  $("whole-game").addEventListener("change", (e) => {
    state.whole = e.target.checked;
    if (state.shown) markLog(state.shown.step);
  });
  $("log").addEventListener("click", (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return; // a new tab or window: the link as it is
    const li = e.target.closest("li");
    if (!li) return;
    e.preventDefault();
    const seq = Number(li.dataset.seq);
    if (e.target.closest("a.audit-link")) openAudit(seq, e.target.closest("a"));
    else want(seq);
  });
  $("current-audit").addEventListener("click", (e) => {
    e.preventDefault();
    openAudit(Number(e.currentTarget.dataset.seq), e.currentTarget);
  });
  $("audit-body").addEventListener("click", (e) => {
    const link = e.target.closest("a.followed");
    if (!link || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    want(Number(link.dataset.seq));
  });
  $("audit-close").addEventListener("click", closeAudit);
  $("branch-here").addEventListener("click", () => branchHere(null, null));
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || $("viewer").hidden) return;
    const tag = e.target.tagName;
    if ((tag === "INPUT" && e.target.type !== "checkbox") || tag === "SELECT" || tag === "TEXTAREA") return;
    const moves = { ArrowRight: () => nav.wanted + 1, ArrowLeft: () => nav.wanted - 1, Home: () => 0, End: () => state.steps };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    want(move());
  });
}

// ===== Parts read from fields and endpoints other helpers add; each tolerates its absence =====

// ----- odds (the replay's `odds`: {claimant, claim, about, probability, as, held}, or null) -----

function renderOdds(odds) {
  const line = $("odds");
  line.hidden = !odds;
  if (!odds) return;
  const pct = Math.round(Number(odds.probability) * 100);
  const what = odds.about === "guard" ? `the ${odds.claim} to guard with` : `the ${odds.claim}`;
  // what the perspective knew then, and apart from it what only the end of the game told (hindsight, said as such)
  const known = odds.held === null || odds.held === undefined;
  const truth = known ? "" : ` Known after the game: ${name(odds.claimant)} ${odds.held ? "held it" : "did not hold it"}.`;
  line.textContent = `As ${perspectiveLabel(odds.as)} knew then: ${pct}% that ${name(odds.claimant)} held ${what}.${truth}`;
}

// ----- lineage (the replay's `branch_of`: {game, step} | null, `branches`: [{id, step}]) and branching -----

function renderLineage(branchOf, branches, copied) {
  const parts = [];
  if (branchOf) {
    parts.push("Branched from ", el("a", { id: "branch-of", href: replayUrl(branchOf.step, state.as, branchOf.game) }, `game ${branchOf.game} at step ${branchOf.step}`), ". ");
    if (copied) parts.push(el("strong", { id: "copied" }, "This step is the original game's, played by its players; the branch begins after it."), " ");
  }
  if (branches && branches.length) {
    // the newest few in the line, the rest folded: anyone may branch a finished game, and a long list must not push
    // the table off a phone's screen; each named by its step (its id in the title, for who needs it)
    const link = (b) => el("a", { class: "branch", href: replayUrl(b.step, "spectator", b.id), title: `game ${b.id}` }, `at step ${b.step}`);
    const newest = branches.slice(-3).reverse();
    const older = branches.slice(0, -3).reverse();
    parts.push(`${branches.length === 1 ? "A branch" : `${branches.length} branches`}: `);
    newest.forEach((b, i) => parts.push(...(i ? [", ", link(b)] : [link(b)])));
    if (older.length) {
      const list = el("ul", { class: "older-branches" }, ...older.map((b) => el("li", {}, link(b))));
      parts.push(" ", el("details", { class: "more-branches" }, el("summary", { text: `${older.length} older` }), list));
    }
  }
  fill($("lineage"), ...parts);
  $("lineage").hidden = !parts.length;
}

// the moves a seat could have made at the step shown, as branches: each complete option of its prompts, and each
// choice of an option with one parameter of one pick (a war's target); a few dozen at most
function branchMoves(prompts) {
  const moves = [];
  for (const p of prompts || []) {
    if (p.free) continue;
    for (const o of p.options || []) {
      const params = o.params || [];
      if (!params.length) moves.push({ label: o.label, command: o.command });
      else if (params.length === 1 && params[0].max === 1)
        for (const c of params[0].choices) moves.push({ label: `${o.label.replace(/…$/, "")}${c.label}`, command: { ...o.command, [params[0].name]: c.value } });
    }
  }
  return moves.slice(0, 24);
}

function renderBranchPanel() {
  const replay = state.shown;
  const seat = /^\d+$/.test(String(state.as)) ? Number(state.as) : null;
  const last = replay && replay.step >= state.steps; // the game is over after it: nothing to play on
  $("branch-here").disabled = !!last;
  $("branch-intro").textContent = last
    ? "The game is over after this step: there is nothing to play on from it. Step back to a decision."
    : "Play the game again from this step: on as it went, or with another move.";
  const moves = !last && seat !== null && replay ? branchMoves(replay.prompts) : [];
  fill(
    $("branch-moves"),
    moves.length ? el("p", { text: `Or what if ${name(seat)} had chosen:` }) : null,
    moves.length
      ? el("ul", { class: "branch-moves", "aria-label": "moves to branch with" }, ...moves.map((m) => el("li", {}, moveButton(m, seat))))
      : null,
  );
  $("branch-deal-choice").hidden = seat === null || !!last;
  if (seat !== null) $("branch-as-known-label").textContent = `deal again the cards ${name(seat)} could not know then`;
}

function moveButton(move, seat) {
  const button = el("button", { type: "button", class: "branch-move" }, move.label);
  button.addEventListener("click", () => branchHere({ ...move.command, seat }, move.label));
  return button;
}

async function branchHere(command, label) {
  const buttons = [$("branch-here"), ...document.querySelectorAll(".branch-move")];
  const out = $("branch-result");
  const step = state.shown ? state.shown.step : nav.wanted;
  const seat = /^\d+$/.test(String(state.as)) ? Number(state.as) : null;
  const asKnown = seat !== null && $("branch-as-known").checked;
  const body = { step, deal: asKnown ? "as_known" : "same" };
  if (asKnown) body.as = seat;
  if (command && command.type) body.command = command;
  buttons.forEach((b) => (b.disabled = true));
  fill(out, el("p", { text: `Branching at step ${step}…` }));
  try {
    const made = await request(`${gamePath}/branches`, { method: "POST", body });
    const how = label ? `, where ${name(seat)} plays “${label}”` : "";
    const play = el("p", { id: "branch-play" }, el("button", { type: "button", id: "branch-bots" }, "Play it out with bots"));
    if (seat !== null) play.append(" ", el("button", { type: "button", id: "branch-me" }, `Play ${name(seat)} myself, bots at the other seats`));
    fill(
      out,
      el("p", { text: `New game ${made.id}, from step ${made.step}${how}.` }),
      play,
      el("p", { class: "warning", text: "Its host token is shown only this once: keep it now, it is the only way to start and run the new game." }),
      el("p", {}, "Host token: ", el("code", { id: "host-token", text: made.host_token })),
      el(
        "p",
        { id: "branch-next" },
        "Or seat it yourself: it waits in the lobby until its seats are taken (",
        el("code", { text: `POST /api/games/${made.id}/seats` }),
        ", once per seat: a name, or a bot) and the host starts it (",
        el("code", { text: `POST /api/games/${made.id}/start` }),
        " with the host token); its replay opens then.",
      ),
      el("p", {}, el("a", { id: "branch-link", href: replayUrl(made.step, "spectator", made.id) }, "Replay the new game (once it has started)")),
    );
    $("branch-bots").addEventListener("click", () => playBranch(made, null));
    if (seat !== null) $("branch-me").addEventListener("click", () => playBranch(made, seat));
  } catch (err) {
    const why = err.status === 404 || err.status === 405 ? "this server does not branch games" : err.message;
    fill(out, el("p", { class: "problem-text", text: `Could not branch: ${why}.` }));
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    renderBranchPanel();
  }
}

// seat a new branch (bots everywhere, or the reader at ``seat`` as a guest and bots elsewhere), start it, and open
// its replay where it begins; the reader's seat token rides in the link's #token=, which the page takes out at once
async function playBranch(made, seat) {
  const out = $("branch-play");
  const path = `/api/games/${enc(made.id)}`;
  fill(out, el("span", { text: "Seating the new game and starting it…" }));
  const post = (url, body, auth = null) => request(url, { method: "POST", body, auth });
  try {
    let mine = null;
    for (;;) {
      // the next seat a request takes is the first free one (a seat the rules play fills itself, R173)
      const lobby = await request(`${path}/view`, { auth: null });
      const taken = new Set((lobby.seats || []).map((s) => s.seat));
      if (taken.size >= lobby.seats_total) break;
      let next = 0;
      while (taken.has(next)) next += 1;
      if (next === seat) mine = (await post(`${path}/seats`, { name: `${name(seat)} (what if)`.slice(0, 40) })).token;
      else await post(`${path}/seats`, { bot: "cautious" });
    }
    await post(`${path}/start`, {}, made.host_token);
    location.href = replayUrl(made.step, seat === null ? "spectator" : seat, made.id) + (mine ? `#token=${enc(mine)}` : "");
  } catch (err) {
    fill(out, el("span", { class: "problem-text", text: `Could not start the new game: ${err.message}. Its host token below still starts it.` }));
  }
}

// ----- disputes (GET /api/games/{id}/disputes: {disputes: [{id, step, status, text, comments, votes, verdict}]}) -----

async function loadDisputes() {
  let found;
  try {
    found = await request(`${gamePath}/disputes`);
  } catch {
    return; // no disputes endpoint (or none readable): the replay goes on without them
  }
  state.disputes = new Map();
  for (const d of (found && found.disputes) || []) {
    if (!state.disputes.has(d.step)) state.disputes.set(d.step, []);
    state.disputes.get(d.step).push(d);
  }
  renderLog();
  if (state.shown) renderStepDisputes(state.shown.step);
}

function disputeMark(step) {
  const found = state.disputes.get(step);
  if (!found || !found.length) return null;
  return el("span", { class: "dispute-mark", title: "disputed" }, `⚑ ${found.length} dispute${found.length > 1 ? "s" : ""}`);
}

function words(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  return Object.entries(value)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k}: ${v}`)
    .join(" · ");
}

function verdictWords(v) {
  // {verdict: "upheld"|"dismissed", text, by: "moderator"|"majority"}
  if (typeof v !== "object" || v === null) return `Verdict: ${words(v)}`;
  const by = v.by === "majority" ? "the table's majority" : v.by === "moderator" ? "a moderator" : v.by;
  return `Verdict${by ? ` of ${by}` : ""}: ${v.verdict}${v.text ? ` (${v.text})` : ""}`;
}

function renderStepDisputes(step) {
  const found = state.disputes.get(step) || [];
  $("step-disputes").hidden = !found.length;
  const items = found.map((d) => {
    const comments = (d.comments || []).map((c) => el("li", { text: typeof c === "object" && c !== null ? `${c.by ?? "someone"}: ${c.text ?? ""}` : words(c) }));
    const votes = (d.votes || []).map((v) => el("li", { text: `${v.by ?? "someone"} votes ${v.verdict}${v.text ? `: ${v.text}` : ""}` }));
    return el(
      "li",
      { class: "dispute", "data-dispute": d.id },
      el("p", { text: `${d.status}${d.by ? `, opened by ${d.by}` : ""}: ${d.text}` }),
      comments.length ? el("ul", { class: "comments", "aria-label": "comments" }, ...comments) : null,
      votes.length ? el("ul", { class: "votes", "aria-label": "votes" }, ...votes) : null,
      d.verdict ? el("p", { class: "verdict", text: verdictWords(d.verdict) }) : null,
    );
  });
  fill($("dispute-list"), ...items);
}

wire();
load();
