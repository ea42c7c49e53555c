// The library's web front: signs a client in, draws the screen the server sends (the sections document of
// `GET /v1/screen`), performs its actions, and keeps it live by applying each change set the server streams.
// It knows the documented API and nothing about books.

import {
  ProblemError, SignedOut, Unreachable, endPendingSession, getJSON, newIdempotencyKey, request, session, signIn, signOut,
} from "./api.js";
import { ChangeMismatch, applyChanges } from "./changes.js";
import { LiveScreen } from "./live.js";
import { describe, draw, focusSection, markCut, sectionNode, showStatus, summarize } from "./render.js";

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
  // A navigation not yet drawn (the screen could not be read yet): what to read out and where the focus goes, once it
  // is, whichever attempt draws it.
  arrival: null,
  counts: { applied: 0, reloads: 0, mismatches: 0 },
};

const root = () => $("#screen");

/** Shows (or, with "", hides) the connection notice. It is an alert, read out whenever its text is set: the same words
 * again (another failed reconnect, another failed retry) are not written again, so each is read out once. */
function setNotice(text) {
  const notice = $("#notice");
  if (notice.textContent === (text || "")) return;
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

/** The sign-in page: whatever signed the page out (Sign out, a 401, a revoked token), the token is forgotten here
 * and the screen, its statuses and the connection notice go. */
async function showSignIn(message) {
  stopLive();
  session.clear();
  state.arrival = null;
  state.screen = null;
  state.statuses.clear();
  setNotice("");
  root().replaceChildren();
  root().hidden = true;
  $("#screen-title").hidden = true;
  $("#sign-out").hidden = true;
  $("#who").textContent = "";
  $("#sign-in").hidden = false;
  $("#sign-in-error").textContent = message || "";
  $("#pin").value = "";
  $("#card").focus();
  await showDemoClients(state.generation);
}

/** The demo clients (a public route: no token goes with it). While the library cannot be reached it asks again
 * every few seconds, for as long as the sign-in page is shown. */
async function showDemoClients(generation) {
  try {
    const { json } = await getJSON("/v1/demo", { attempts: 2, signedIn: false });
    // The library answers: a session a Sign out could not end while it was away is ended now, and the sign-in page
    // no longer says it is not (unless it says something else by now, such as a refused sign-in).
    const ended = await endPendingSession();
    if (generation !== state.generation) return;
    const said = $("#sign-in-error");
    if (ended === "ended" && said.textContent === SIGNED_OUT_UNREACHABLE) said.textContent = SIGNED_OUT_LATER;
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
  } catch (error) {
    if (generation !== state.generation) return;
    $("#demo").hidden = true;
    if (!(error instanceof ProblemError) || error.status >= 500) {
      setTimeout(() => { if (generation === state.generation) showDemoClients(generation); }, 3000);
    }
  }
}

async function submitSignIn(event) {
  event.preventDefault();
  const card = $("#card").value.trim();
  const pin = $("#pin").value;
  const error = $("#sign-in-error");
  if (!card || !pin) {
    error.textContent = "Give your card number and your PIN.";
    (card ? $("#pin") : $("#card")).focus();
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
    // The form is gone with the focus in it: the focus goes to the top of the screen.
    if (!$("#screen-title").hidden) $("#screen-title").focus();
  } catch (failure) {
    error.textContent = failure.message;
    // The focus left the button when it was disabled: it goes to the PIN, to be typed again (the error is read out).
    button.disabled = false;
    if (document.activeElement === document.body || document.activeElement === button) {
      $("#pin").focus();
      $("#pin").select();
    }
  } finally {
    button.disabled = false;
  }
}

/** What the sign-in page says after a Sign out that could not reach the library, and once it ended the session. */
const SIGNED_OUT_UNREACHABLE = "The library could not be reached, so your session could not be ended on the server " +
  "yet; this page has forgotten it, and ends it there as soon as the library can be reached again.";
const SIGNED_OUT_LATER = "You are signed out: the library can be reached again, and your session there has ended.";

async function doSignOut() {
  const button = $("#sign-out");
  button.disabled = true;
  stopLive();
  const ended = await signOut();
  button.disabled = false;
  sessionStorage.removeItem(QUERY_KEY);
  await showSignIn(ended ? "You are signed out." : SIGNED_OUT_UNREACHABLE);
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
  explain(owner, reason) {
    // Shown under the button already (and marked by the click): read out, not written a second time.
    announce(reason);
  },
  statusOf(owner) {
    return state.statuses.get(owner)?.text || "";
  },
  currentSearch() {
    return new URLSearchParams(state.query).get("search") || "";
  },
};

/**
 * Says `text` on an item's (or supplementary's) status line. It stays as long as what it is about does: it goes when
 * that item's content changes (or the item goes), and a connection failure goes as soon as the library answers
 * again.
 */
function say(owner, text, { connection = false } = {}) {
  if (text) state.statuses.set(owner, { text, content: contentOf(owner), connection });
  else state.statuses.delete(owner);
  const line = showStatus(root(), owner, text);
  if (!line && text) announce(text);
}

/** The content (as JSON) of the item or supplementary that owns a status line, undefined when it is not shown. */
function contentOf(owner) {
  for (const section of state.screen?.sections || []) {
    for (const item of section.items) if (item.id === owner) return JSON.stringify(item);
    for (const supplementary of section.supplementaries) {
      if (`${section.id}/${supplementary.kind}/${supplementary.id}` === owner) return JSON.stringify(supplementary);
    }
  }
  return undefined;
}

/** Forgets the statuses that are no longer true: their owner changed or went (or, with `connection`, the library
 * answered again after a connection failure). */
function forgetStaleStatuses({ connection = false } = {}) {
  for (const [owner, status] of state.statuses) {
    if ((connection && status.connection) || contentOf(owner) !== status.content) {
      state.statuses.delete(owner);
      showStatus(root(), owner, "");
    }
  }
}

function redraw() {
  draw(root(), state.screen, ui);
  publish();
}

/** Loads the screen for the current query and follows it live. Resolves true when it drew it (false when it could
 * not be read: the page says so and tries again, or it signed out). */
async function showScreen() {
  stopLive();
  const generation = state.generation;
  $("#sign-in").hidden = true;
  $("#screen-title").hidden = false;
  $("#sign-out").hidden = false;
  $("#who").textContent = session.card ? `Card ${session.card}` : "";
  root().hidden = false;
  root().setAttribute("aria-busy", "true");
  try {
    const { json, etag } = await getJSON(`/v1/screen${state.query}`);
    if (generation !== state.generation) return false;
    state.screen = { sections: json.sections, emptyState: json.emptyState ?? null };
    state.etag = etag;
    setNotice("");
    const arrival = state.arrival;
    state.arrival = null;
    // Drawn by a later attempt: the focus moves only if it is still where the navigation left it.
    const moveFocus = arrival && (!arrival.retried || document.activeElement === document.body ||
      Boolean(arrival.from?.contains(document.activeElement)));
    redraw();
    follow(generation);
    if (arrival) arrive(arrival, moveFocus);
    return true;
  } catch (error) {
    if (generation !== state.generation) return false;
    if (error instanceof SignedOut) {
      await showSignIn(error.message);
      return false;
    }
    if (error instanceof ProblemError && error.status === 400 && state.query) {
      // A screen the server no longer accepts (a search too long, a page out of range): back to the first.
      state.query = "";
      sessionStorage.removeItem(QUERY_KEY);
      return showScreen();
    }
    const words = error instanceof Unreachable ? "The library cannot be reached right now." : error.message;
    setNotice(`${words} The page tries again in a few seconds.`);
    if (state.arrival) state.arrival.retried = true;
    setTimeout(() => { if (generation === state.generation) showScreen(); }, 3000);
    return false;
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
      if (generation !== state.generation) return;
      root().dataset.live = live;
      setNotice(live === "reconnecting" ? "Reconnecting to the library…" : "");
      if (live === "live") forgetStaleStatuses({ connection: true });
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
    forgetStaleStatuses({ connection: true });
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
  forgetStaleStatuses({ connection: true });
  redraw();
  announce(describe(state.screen, body.changes));
}

/**
 * Shows another screen (a search, another page, more items), from the control `from` (a search box, a paging
 * button) in one of the sections. Once drawn (by this attempt or, when the library cannot be reached, a later one),
 * that section's own words are read out ("Library (49). Page 2 of 3 · 49 books.", "No books match “zzzz”."), and the
 * focus goes where the new items are: after a search it stays in the search box; when the section kept its items and
 * has more ("Load more"), to the first new one; when it shows others (another page), to the section's heading.
 */
function navigate(href, from = null) {
  const at = href.indexOf("?");
  state.query = at >= 0 ? href.slice(at) : "";
  sessionStorage.setItem(QUERY_KEY, state.query);
  for (const owner of state.statuses.keys()) showStatus(root(), owner, "");
  state.statuses.clear();
  const sectionId = from?.closest("section[data-section-id]")?.dataset.sectionId ?? null;
  state.arrival = {
    from,
    sectionId,
    searching: Boolean(from?.closest("form.search")),
    before: itemIdsOf(sectionId),
    retried: false,
  };
  showScreen();
}

/** The ids of the items a section shows, in order. */
function itemIdsOf(sectionId) {
  return [...(sectionNode(root(), sectionId)?.querySelectorAll(":scope > .items > .item") || [])]
    .map((item) => item.dataset.itemId);
}

/** What follows a navigation once its screen is drawn: the section's words read out and, with `moveFocus`, the focus
 * where the new items are. */
function arrive({ sectionId, searching, before }, moveFocus) {
  const section = sectionNode(root(), sectionId);
  if (section) {
    announce(summarize(state.screen, sectionId));
    const after = itemIdsOf(sectionId);
    const more = before.length > 0 && after.length > before.length &&
      before.every((id, index) => after[index] === id);
    if (!moveFocus) {
      // The focus was moved elsewhere while the screen could not be read: it stays there.
    } else if (more) {
      const first = section.querySelectorAll(":scope > .items > .item")[before.length];
      const card = first.querySelector("[tabindex='-1']") || first;
      // At the top of the window, with the new items under it (a plain focus() may leave it half out of sight
      // while it fades in).
      card.focus({ preventScroll: true });
      card.scrollIntoView({ block: "start" });
    } else if (!searching) {
      focusSection(section, { preventScroll: true });
      document.activeElement.scrollIntoView({ block: "start" });
    }
  }
  // The control used stays focused when it is still there (a search box); else the screen.
  if (document.activeElement === document.body) $("#screen").focus({ preventScroll: true });
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
    say(owner, words, { connection: error instanceof Unreachable || (error instanceof ProblemError && error.status >= 500) });
  } finally {
    button.removeAttribute("aria-busy");
    button.textContent = title;
  }
}

// MARK: - Start

function start() {
  $("#sign-in-form").addEventListener("submit", submitSignIn);
  $("#sign-out").addEventListener("click", doSignOut);
  // A narrower or wider page cuts other texts: their tooltips follow, once a frame at most.
  let resizing = false;
  window.addEventListener("resize", () => {
    if (resizing) return;
    resizing = true;
    requestAnimationFrame(() => {
      resizing = false;
      markCut(root());
    });
  });
  state.query = sessionStorage.getItem(QUERY_KEY) || "";
  if (session.token) showScreen();
  else showSignIn();
}

start();
