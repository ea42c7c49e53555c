-- SQLite's 0004 rebuilds books to write its status rule as three comparisons instead of `status IN (...)`: SQLite
-- checks an IN list of three or more values through a temporary b-tree for every row it inserts. PostgreSQL
-- checks a constant IN list without one, so 0001's rule (books_status_check) stays as it is, and with it every
-- column, index, trigger and row. The file keeps the numbering in step with SQLite's; its one statement records
-- the rule's meaning on the constraint (and fails if the constraint were missing).
COMMENT ON CONSTRAINT books_status_check ON books IS
    'available, lost or withdrawn; SQLite writes it as three comparisons (its 0004), PostgreSQL keeps IN';
