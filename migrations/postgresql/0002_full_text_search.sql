-- Full-text search over title, author and description: words in any order, prefixes, any case and accents in
-- every script, ranked title > author > description. PostgreSQL's translation of
-- migrations/sqlite/0002_full_text_search.sql.
--
-- Each book keeps its title, author and description folded for search (librarycli's SearchFolding.indexText:
-- utf8proc NFKC + case folding + marks stripped, and a Latin spelling of Cyrillic and Greek words beside them),
-- written by librarycli with the book in the same statement. SQLite renames its old one-column search_text and
-- backfills through library_search_text(); here 0001 made no search column and there is nothing to backfill
-- (PostgreSQL support starts with all four files, so no database holds books at version 1), so the three columns
-- are simply added, in SQLite's final order.
ALTER TABLE books ADD COLUMN search_title text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE books ADD COLUMN search_author text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE books ADD COLUMN search_description text COLLATE "C" NOT NULL DEFAULT '';

-- In place of SQLite's FTS5 table book_search: a tsvector kept by PostgreSQL itself with the row (no index writes
-- by librarycli). The 'simple' configuration only splits and lower-cases: no stemming and no stop words, since
-- the text is folded already, and prefixes are asked for with `word:*`. The weights stand for FTS5's
-- bm25(10.0, 4.0, 1.0): ts_rank's default weights for A, B and D are 1.0, 0.4 and 0.1, the same proportions.
--
-- Punctuation becomes spaces before the parser sees the text: FTS5's unicode61 splits words at every such
-- character, while PostgreSQL's parser keeps "Eighty-Four", "2.5", "(1828-1910)" and "example.com" as compound
-- tokens that a search for "four", "5", "1910" or "com" would not find, and in a database whose LC_CTYPE is C it
-- reads every non-ASCII character as a letter, so «Война» would be one word with its quotes. translate() maps
-- each character of the first list (ASCII punctuation, then the quotes, dashes and marks book titles use beyond
-- it; NFKC folding has already turned full-width forms into ASCII) to the space at the same place in the second.
ALTER TABLE books ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', translate(search_title,
        '!"#$%&''()*+,-./:;<=>?@[\]^_`{|}~«»‹›“”„‟‘’‚‛—–‐‑‒―…·•¡¿§¶†‡°′″「」『』【】《》〈〉、。・',
        '                                                                           ')), 'A')
    || setweight(to_tsvector('simple', translate(search_author,
        '!"#$%&''()*+,-./:;<=>?@[\]^_`{|}~«»‹›“”„‟‘’‚‛—–‐‑‒―…·•¡¿§¶†‡°′″「」『』【】《》〈〉、。・',
        '                                                                           ')), 'B')
    || setweight(to_tsvector('simple', translate(search_description,
        '!"#$%&''()*+,-./:;<=>?@[\]^_`{|}~«»‹›“”„‟‘’‚‛—–‐‑‒―…·•¡¿§¶†‡°′″「」『』【】《》〈〉、。・',
        '                                                                           ')), 'D')
) STORED;

CREATE INDEX books_search ON books USING gin (search_vector);
