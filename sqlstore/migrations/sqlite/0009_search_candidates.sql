-- Search candidates (issue 5): PostgreSQL gets a function that picks the
-- newest matches by the cheaper of a key walk and a GIN bitmap. SQLite's
-- FTS5 index already lists the matches newest first (ORDER BY rowid DESC
-- LIMIT over the match), so there is nothing to do here.
SELECT 1;
