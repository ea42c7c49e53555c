// Keeping the screen live: `GET /v1/screen/events` read with fetch and a streaming reader (so the token goes in the
// Authorization header, never in a URL), resumed after a drop with Last-Event-ID; when streaming does not work, a
// long-poll of `GET /v1/screen/changes?since=ETAG&wait=30`. Either way each answer goes to `onChanges(body, etag)`:
// `body.changes` is a change set from the version the page has, or null with the whole document in `body`.

import { SignedOut, session } from "./api.js";

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });

/** Splits a text/event-stream into events ({event, id, data}); comments and unknown fields are skipped. */
export class EventParser {
  constructor(onEvent) {
    this.buffer = "";
    this.onEvent = onEvent;
    this.reset();
  }

  reset() {
    this.event = "";
    this.id = null;
    this.data = [];
  }

  push(text) {
    this.buffer += text;
    let end;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, end);
      const breakLength = this.buffer.startsWith("\r\n", end) ? 2 : 1;
      // A lone CR at the end of a chunk may be the first half of CRLF: wait for more.
      if (this.buffer[end] === "\r" && end + 1 === this.buffer.length) break;
      this.buffer = this.buffer.slice(end + breakLength);
      this.line(line);
    }
  }

  line(line) {
    if (line === "") {
      if (this.data.length > 0 || this.event) {
        this.onEvent({ event: this.event || "message", id: this.id, data: this.data.join("\n") });
      }
      this.reset();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id") this.id = value;
  }
}

/**
 * Follows one screen (its query, such as "?search=kafka") from `etag` on, until stopped.
 *
 *   const live = new LiveScreen({ query, etag, form, mode, onChanges, onSignedOut, onState });
 *   live.start(); ... live.stop();
 */
export class LiveScreen {
  constructor({ query, etag, form = "standard", mode = "stream", onChanges, onSignedOut, onState = () => {} }) {
    this.query = query;
    this.etag = etag;
    this.form = form;
    this.mode = mode;
    this.onChanges = onChanges;
    this.onSignedOut = onSignedOut;
    this.onState = onState;
    this.controller = new AbortController();
  }

  start() {
    this.run().catch((error) => {
      if (error instanceof SignedOut) this.onSignedOut(error);
    });
  }

  stop() {
    this.controller.abort();
  }

  get stopped() {
    return this.controller.signal.aborted;
  }

  url(path, extra = {}) {
    const parameters = new URLSearchParams(this.query);
    if (this.form !== "standard") parameters.set("changes", this.form);
    for (const [name, value] of Object.entries(extra)) parameters.set(name, value);
    const text = parameters.toString();
    return text ? `${path}?${text}` : path;
  }

  headers(extra = {}) {
    return { Authorization: `Bearer ${session.token}`, ...extra };
  }

  deliver(body) {
    if (typeof body.etag !== "string") return;
    this.onChanges(body, body.etag);
    this.etag = body.etag;
  }

  async run() {
    let failures = 0;
    while (!this.stopped) {
      const outcome = this.mode === "stream" ? await this.stream() : await this.poll();
      if (this.stopped) return;
      // An answer that cannot be streamed (no streaming bodies, a proxy that buffers): long-poll from now on.
      if (outcome === "unsupported") this.mode = "poll";
      failures = outcome === "failed" ? failures + 1 : 0;
      if (failures > 0) this.onState("reconnecting");
      await sleep(failures > 0 ? Math.min(5000, 250 * 2 ** failures) : 0, this.controller.signal);
    }
  }

  /** One event-stream connection, until it ends: "ended", "failed" (no connection) or "unsupported". */
  async stream() {
    const signal = this.controller.signal;
    const started = Date.now();
    let response;
    try {
      response = await fetch(this.url("/v1/screen/events"), {
        headers: this.headers({ Accept: "text/event-stream", "Last-Event-ID": this.etag }),
        cache: "no-store",
        signal,
      });
    } catch {
      return "failed";
    }
    if (response.status === 401) throw new SignedOut();
    const type = response.headers.get("Content-Type") || "";
    if (!response.ok) return "failed";
    if (!response.body || !type.startsWith("text/event-stream")) return "unsupported";
    this.onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let garbled = false;
    const parser = new EventParser((event) => {
      if (event.event !== "changes" || garbled) return;
      let body;
      try {
        body = JSON.parse(event.data);
      } catch {
        garbled = true; // reconnect, and resume from the last version applied
        return;
      }
      this.deliver(body);
    });
    // The server sends a comment every 15 s: silence for 40 s means the connection is gone.
    let watchdog;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => reader.cancel().catch(() => {}), 40_000);
    };
    try {
      arm();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || garbled || this.stopped) break;
        arm();
        parser.push(value);
      }
    } catch {
      // Dropped: resume with Last-Event-ID.
    } finally {
      clearTimeout(watchdog);
      reader.cancel().catch(() => {});
    }
    // A stream the server ends at once (it is stopping, say) counts as a failure, so reconnecting backs off.
    return Date.now() - started > 1000 ? "ended" : "failed";
  }

  /** One long-poll: "ended" when it got an answer, else "failed". */
  async poll() {
    let response;
    try {
      response = await fetch(this.url("/v1/screen/changes", { since: this.etag, wait: "30" }), {
        headers: this.headers({ Accept: "application/json" }),
        cache: "no-store",
        signal: this.controller.signal,
      });
    } catch {
      return "failed";
    }
    if (response.status === 401) throw new SignedOut();
    if (response.status === 304) return "ended";
    if (!response.ok) return "failed";
    this.onState("live");
    let body;
    try {
      body = await response.json();
    } catch {
      return "failed";
    }
    this.deliver(body);
    return "ended";
  }
}
