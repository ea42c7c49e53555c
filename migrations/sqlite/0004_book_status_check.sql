-- The books table again, with its status rule written as three comparisons instead of `status IN (...)`: SQLite
-- checks an IN list of three or more values by building a temporary b-tree for every row it inserts, which was
-- about a third of a bulk import's instructions. The rule, the columns, the ids and every row stay as they were.
-- SQLite's table rebuild (foreign keys are off while a migration runs, and checked before it commits).

CREATE TABLE books_rebuilt (
    id                 INTEGER PRIMARY KEY,
    title              TEXT    NOT NULL CHECK (length(trim(title)) > 0),
    author             TEXT    NOT NULL DEFAULT '',
    year               INTEGER CHECK (year IS NULL OR year BETWEEN -9999 AND 9999),
    pages              INTEGER CHECK (pages IS NULL OR pages > 0),
    description        TEXT    NOT NULL DEFAULT '',
    isbn               TEXT    UNIQUE CHECK (isbn IS NULL OR length(isbn) > 0),
    status             TEXT    NOT NULL DEFAULT 'available'
                               CHECK (status = 'available' OR status = 'lost' OR status = 'withdrawn'),
    search_title       TEXT    NOT NULL DEFAULT '',
    search_author      TEXT    NOT NULL DEFAULT '',
    search_description TEXT    NOT NULL DEFAULT ''
) STRICT;

INSERT INTO books_rebuilt (id, title, author, year, pages, description, isbn, status,
                           search_title, search_author, search_description)
SELECT id, title, author, year, pages, description, isbn, status, search_title, search_author, search_description
FROM books ORDER BY id;

DROP TABLE books;
ALTER TABLE books_rebuilt RENAME TO books;

CREATE INDEX books_by_identity ON books (title, author, year);

CREATE TRIGGER books_are_never_deleted BEFORE DELETE ON books
BEGIN
    SELECT RAISE(ABORT, 'books are withdrawn, not deleted');
END;

CREATE TRIGGER books_keep_their_id BEFORE UPDATE OF id ON books WHEN NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'a book''s id never changes');
END;

CREATE TRIGGER books_counted AFTER INSERT ON books
BEGIN
    UPDATE library_stats SET book_count = book_count + 1 WHERE id = 1;
    SELECT RAISE(ABORT, 'book ids must be dense: insert books without an id')
    WHERE NEW.id <> (SELECT book_count FROM library_stats WHERE id = 1);
END;
