-- Full-text search over title, author and description: words in any order, prefixes, any case and accents in
-- every script, ranked title > author > description.
--
-- Each book keeps its title, author and description folded for search (librarycli's SearchFolding.indexText:
-- utf8proc NFKC + case folding + marks stripped, and a Latin spelling of Cyrillic and Greek words beside them),
-- written by librarycli with the book in the same statement. The FTS5 index `book_search` reads those columns
-- (external content: the text is stored once, in `books`). librarycli writes the index entries in the same
-- transaction as the books (SearchIndexWriter), in batches rather than from a trigger: FTS5 flushes its pending
-- terms at every statement savepoint, each INSERT into `books` opens one (books_counted), and indexing row by row
-- made imports about three times slower. `librarycli migrate --check` proves index and table agree.
--
-- The backfill calls library_search_text(), which librarycli defines on each connection it opens.

-- The old one-column search text (title and author, hand-folded) becomes the title's: renamed, not dropped, since
-- SQLite 3.40 cannot drop a column that follows a comment in its CREATE TABLE (the comment above it in
-- sqlite_master is the old one).
ALTER TABLE books RENAME COLUMN search_text TO search_title;
ALTER TABLE books ADD COLUMN search_author TEXT NOT NULL DEFAULT '';
ALTER TABLE books ADD COLUMN search_description TEXT NOT NULL DEFAULT '';

UPDATE books SET
    search_title = library_search_text(title),
    search_author = library_search_text(author),
    search_description = library_search_text(description);

CREATE VIRTUAL TABLE book_search USING fts5 (
    search_title, search_author, search_description,
    content = 'books', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0'
);

INSERT INTO book_search (book_search) VALUES ('rebuild');

-- `rank` orders by bm25 with the columns weighted: a title match counts most, then the author, then the description.
INSERT INTO book_search (book_search, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');
