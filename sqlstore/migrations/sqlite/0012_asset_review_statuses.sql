-- The review workflow's asset states (issue 13): assets.status also
-- accepts 'rejected', the end of a review round that rejects the asset.
-- The allowed values are the domain's AssetStatus vocabulary; a test
-- compares this CHECK with it.
--
-- Widening a CHECK leaves every stored row valid, so the table keeps its
-- rows, indexes, triggers and the foreign keys that point at it: the
-- constraint's text is edited in the schema (SQLite's documented way to
-- loosen a constraint without rebuilding the table, which would need
-- foreign keys off and would drop the triggers of later migrations).
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql,
  'CHECK (status IN (''draft'',''in_review'',''changes_requested'',''approved'',''expired'',''withdrawn'',''archived''))',
  'CHECK (status IN (''draft'',''in_review'',''changes_requested'',''approved'',''rejected'',''expired'',''withdrawn'',''archived''))')
WHERE type = 'table' AND name = 'assets';
-- RESET reloads this connection's schema; a schema change bumps the
-- schema cookie so that every other connection reloads it too.
PRAGMA writable_schema = RESET;
CREATE VIEW schema_reload_0012 AS SELECT 1;
DROP VIEW schema_reload_0012;
