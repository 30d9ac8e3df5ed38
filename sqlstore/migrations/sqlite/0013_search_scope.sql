-- Search scoped to the organisation (issue 13): the work of a search, and
-- its result, must not depend on other organisations' content. FTS5 keeps
-- one posting list per word for the whole table, so a word common in one
-- organisation made it slower to search in every other one. Every indexed
-- word now starts with its organisation's tag (two private-use characters
-- made from the organisation's number in search_orgs; see
-- sqlstore/searchscope.go): the text handed to FTS5 is tagged by the
-- search_org_words(key, text) function the server registers, and a query
-- is tagged the same way, so it reads its organisation's posting lists
-- only. search_docs keeps the plain text, which snippet() reads: tagging
-- adds no word and moves none, so the index's positions fit it.
--
-- The index no longer matches its content table word for word: never run
-- FTS5's 'rebuild' on search_fts (it would index untagged text); rebuild
-- it with the INSERT below.

-- Without a foreign key: the index's delete triggers read the number
-- while an organisation's rows are deleted with it, and a number is never
-- given twice.
CREATE TABLE search_orgs (
  org_id TEXT PRIMARY KEY,
  key INTEGER NOT NULL UNIQUE CHECK (key BETWEEN 1 AND 16777215)
);
INSERT INTO search_orgs (org_id, key)
SELECT org_id, row_number() OVER (ORDER BY min(id)) FROM search_docs GROUP BY org_id;

-- An organisation gets its number with its first searchable row.
CREATE TRIGGER search_docs_org BEFORE INSERT ON search_docs BEGIN
  INSERT INTO search_orgs (org_id, key)
  SELECT new.org_id, (SELECT coalesce(max(key), 0) + 1 FROM search_orgs)
  WHERE NOT EXISTS (SELECT 1 FROM search_orgs WHERE org_id = new.org_id);
END;

DROP TRIGGER search_docs_ai;
DROP TRIGGER search_docs_ad;
DROP TRIGGER search_docs_au;
DROP TABLE search_fts;

-- The prefix indexes hold the two tag characters and two or three more.
CREATE VIRTUAL TABLE search_fts USING fts5(
  title, body,
  content = 'search_docs', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '4 5'
);
INSERT INTO search_fts (rowid, title, body)
SELECT d.id, search_org_words(o.key, d.title), search_org_words(o.key, d.body)
FROM search_docs d JOIN search_orgs o ON o.org_id = d.org_id
ORDER BY d.id;

CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
  INSERT INTO search_fts (rowid, title, body)
  VALUES (new.id,
    search_org_words((SELECT key FROM search_orgs WHERE org_id = new.org_id), new.title),
    search_org_words((SELECT key FROM search_orgs WHERE org_id = new.org_id), new.body));
END;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body)
  VALUES ('delete', old.id,
    search_org_words((SELECT key FROM search_orgs WHERE org_id = old.org_id), old.title),
    search_org_words((SELECT key FROM search_orgs WHERE org_id = old.org_id), old.body));
END;
CREATE TRIGGER search_docs_au AFTER UPDATE OF title, body ON search_docs
WHEN old.title IS NOT new.title OR old.body IS NOT new.body BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body)
  VALUES ('delete', old.id,
    search_org_words((SELECT key FROM search_orgs WHERE org_id = old.org_id), old.title),
    search_org_words((SELECT key FROM search_orgs WHERE org_id = old.org_id), old.body));
  INSERT INTO search_fts (rowid, title, body)
  VALUES (new.id,
    search_org_words((SELECT key FROM search_orgs WHERE org_id = new.org_id), new.title),
    search_org_words((SELECT key FROM search_orgs WHERE org_id = new.org_id), new.body));
END;

-- The organisation's rows newest first, for the filtered fallbacks.
DROP INDEX search_docs_org_idx;
CREATE INDEX search_docs_org_idx ON search_docs (org_id, id);
