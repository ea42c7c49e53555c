// Talking to `librarycli serve`: the bearer token (kept in sessionStorage), problems (RFC 9457) as errors, and
// actions sent with an Idempotency-Key that is made once per intent and reused on every retry of it.

const TOKEN_KEY = "librarycli.token";
const CARD_KEY = "librarycli.card";
/** A token whose Sign out could not reach the library, ended when it answers again (`endPendingSession`). */
const PENDING_SIGN_OUT_KEY = "librarycli.pendingSignOut";

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  get card() {
    return sessionStorage.getItem(CARD_KEY);
  },
  save(token, card) {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(CARD_KEY, card);
  },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(CARD_KEY);
  },
};

/** A refusal or failure the server explained: its status, stable `code` and `detail` in words. */
export class ProblemError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `The server answered ${status}.`);
    this.name = "ProblemError";
    this.status = status;
    this.code = problem.code || "";
    this.problem = problem;
  }
}

/** The token is missing, unknown or revoked: the page signs out. */
export class SignedOut extends Error {
  constructor(detail) {
    super(detail || "Your session ended; please sign in again.");
    this.name = "SignedOut";
  }
}

/** The server could not be reached (or kept answering 503) after the retries. A read says only that; a change
 * also says that nothing was done. */
export class Unreachable extends Error {
  constructor(detail, { read = false } = {}) {
    super(detail || (read
      ? "The library cannot be reached right now."
      : "The library cannot be reached right now; nothing was changed. Try again."));
    this.name = "Unreachable";
  }
}

/** A fresh random key for one user intent (not crypto.randomUUID, which plain-http pages lack). */
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function problemOf(response) {
  try {
    return await response.json();
  } catch {
    return { detail: `The server answered ${response.status}.` };
  }
}

/**
 * One request to the API. Retries (with the same Idempotency-Key, when given) after a network failure or a 503,
 * at most `attempts` times, waiting Retry-After or a short back-off. Resolves the Response of a 2xx or 304; throws
 * SignedOut for 401, ProblemError for another problem, Unreachable when it never got an answer.
 *
 * The token goes along unless `signedIn` is false (the public routes: signing in, the demo clients), so a stale
 * token never gets in the way of those; a 401 to a request that carried it means it is no longer good, and it is
 * forgotten at once.
 */
export async function request(
  method, href, { body, idempotencyKey, signal, attempts = 4, headers = {}, signedIn = true } = {},
) {
  const fields = { Accept: "application/json", ...headers };
  const token = signedIn ? session.token : null;
  if (token) fields.Authorization = `Bearer ${token}`;
  if (idempotencyKey) fields["Idempotency-Key"] = idempotencyKey;
  let payload;
  if (body !== undefined) {
    fields["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let lastFailure;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    let response;
    try {
      response = await fetch(href, { method, headers: fields, body: payload, signal, cache: "no-store" });
    } catch (error) {
      if (signal?.aborted) throw error;
      lastFailure = new Unreachable(undefined, { read: method === "GET" });
      await sleep(250 * 2 ** attempt);
      continue;
    }
    if (response.ok || response.status === 304) return response;
    if (response.status === 401) {
      const problem = await problemOf(response);
      if (token && session.token === token) session.clear();
      throw new SignedOut(problem.code === "sign-in-failed" ? problem.detail : undefined);
    }
    if (response.status === 503 && attempt + 1 < attempts) {
      const wait = Number(response.headers.get("Retry-After"));
      lastFailure = new ProblemError(503, await problemOf(response));
      await sleep(Number.isFinite(wait) && wait > 0 ? Math.min(wait, 5) * 1000 : 500);
      continue;
    }
    throw new ProblemError(response.status, await problemOf(response));
  }
  throw lastFailure ?? new Unreachable(undefined, { read: method === "GET" });
}

/** GET a JSON document; resolves {status, etag, json} (json null for 304). */
export async function getJSON(href, options = {}) {
  const response = await request("GET", href, options);
  const etag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/^"|"$/g, "");
  return { status: response.status, etag, json: response.status === 304 ? null : await response.json() };
}

/** Signs in; resolves the server's answer ({token, clientId, cardNumber}). The card kept for the page to show is
 * the library's (C-0001), not as typed (" c-0001 "). A wrong card or PIN is a ProblemError that says so. */
export async function signIn(cardNumber, pin) {
  try {
    session.clear();
    const response = await request("POST", "/v1/sessions", { body: { cardNumber, pin }, attempts: 2, signedIn: false });
    const answer = await response.json();
    session.save(answer.token, typeof answer.cardNumber === "string" ? answer.cardNumber : cardNumber.trim());
    return answer;
  } catch (error) {
    if (error instanceof SignedOut) throw new ProblemError(401, { detail: "That card number and PIN do not match." });
    throw error;
  }
}

/**
 * Signs out: revokes the token on the server (DELETE /v1/sessions/current), then forgets it here whatever the
 * answer. Resolves true when the server ended the session (or no longer knew the token), false when it could not
 * be asked (unreachable, or a failure of its own): the token then still works there until it is revoked.
 */
export async function signOut() {
  const token = session.token;
  try {
    if (token) await request("DELETE", "/v1/sessions/current", { attempts: 2 });
    return true;
  } catch (error) {
    if (error instanceof SignedOut) return true;
    // Kept (in this tab only) to be ended as soon as the library answers again: see endPendingSession.
    if (token) sessionStorage.setItem(PENDING_SIGN_OUT_KEY, token);
    return false;
  } finally {
    session.clear();
  }
}

/**
 * Ends the session a Sign out could not end while the library was unreachable (DELETE /v1/sessions/current with
 * that token), once the library answers again. Resolves "ended" when it ended it now (or the server no longer knew
 * it), "none" when there was none to end, "pending" while the library still cannot be reached, to be tried again.
 */
export async function endPendingSession() {
  const token = sessionStorage.getItem(PENDING_SIGN_OUT_KEY);
  if (!token) return "none";
  try {
    const response = await fetch("/v1/sessions/current", {
      method: "DELETE", headers: { Authorization: `Bearer ${token}` }, cache: "no-store",
    });
    if (response.ok || response.status === 401) {
      sessionStorage.removeItem(PENDING_SIGN_OUT_KEY);
      return "ended";
    }
  } catch {
    // Still unreachable: kept for the next try.
  }
  return "pending";
}
