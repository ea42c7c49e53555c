-- Import matches a row by title + author + year with the title and author compared NFC-normalised and case-folded
-- (an NFD "Café" from macOS tools, or another letter case, is the same book), and a row without an ISBN meets books
-- with one too. The look-up goes through the folded search columns (one row's folded text always has the same
-- search text), and the importer compares the candidates it finds; the index on the text as written is no longer
-- read.
DROP INDEX books_by_identity;
CREATE INDEX books_by_folded_identity ON books (search_title, search_author, year);
