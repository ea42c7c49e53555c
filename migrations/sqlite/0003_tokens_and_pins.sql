-- Who may do what: bearer tokens, clients' PINs, failed sign-ins (for lock-out) and idempotency keys.
-- Nothing secret is kept in the clear: a token only as its SHA-256, a PIN only as an Argon2id string (libsodium's
-- crypto_pwhash_str). The numbers in the CHECKs are AccessRules' (Sources/Library/AccessRules.swift).

CREATE TABLE tokens (
    id           INTEGER PRIMARY KEY,
    -- SHA-256 of the whole token text ('lc_...'); the token itself is shown once and never stored.
    token_hash   BLOB    NOT NULL UNIQUE CHECK (typeof(token_hash) = 'blob' AND length(token_hash) = 32),
    role         TEXT    NOT NULL CHECK (role IN ('client', 'librarian')),
    -- The client a client token acts as; NULL for a librarian token.
    client_id    INTEGER REFERENCES clients (id),
    label        TEXT    NOT NULL DEFAULT '' CHECK (length(label) <= 200),
    created_at   TEXT    NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT,
    CHECK ((role = 'client') = (client_id IS NOT NULL))
) STRICT;

CREATE INDEX tokens_by_client ON tokens (client_id) WHERE client_id IS NOT NULL;

-- A client's PIN for signing in, when one is set (clients added later have none until `clients pin`).
CREATE TABLE client_pins (
    client_id INTEGER PRIMARY KEY REFERENCES clients (id),
    pin_hash  TEXT    NOT NULL CHECK (pin_hash LIKE '$argon2id$%'),
    set_at    TEXT    NOT NULL
) STRICT;

-- Failed sign-ins, by the card number as given (also unknown ones), for the lock-out; old rows are purged.
CREATE TABLE sign_in_failures (
    id          INTEGER PRIMARY KEY,
    card_number TEXT    NOT NULL CHECK (length(card_number) BETWEEN 1 AND 100),
    failed_at   TEXT    NOT NULL
) STRICT;

CREATE INDEX sign_in_failures_by_card ON sign_in_failures (card_number, failed_at);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures (failed_at);

-- Responses kept for replay: a retried request with the same Idempotency-Key (per token) gets the same answer.
CREATE TABLE idempotency_keys (
    id          INTEGER PRIMARY KEY,
    token_id    INTEGER NOT NULL REFERENCES tokens (id),
    key         TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    method      TEXT    NOT NULL CHECK (length(method) > 0),
    path        TEXT    NOT NULL,
    body_sha256 BLOB    NOT NULL CHECK (typeof(body_sha256) = 'blob' AND length(body_sha256) = 32),
    status      INTEGER NOT NULL CHECK (status BETWEEN 100 AND 599),
    -- The response's headers to replay, one 'Name: value' a line.
    headers     TEXT    NOT NULL DEFAULT '',
    body        BLOB    NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (token_id, key)
) STRICT;

CREATE INDEX idempotency_keys_by_time ON idempotency_keys (created_at);
