-- The library: clients, books (one row per physical copy) and loans.
-- Times are UTC ISO-8601 text ('2026-11-29T14:40:00Z'), so they sort as they compare.

CREATE TABLE clients (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(trim(name)) > 0),
    card_number TEXT    NOT NULL UNIQUE CHECK (length(trim(card_number)) > 0),
    loan_limit  INTEGER NOT NULL DEFAULT 5 CHECK (loan_limit BETWEEN 0 AND 1000),
    created_at  TEXT    NOT NULL
) STRICT;

CREATE TABLE books (
    id          INTEGER PRIMARY KEY,
    title       TEXT    NOT NULL CHECK (length(trim(title)) > 0),
    author      TEXT    NOT NULL DEFAULT '',
    year        INTEGER CHECK (year IS NULL OR year BETWEEN -9999 AND 9999),
    pages       INTEGER CHECK (pages IS NULL OR pages > 0),
    description TEXT    NOT NULL DEFAULT '',
    isbn        TEXT    UNIQUE CHECK (isbn IS NULL OR length(isbn) > 0),
    status      TEXT    NOT NULL DEFAULT 'available'
                        CHECK (status IN ('available', 'lost', 'withdrawn')),
    -- title and author folded to lower case without accents, for case- and accent-insensitive search.
    search_text TEXT    NOT NULL DEFAULT ''
) STRICT;

-- Import matches books without an ISBN by title + author + year.
CREATE INDEX books_by_identity ON books (title, author, year);

CREATE TABLE loans (
    id          INTEGER PRIMARY KEY,
    book_id     INTEGER NOT NULL REFERENCES books (id),
    client_id   INTEGER NOT NULL REFERENCES clients (id),
    taken_at    TEXT    NOT NULL,
    due_at      TEXT    NOT NULL,
    returned_at TEXT,
    renewals    INTEGER NOT NULL DEFAULT 0 CHECK (renewals BETWEEN 0 AND 2),
    CHECK (due_at > taken_at),
    CHECK (returned_at IS NULL OR returned_at >= taken_at)
) STRICT;

-- At most one open loan per book, held by the database itself.
CREATE UNIQUE INDEX loans_one_open_per_book ON loans (book_id) WHERE returned_at IS NULL;
CREATE INDEX loans_open_by_client ON loans (client_id, due_at) WHERE returned_at IS NULL;
CREATE INDEX loans_returned_by_client ON loans (client_id, returned_at) WHERE returned_at IS NOT NULL;

-- Small key/value settings kept with the data, such as the default client.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- Books are withdrawn, never deleted, and their ids are never set by hand: ids stay dense 1...N, so the
-- library's page N is `WHERE id > (N - 1) * perPage ORDER BY id LIMIT perPage` on the primary key.
CREATE TRIGGER books_are_never_deleted BEFORE DELETE ON books
BEGIN
    SELECT RAISE(ABORT, 'books are withdrawn, not deleted');
END;

CREATE TRIGGER books_keep_their_id BEFORE UPDATE OF id ON books WHEN NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'a book''s id never changes');
END;

-- The number of books, kept by a trigger so the library's total is read in O(1), not by count(*).
CREATE TABLE library_stats (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    book_count INTEGER NOT NULL CHECK (book_count >= 0)
) STRICT;

INSERT INTO library_stats (id, book_count) VALUES (1, 0);

CREATE TRIGGER books_counted AFTER INSERT ON books
BEGIN
    UPDATE library_stats SET book_count = book_count + 1 WHERE id = 1;
    SELECT RAISE(ABORT, 'book ids must be dense: insert books without an id')
    WHERE NEW.id <> (SELECT book_count FROM library_stats WHERE id = 1);
END;
