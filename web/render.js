// Drawing a sections document into the page, knowing nothing of books: sections by their layout hint (card, row,
// grid, list), items (title, subtitle, lines, badges, actions), supplementaries (header, empty state, custom kinds,
// footer) and the whole-screen empty state. Every text from the server goes in with textContent, never as HTML, and
// every element of text gets dir="auto", so a right-to-left title is isolated from what surrounds it.
//
// `draw(root, screen, ui)` brings the DOM to `screen`, keyed by ids: elements of sections, items and supplementaries
// that stay are kept (moved into place), new ones are made, gone ones removed, and those whose content changed are
// redrawn in place (keeping the focus on the same action). Items that moved slide to their new place (FLIP) and new
// ones fade in, unless the reader asked for reduced motion.

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
let nextId = 0;
const uniqueId = (prefix) => `${prefix}-${(nextId += 1)}`;

/** An element with a class and, when given, text (as text). */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) {
    node.textContent = String(text);
    node.dir = "auto";
  }
  return node;
}

/** How an action is drawn: "perform" (a request button), "navigate" (another screen), "search" (a text box), or
 * null when the page cannot perform it (no request form, or a GET of something that is not a screen). */
export function actionKind(action) {
  if (typeof action.method !== "string" || typeof action.href !== "string") return null;
  if (action.method === "GET") {
    if (!action.href.startsWith("/v1/screen")) return null;
    return action.href.includes("{text}") ? "search" : "navigate";
  }
  return "perform";
}

/** Draws `actions`' buttons (and search boxes) into `container`. With `subject` (an item's title), each button's
 * accessible name says what it acts on ("Take The Odyssey"), while its visible label stays the action's title
 * ("Take"): twenty buttons all named "Take" tell a screen reader's list of buttons nothing. */
function drawActions(actions, owner, ui, container, subject = null) {
  for (const action of actions) {
    const kind = actionKind(action);
    if (!kind) continue;
    if (kind === "search") {
      container.append(searchForm(action, ui));
      continue;
    }
    const wrapper = element("div", "action");
    const button = element("button", `button button-${action.id}`, action.title);
    button.type = "button";
    button.dataset.actionId = action.id;
    if (subject) button.setAttribute("aria-label", `${action.title} ${subject}`);
    if (action.disabled) {
      // Still focusable, so the reason is found by keyboard and screen reader too. A click does not say it a second
      // time: it marks the reason shown under the button and has it read out.
      button.setAttribute("aria-disabled", "true");
      const reason = element("p", "action-reason", action.reason || "Not possible right now.");
      reason.id = uniqueId("reason");
      button.setAttribute("aria-describedby", reason.id);
      button.addEventListener("click", () => {
        reason.classList.add("action-reason-said");
        ui.explain(owner, reason.textContent);
      });
      wrapper.append(button, reason);
    } else if (kind === "navigate") {
      button.addEventListener("click", () => ui.navigate(action.href, button));
      wrapper.append(button);
    } else {
      button.addEventListener("click", () => ui.perform(action, owner, button));
      wrapper.append(button);
    }
    container.append(wrapper);
  }
}

function searchForm(action, ui) {
  const form = element("form", "search");
  form.setAttribute("role", "search");
  form.dataset.actionId = action.id;
  const label = element("label", "search-label");
  const caption = element("span", "visually-hidden", action.title);
  const input = element("input", "search-input");
  input.type = "search";
  input.name = "text";
  input.autocomplete = "off";
  input.maxLength = 200;
  input.dir = "auto";
  input.value = ui.currentSearch();
  input.placeholder = `${action.title}…`;
  label.append(caption, input);
  const button = element("button", "button", action.title);
  button.type = "submit";
  form.append(label, button);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    ui.navigate(text ? action.href.replace("{text}", encodeURIComponent(text)) : action.href.split("?")[0], form);
  });
  return form;
}

// MARK: - Items

function itemContent(item, ui) {
  const card = element("article", "card");
  const title = element("h3", "item-title", item.title);
  title.id = uniqueId("title");
  card.setAttribute("aria-labelledby", title.id);
  card.tabIndex = -1;
  card.append(title);
  if (item.subtitle) card.append(element("p", "item-subtitle", item.subtitle));
  for (const line of item.lines || []) card.append(element("p", "item-line", line));
  if (item.badges?.length) {
    const badges = element("ul", "badges");
    for (const badge of item.badges) badges.append(badgeContent(badge));
    card.append(badges);
  }
  const actions = element("div", "actions");
  drawActions(item.actions || [], item.id, ui, actions, typeof item.title === "string" ? item.title.trim() : null);
  if (actions.childElementCount) card.append(actions);
  card.append(statusLine(item.id, ui));
  return card;
}

/** A badge that breaks only between its words ("on loan, due back" / "2026-12-17", never "2026-12-" / "17"): each word
 * is a box of its own, cut inside only when it is wider than the whole card. The text is the badge's, as it is. */
function badgeContent(badge) {
  const node = element("li", `badge badge-${badge.style}`);
  node.dir = "auto";  // the words have none of their own, so the badge's direction is that of its whole text
  for (const part of String(badge.text).split(/(\s+)/)) {
    if (/^\s*$/.test(part)) {
      node.append(part);
    } else {
      const word = element("span", "badge-word");
      word.textContent = part;
      node.append(word);
    }
  }
  return node;
}

/** The line where a refusal of this item's (or supplementary's) action is said in words, read out when it changes. */
function statusLine(owner, ui) {
  const status = element("p", "status-line");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  status.textContent = ui.statusOf(owner);
  return status;
}

// MARK: - Supplementaries

/**
 * A line of the document as the page shows it. The document is the terminal's too, and some lines end with the
 * command to type there ("Pick one from the library below: librarycli take <book-id>"). When the page offers that
 * command (`commands.verbs` holds its verb, "take": the screen has a Take button that can be used), it leaves the
 * command out ("Pick one from the library below."), as it has the button; when it does not ("Add the demo catalog:
 * librarycli seed", a librarian's command, or "take" with no usable Take on the screen), the line is an instruction
 * for the terminal only, and it leaves the whole line out (null). `commands.program` is the first word of the
 * document's commands; a line that is only a command is left out too.
 *
 *     const commands = { program: "librarycli", verbs: new Set(["list", "take"]) };
 *     frontLine("Or see every book: librarycli list", commands)  // "Or see every book."
 *     frontLine("Add the demo catalog: librarycli seed", commands)  // null
 */
export function frontLine(line, { program = null, verbs = new Set() } = {}) {
  const text = String(line);
  if (!program) return text;
  const escaped = program.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const command = new RegExp("(^|:\\s+)" + escaped + "(\\s|$)");
  const found = command.exec(text);
  if (!found) return text;
  const before = text.slice(0, found.index).trimEnd();
  if (!before || !verbs.has(verbOf(text.slice(found.index + found[0].length)))) return null;
  return /[.!?…]$/.test(before) ? before : `${before}.`;
}

/** The verb of a command's arguments, its first word that is not an option: "take" of "take 3", "list" of
 * "list --page 2". */
function verbOf(argumentsText) {
  return argumentsText.trim().split(/\s+/).find((word) => word && !word.startsWith("-")) || "";
}

/**
 * What the document's commands are, from its actions: `program`, the word they start with ("librarycli"), or null
 * when it has none; `verbs`, the verbs of those the page offers a usable control for (drawn, not disabled).
 */
function commandsOf(screen) {
  let program = null;
  const verbs = new Set();
  const owners = [];
  for (const section of screen.sections || []) {
    owners.push(...(section.items || []), ...(section.supplementaries || []));
  }
  if (screen.emptyState) owners.push(screen.emptyState);
  for (const owner of owners) {
    for (const action of owner.actions || []) {
      const words = typeof action.command === "string" ? action.command.trim().split(/\s+/) : [];
      if (!words[0]) continue;
      program ??= words[0];
      if (words[0] === program && actionKind(action) && !action.disabled) verbs.add(verbOf(words.slice(1).join(" ")));
    }
  }
  return { program, verbs };
}

/** `commandsOf`'s answer as plain data, so a supplementary is redrawn when the commands the page offers change. */
function commandsKey(commands) {
  return [commands.program, [...commands.verbs].sort()];
}

/** Where a "Clear search" button goes in this section's empty state: the section's search without the text, when
 * the screen shown is a search; else null. */
function clearSearchHref(section, ui) {
  if (!ui.currentSearch()) return null;
  for (const supplementary of section?.supplementaries || []) {
    for (const action of supplementary.actions || []) {
      if (actionKind(action) === "search") return action.href.split("?")[0];
    }
  }
  return null;
}

function supplementaryContent(supplementary, sectionId, ui, { commands = {}, clearSearch = null } = {}) {
  const kind = supplementary.kind;
  const box = element("div", `supplementary-body`);
  const heading = element(kind === "header" ? "h2" : "p", "supplementary-title", supplementary.title);
  heading.id = uniqueId("heading");
  // A section's heading is where the focus goes when the section shows other items (another page).
  if (kind === "header") heading.tabIndex = -1;
  if (typeof supplementary.count === "number") {
    const count = element("span", "count", supplementary.count.toLocaleString());
    count.setAttribute("aria-label", `(${supplementary.count})`);
    heading.append(" ", count);
  }
  box.append(heading);
  if (supplementary.subtitle) {
    const subtitle = frontLine(supplementary.subtitle, commands);
    if (subtitle !== null) box.append(element("p", "supplementary-subtitle", subtitle));
  }
  for (const line of supplementary.lines || []) {
    const shown = frontLine(line, commands);
    if (shown !== null) box.append(element("p", "supplementary-line", shown));
  }
  const actions = element("div", "actions");
  const owner = `${sectionId}/${kind}/${supplementary.id}`;
  drawActions(supplementary.actions || [], owner, ui, actions);
  if (clearSearch && kind === "empty") {
    const wrapper = element("div", "action");
    const button = element("button", "button button-clear-search", "Clear search");
    button.type = "button";
    button.dataset.actionId = "clear-search";
    button.addEventListener("click", () => {
      // The search box is kept as typed across redraws: empty it, and keep the focus there.
      const input = button.closest("section")?.querySelector("form.search input");
      if (input) {
        input.value = "";
        input.focus({ preventScroll: true });
      }
      ui.navigate(clearSearch, input || button);
    });
    wrapper.append(button);
    actions.append(wrapper);
  }
  if (actions.childElementCount) {
    box.append(actions);
    box.append(statusLine(owner, ui));
  }
  return box;
}

// MARK: - Keyed drawing

function applyLayout(node, layout) {
  const style = ["card", "row", "grid", "list"].includes(layout?.style) ? layout.style : "list";
  node.dataset.layout = style;
  // The hint is in terminal cells; the stylesheet turns cells into CSS lengths (--cell).
  node.style.setProperty("--min-cells", String(Math.max(1, Number(layout?.minimumItemWidth) || 24)));
  node.style.setProperty("--gap-cells", String(Math.max(0, Number(layout?.spacing) || 0)));
}

/** Makes `parent`'s children exactly `nodes`, in order: removes the others first, then moves only what is out of
 * place (a node taken out and put back loses the focus, so as few as possible move). */
function placeChildren(parent, nodes) {
  const keep = new Set(nodes);
  for (const child of [...parent.childNodes]) if (!keep.has(child)) child.remove();
  let cursor = parent.firstChild;
  for (const node of nodes) {
    if (node === cursor) {
      cursor = cursor.nextSibling;
    } else {
      parent.insertBefore(node, cursor);
    }
  }
}

/** Redraws `node`'s content from `data` when it changed; keeps the focus on the same action or control. */
function redraw(node, data, make) {
  const json = JSON.stringify(data);
  if (node._json === json) return;
  node._json = json;
  const focused = node.contains(document.activeElement) ? document.activeElement : null;
  const focusedAction = focused?.closest("[data-action-id]")?.dataset.actionId;
  const content = make();
  // Keep search boxes as they are (the text typed, the caret, the focus) when what is around them is redrawn.
  for (const kept of node.querySelectorAll("form.search[data-action-id]")) {
    const replacement = [...content.querySelectorAll("form.search[data-action-id]")].find(
      (form) => form.dataset.actionId === kept.dataset.actionId);
    if (replacement) replacement.replaceWith(kept);
  }
  node.replaceChildren(content);
  if (focused && !node.contains(focused)) {
    const again = focusedAction
      ? node.querySelector(`[data-action-id="${CSS.escape(focusedAction)}"]`)
      : null;
    (again || node.querySelector("[tabindex='-1']") || node).focus({ preventScroll: true });
  }
}

function drawSection(node, section, ui, made, itemNodes, commands) {
  applyLayout(node, section.layout);
  node.dataset.sectionId = section.id;
  let top = node.querySelector(":scope > .section-top");
  let items = node.querySelector(":scope > .items");
  let bottom = node.querySelector(":scope > .section-bottom");
  if (!items) {
    top = element("div", "section-top");
    items = element("ul", "items");
    bottom = element("div", "section-bottom");
    node.append(top, items, bottom);
  }

  // Supplementaries: the header above the items, the rest (empty state, custom kinds, footer) below, in order.
  const oldSupplementaries = new Map();
  for (const child of node.querySelectorAll(":scope > .section-top > [data-key], :scope > .section-bottom > [data-key]")) {
    oldSupplementaries.set(child.dataset.key, child);
  }
  const above = [];
  const below = [];
  let headingId = null;
  for (const supplementary of section.supplementaries || []) {
    const key = `${supplementary.kind}:${supplementary.id}`;
    let child = oldSupplementaries.get(key);
    const fresh = !child;
    if (fresh) {
      child = element("div", `supplementary supplementary-${supplementary.kind}`);
      child.dataset.key = key;
      child.dataset.owner = `${section.id}/${supplementary.kind}/${supplementary.id}`;
      child.dataset.kind = supplementary.kind;
      child.dataset.supplementaryId = supplementary.id;
      if (supplementary.kind === "empty") child.setAttribute("role", "note");
      made.push(child);
    }
    oldSupplementaries.delete(key);
    const extra = { commands, clearSearch: supplementary.kind === "empty" ? clearSearchHref(section, ui) : null };
    redraw(child, { supplementary, ...extra, commands: commandsKey(commands) },
      () => supplementaryContent(supplementary, section.id, ui, extra));
    if (supplementary.kind === "header") headingId = child.querySelector(".supplementary-title")?.id;
    (supplementary.kind === "header" ? above : below).push(child);
  }
  placeChildren(top, above);
  placeChildren(bottom, below);
  if (headingId) node.setAttribute("aria-labelledby", headingId);
  else node.removeAttribute("aria-labelledby");

  // Items, keyed by id across the screen (ids are unique in a document), so one that went to another section keeps
  // its element and slides there.
  const nodes = [];
  for (const item of section.items || []) {
    let child = itemNodes.get(item.id);
    itemNodes.delete(item.id);
    if (!child) {
      child = element("li", "item");
      child.dataset.itemId = item.id;
      child.dataset.owner = item.id;
      made.push(child);
    }
    child.dataset.kind = item.kind || "";
    redraw(child, item, () => itemContent(item, ui));
    nodes.push(child);
  }
  placeChildren(items, nodes);
  items.hidden = nodes.length === 0;
  items.setAttribute("role", "list");
  if (headingId) items.setAttribute("aria-labelledby", headingId);
  else items.removeAttribute("aria-labelledby");
  if (section.layout?.style === "row" && nodes.length > 0) {
    // A row scrolls sideways: reachable and scrollable by keyboard too.
    items.tabIndex = 0;
  } else {
    items.removeAttribute("tabindex");
  }
}

/** Where every item and supplementary is now, for FLIP. */
function measure(root) {
  const rects = new Map();
  for (const node of root.querySelectorAll("[data-item-id], [data-key]")) {
    rects.set(node, node.getBoundingClientRect());
  }
  return rects;
}

function animate(root, before, made) {
  if (reducedMotion.matches || typeof Element.prototype.animate !== "function") return;
  const fresh = new Set(made);
  for (const node of root.querySelectorAll("[data-item-id], [data-key]")) {
    if (fresh.has(node)) {
      node.animate([{ opacity: 0, transform: "scale(0.96)" }, { opacity: 1, transform: "none" }], {
        duration: 220,
        easing: "ease-out",
      });
      continue;
    }
    const old = before.get(node);
    if (!old) continue;
    const now = node.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: 300,
      easing: "ease-in-out",
    });
  }
}

/**
 * Brings `root` to `screen` ({sections, emptyState}). `ui` gives the callbacks: perform(action, ownerId, button),
 * navigate(href, from) (from: the search form or button used), explain(ownerId, reason) (a disabled action was
 * clicked: read its reason out), statusOf(ownerId) and currentSearch().
 */
export function draw(root, screen, ui) {
  const focused = document.activeElement;
  const place = root.contains(focused) ? focusPlace(focused) : null;
  const commands = commandsOf(screen);
  const before = measure(root);
  const made = [];
  const itemNodes = new Map();
  for (const node of root.querySelectorAll(":scope > section > .items > .item")) {
    itemNodes.set(node.dataset.itemId, node);
  }
  const oldSections = new Map();
  for (const child of root.querySelectorAll(":scope > section[data-section-id]")) {
    oldSections.set(child.dataset.sectionId, child);
  }
  const nodes = [];
  for (const section of screen.sections) {
    let node = oldSections.get(section.id);
    if (!node) node = element("section", "section");
    oldSections.delete(section.id);
    drawSection(node, section, ui, made, itemNodes, commands);
    nodes.push(node);
  }
  let empty = root.querySelector(":scope > .screen-empty");
  if (screen.emptyState) {
    if (!empty) {
      empty = element("div", "supplementary screen-empty");
      empty.setAttribute("role", "note");
      made.push(empty);
    }
    empty.dataset.key = `screen:${screen.emptyState.id}`;
    redraw(empty, { emptyState: screen.emptyState, commands: commandsKey(commands) },
      () => supplementaryContent(screen.emptyState, "", ui, { commands }));
    nodes.push(empty);
  }
  placeChildren(root, nodes);
  // An element that moved lost the focus on the way: give it back. One that went (a returned book's card) passes
  // it to what took its place.
  if (focused && focused !== document.activeElement && root.contains(focused)) {
    focused.focus({ preventScroll: true });
  } else if (place && !root.contains(focused) && !root.contains(document.activeElement)) {
    focusNear(root, place);
  }
  markCut(root);
  animate(root, before, made);
}

/**
 * Gives each text of an item that the stylesheet cuts (in a row or a grid: a title or a subtitle after 3 lines, a
 * grid's other lines after 4) its whole text as a tooltip, and takes it away from those shown whole. Call it again
 * when the page's width changes.
 */
export function markCut(root) {
  for (const node of root.querySelectorAll(".item-title, .item-subtitle, .item-line")) {
    if (node.scrollHeight > node.clientHeight + 1) node.title = node.textContent;
    else node.removeAttribute("title");
  }
}

/** Where the focus is: its item (id and index in its section), the section, and the action focused. */
function focusPlace(focused) {
  const item = focused.closest("[data-item-id]");
  const section = focused.closest("section[data-section-id]");
  if (!section) return null;
  const items = [...section.querySelectorAll(":scope > .items > .item")];
  return {
    sectionId: section.dataset.sectionId,
    index: item ? items.indexOf(item) : -1,
    actionId: focused.closest("[data-action-id]")?.dataset.actionId,
  };
}

/** Focuses, after the focused element went, the item that took its place (or the one before, when it was the
 * last): its button for the same action, else its first button, else its card; with no items left, the section
 * (which shows its empty state); with the section gone, the screen. A control of the section's own (a footer's
 * button that went with the last page) passes the focus to the section's heading, not to an item far from it. */
function focusNear(root, place) {
  const section = sectionNode(root, place.sectionId);
  if (!section) {
    root.focus({ preventScroll: true });
    return;
  }
  if (place.index < 0) {
    focusSection(section, { preventScroll: true });
    return;
  }
  const items = [...section.querySelectorAll(":scope > .items > .item")];
  const item = items[Math.min(place.index, items.length - 1)];
  if (item) {
    const target = (place.actionId && item.querySelector(`button[data-action-id="${CSS.escape(place.actionId)}"]`)) ||
      item.querySelector("button") || item.querySelector("[tabindex='-1']");
    if (target) {
      target.focus({ preventScroll: true });
      return;
    }
  }
  section.tabIndex = -1;
  section.focus({ preventScroll: true });
}

/** The element drawn for the section `id` in `root`, or null. */
export function sectionNode(root, id) {
  return [...root.querySelectorAll(":scope > section[data-section-id]")].find((node) => node.dataset.sectionId === id)
    ?? null;
}

/** Focuses a section by its heading (its header's title), or the section itself when it has none. */
export function focusSection(section, options = {}) {
  const heading = section.querySelector(":scope > .section-top .supplementary-title[tabindex='-1']");
  if (heading) {
    heading.focus(options);
    return;
  }
  section.tabIndex = -1;
  section.focus(options);
}

/**
 * What a section shows, in its own words, for screen readers after a search or another page: its header's title and
 * count, its empty state's title when it has no items, and its footer's title.
 *
 *     summarize(screen, "library-books")  // "Library (49). Page 2 of 3 · 49 books."
 *     summarize(screen, "library-books")  // "Library: books matching “zzzz” (0). No books match “zzzz”."
 */
export function summarize(screen, sectionId) {
  const section = screen?.sections?.find((candidate) => candidate.id === sectionId);
  if (!section) return "";
  const sentence = (words) => (/[.!?…]$/.test(words) ? words : `${words}.`);
  const parts = [];
  const supplementaries = section.supplementaries || [];
  const header = supplementaries.find((supplementary) => supplementary.kind === "header");
  if (header?.title) {
    parts.push(sentence(typeof header.count === "number" ? `${header.title} (${header.count})` : header.title));
  }
  const empty = supplementaries.find((supplementary) => supplementary.kind === "empty");
  if (!section.items?.length && empty?.title) parts.push(sentence(empty.title));
  const footer = supplementaries.find((supplementary) => supplementary.kind === "footer");
  if (footer?.title) parts.push(sentence(footer.title));
  return parts.join(" ");
}

/**
 * A few words on what changed, for screen readers: "Your books: 1 added. Library: 1 changed." A section without a
 * header is named by its items' titles ("Hey John Doe! changed."), never by its id.
 */
export function describe(screen, changes) {
  const sections = new Map(screen.sections.map((section) => [section.id, section]));
  const headerOf = (id) => sections.get(id)?.supplementaries.find((supplementary) => supplementary.kind === "header");
  const titleOf = (sectionId, itemId) => sections.get(sectionId)?.items.find((item) => item.id === itemId)?.title;
  const counts = new Map();
  const count = (section, what, id) => {
    const entry = counts.get(section) || { added: [], removed: [], changed: [] };
    entry[what].push(id);
    counts.set(section, entry);
  };
  for (const entry of changes.items.inserted) count(entry.section, "added", entry.id);
  for (const entry of changes.items.deleted) count(entry.section, "removed", entry.id);
  for (const entry of changes.items.moved) {
    if (entry.fromSection !== entry.toSection) {
      count(entry.fromSection, "removed", entry.id);
      count(entry.toSection, "added", entry.id);
    }
  }
  for (const entry of changes.items.updated) count(entry.section, "changed", entry.id);
  const parts = [];
  for (const [section, entry] of counts) {
    const header = headerOf(section)?.title;
    const kinds = Object.entries(entry).filter(([, ids]) => ids.length > 0);
    if (kinds.length === 0) continue;
    if (header) {
      parts.push(`${header}: ${kinds.map(([what, ids]) => `${ids.length} ${what}`).join(", ")}.`);
      continue;
    }
    for (const [what, ids] of kinds) {
      const titles = what === "removed" ? [] : ids.map((id) => titleOf(section, id));
      if (titles.length > 0 && titles.length <= 3 && titles.every((title) => typeof title === "string" && title)) {
        parts.push(`${titles.join(", ")} ${what}.`);
      } else {
        parts.push(`${ids.length} ${ids.length === 1 ? "item" : "items"} ${what}.`);
      }
    }
  }
  return parts.join(" ");
}

/** Says `text` on the status line of an item or supplementary (a refusal in words), without redrawing it. */
export function showStatus(root, owner, text) {
  for (const node of root.querySelectorAll("[data-owner]")) {
    if (node.dataset.owner === owner) {
      const status = node.querySelector(".status-line");
      if (status) status.textContent = text;
      return status;
    }
  }
  return null;
}
