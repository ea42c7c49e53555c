// The library's web front: signs a client in, draws the screen the server sends (the sections document of
// `GET /v1/screen`), performs its actions, and keeps it live by applying each change set the server streams.
// It knows the documented API and nothing about books.

import { ProblemError, SignedOut, Unreachable, getJSON, newIdempotencyKey, request, session, signIn, signOut } from "./api.js";
import { ChangeMismatch, applyChanges } from "./changes.js";
import { LiveScreen } from "./live.js";
import { draw, showStatus } from "./render.js";

const $ = (selector) => document.querySelector(selector);
const QUERY_KEY = "librarycli.query";

// Page options from its own address: ?changes=batch-safe asks for that form of change set, ?live=poll long-polls.
const options = new URLSearchParams(location.search);
const form = options.get("changes") === "batch-safe" ? "batch-safe" : "standard";
const liveMode = options.get("live") === "poll" ? "poll" : "stream";

const state = {
  query: "",
  etag: "",
  screen: null,
  live: null,
  statuses: new Map(),
  generation: 0,
  counts: { applied: 0, reloads: 0, mismatches: 0 },
};

const root = () => $("#screen");

function setNotice(text) {
  const notice = $("#notice");
  notice.textContent = text || "";
  notice.hidden = !text;
}

function announce(text) {
  const announcer = $("#announcer");
  announcer.textContent = "";
  // A new text node each time, so the same words are read out again.
  if (text) setTimeout(() => { announcer.textContent = text; }, 50);
}

function publish() {
  const node = root();
  node.dataset.etag = state.etag;
  node.dataset.applied = String(state.counts.applied);
  node.dataset.reloads = String(state.counts.reloads);
  node.dataset.mismatches = String(state.counts.mismatches);
}

// MARK: - Sign-in

async function showSignIn(message) {
  stopLive();
  state.screen = null;
  root().replaceChildren();
  root().hidden = true;
  $("#sign-out").hidden = true;
  $("#who").textContent = "";
  $("#sign-in").hidden = false;
  $("#sign-in-error").textContent = message || "";
  $("#pin").value = "";
  $("#card").focus();
  try {
    const { json } = await getJSON("/v1/demo", { attempts: 2 });
    const list = $("#demo-clients");
    list.replaceChildren();
    for (const client of json.clients || []) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button demo-client";
      const name = document.createElement("bdi");
      name.textContent = client.name;
      button.append(name, ` · ${client.cardNumber} · PIN ${client.pin}`);
      button.addEventListener("click", () => {
        $("#card").value = client.cardNumber;
        $("#pin").value = client.pin;
        $("#sign-in-submit").focus();
      });
      item.append(button);
      list.append(item);
    }
    $("#demo").hidden = !json.demo || list.childElementCount === 0;
  } catch {
    $("#demo").hidden = true;
  }
}

async function submitSignIn(event) {
  event.preventDefault();
  const card = $("#card").value.trim();
  const pin = $("#pin").value;
  const error = $("#sign-in-error");
  if (!card || !pin) {
    error.textContent = "Give your card number and your PIN.";
    return;
  }
  const button = $("#sign-in-submit");
  button.disabled = true;
  error.textContent = "";
  try {
    await signIn(card, pin);
    $("#sign-in").hidden = true;
    state.query = "";
    sessionStorage.removeItem(QUERY_KEY);
    await showScreen();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

async function doSignOut() {
  const button = $("#sign-out");
  button.disabled = true;
  stopLive();
  await signOut();
  button.disabled = false;
  sessionStorage.removeItem(QUERY_KEY);
  await showSignIn("You are signed out.");
}

// MARK: - The screen

function stopLive() {
  state.generation += 1;
  state.live?.stop();
  state.live = null;
}

const ui = {
  perform,
  navigate,
  explain(owner, action) {
    say(owner, action.reason || "This cannot be done right now.");
  },
  statusOf(owner) {
    return state.statuses.get(owner) || "";
  },
  currentSearch() {
    return new URLSearchParams(state.query).get("search") || "";
  },
};

function say(owner, text) {
  if (text) state.statuses.set(owner, text);
  else state.statuses.delete(owner);
  const line = showStatus(root(), owner, text);
  if (!line && text) announce(text);
}

function redraw() {
  draw(root(), state.screen, ui);
  publish();
}

/** Loads the screen for the current query and follows it live. */
async function showScreen() {
  stopLive();
  const generation = state.generation;
  $("#sign-in").hidden = true;
  $("#sign-out").hidden = false;
  $("#who").textContent = session.card ? `Card ${session.card}` : "";
  root().hidden = false;
  root().setAttribute("aria-busy", "true");
  try {
    const { json, etag } = await getJSON(`/v1/screen${state.query}`);
    if (generation !== state.generation) return;
    state.screen = { sections: json.sections, emptyState: json.emptyState ?? null };
    state.etag = etag;
    setNotice("");
    redraw();
    follow(generation);
  } catch (error) {
    if (generation !== state.generation) return;
    if (error instanceof SignedOut) return showSignIn(error.message);
    if (error instanceof ProblemError && error.status === 400 && state.query) {
      // A screen the server no longer accepts (a search too long, a page out of range): back to the first.
      state.query = "";
      sessionStorage.removeItem(QUERY_KEY);
      return showScreen();
    }
    setNotice(`${error.message} The page tries again in a few seconds.`);
    setTimeout(() => { if (generation === state.generation) showScreen(); }, 3000);
  } finally {
    root().removeAttribute("aria-busy");
  }
}

function follow(generation) {
  const live = new LiveScreen({
    query: state.query,
    etag: state.etag,
    form,
    mode: liveMode,
    onChanges: (body, etag) => {
      if (generation === state.generation) receive(body, etag);
    },
    onSignedOut: (error) => {
      if (generation === state.generation) showSignIn(error.message);
    },
    onState: (live) => {
      root().dataset.live = live;
      setNotice(live === "reconnecting" ? "Reconnecting to the library…" : "");
    },
  });
  state.live = live;
  live.start();
}

/** One answer of the live feed: a change set from the version shown, or the whole document. */
function receive(body, etag) {
  if (body.changes === null || body.changes === undefined) {
    state.screen = { sections: body.sections || [], emptyState: body.emptyState ?? null };
    state.etag = etag;
    state.counts.reloads += 1;
    redraw();
    return;
  }
  try {
    state.screen = applyChanges(state.screen, body.changes);
  } catch (error) {
    if (!(error instanceof ChangeMismatch)) throw error;
    // It cannot happen if the contract holds; should it, the whole screen is read again.
    console.warn(error.message);
    state.counts.mismatches += 1;
    showScreen();
    return;
  }
  state.etag = etag;
  state.counts.applied += 1;
  forgetGoneStatuses();
  redraw();
  announce(describe(body.changes));
}

/** Statuses of items that are no longer on the screen go with them. */
function forgetGoneStatuses() {
  const owners = new Set();
  for (const section of state.screen.sections) {
    for (const item of section.items) owners.add(item.id);
    for (const supplementary of section.supplementaries) owners.add(`${section.id}/${supplementary.kind}/${supplementary.id}`);
  }
  for (const owner of state.statuses.keys()) if (!owners.has(owner)) state.statuses.delete(owner);
}

/** A few words on what changed, for screen readers: "Your books: 1 added. Library: 2 changed." */
function describe(changes) {
  const names = new Map();
  for (const section of state.screen.sections) {
    const header = section.supplementaries.find((supplementary) => supplementary.kind === "header");
    names.set(section.id, header?.title || section.id);
  }
  const counts = new Map();
  const count = (section, what) => {
    const entry = counts.get(section) || { added: 0, removed: 0, changed: 0 };
    entry[what] += 1;
    counts.set(section, entry);
  };
  for (const entry of changes.items.inserted) count(entry.section, "added");
  for (const entry of changes.items.deleted) count(entry.section, "removed");
  for (const entry of changes.items.moved) {
    if (entry.fromSection !== entry.toSection) {
      count(entry.fromSection, "removed");
      count(entry.toSection, "added");
    }
  }
  for (const entry of changes.items.updated) count(entry.section, "changed");
  const parts = [];
  for (const [section, entry] of counts) {
    const words = Object.entries(entry).filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`);
    if (words.length) parts.push(`${names.get(section) || section}: ${words.join(", ")}.`);
  }
  return parts.join(" ");
}

function navigate(href) {
  const at = href.indexOf("?");
  state.query = at >= 0 ? href.slice(at) : "";
  sessionStorage.setItem(QUERY_KEY, state.query);
  state.statuses.clear();
  showScreen().then(() => {
    // The control used stays focused when it is still there (a search box, a paging button); else the screen.
    if (document.activeElement === document.body) $("#screen").focus({ preventScroll: true });
  });
}

/** Performs an action's request with a fresh Idempotency-Key (reused by every retry of this one tap). */
async function perform(action, owner, button) {
  if (button.getAttribute("aria-busy") === "true") return;
  const key = newIdempotencyKey();
  const title = button.textContent;
  button.setAttribute("aria-busy", "true");
  button.textContent = `${action.title}…`;
  say(owner, "");
  try {
    await request(action.method, action.href, { body: action.body, idempotencyKey: key });
    // Done: the screen changes when the live feed brings the change set, as for a change made anywhere else.
  } catch (error) {
    if (error instanceof SignedOut) return showSignIn(error.message);
    const words = error instanceof ProblemError || error instanceof Unreachable ? error.message : String(error);
    say(owner, words);
  } finally {
    button.removeAttribute("aria-busy");
    button.textContent = title;
  }
}

// MARK: - Start

function start() {
  $("#sign-in-form").addEventListener("submit", submitSignIn);
  $("#sign-out").addEventListener("click", doSignOut);
  state.query = sessionStorage.getItem(QUERY_KEY) || "";
  if (session.token) showScreen();
  else showSignIn();
}

start();
