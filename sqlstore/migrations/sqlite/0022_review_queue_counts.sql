-- The Review Center's counts with a filter (issue 15: the first page with
-- the three tabs' counts in at most 50 ms with 10 000 open rounds). The
-- product and type filters are the asset's: a count of a filtered tab
-- visited every open round (or active step) of the tab and looked its
-- asset up, three B-tree searches a row (the round's or step's row for
-- asset_id, the assets' key index, the asset's wide row), whatever the
-- filter kept. Rounds and steps now carry a copy of their asset's type and
-- product, which the database keeps equal to the asset's (the triggers
-- below: on insert, and when an asset changes either), and the queue
-- indexes carry them, so that a filtered count reads one index range and
-- nothing else, as an unfiltered one does. The partial index of unclaimed
-- steps also carries the columns of its own condition: without them
-- SQLite reads each row to test it. The columns are the server's own and
-- not served by the data API.

ALTER TABLE reviews ADD COLUMN asset_type TEXT;
ALTER TABLE reviews ADD COLUMN asset_product_id TEXT;
ALTER TABLE review_steps ADD COLUMN asset_type TEXT;
ALTER TABLE review_steps ADD COLUMN asset_product_id TEXT;

UPDATE reviews SET asset_type = (SELECT a.type FROM assets a WHERE a.id = reviews.asset_id),
  asset_product_id = (SELECT a.product_id FROM assets a WHERE a.id = reviews.asset_id);
UPDATE review_steps SET asset_type = (SELECT a.type FROM assets a WHERE a.id = review_steps.asset_id),
  asset_product_id = (SELECT a.product_id FROM assets a WHERE a.id = review_steps.asset_id);

CREATE TRIGGER reviews_asset_filters AFTER INSERT ON reviews BEGIN
  UPDATE reviews SET asset_type = (SELECT a.type FROM assets a WHERE a.id = new.asset_id),
    asset_product_id = (SELECT a.product_id FROM assets a WHERE a.id = new.asset_id)
  WHERE id = new.id;
END;
CREATE TRIGGER review_steps_asset_filters AFTER INSERT ON review_steps BEGIN
  UPDATE review_steps SET asset_type = (SELECT a.type FROM assets a WHERE a.id = new.asset_id),
    asset_product_id = (SELECT a.product_id FROM assets a WHERE a.id = new.asset_id)
  WHERE id = new.id;
END;
CREATE TRIGGER assets_review_filters AFTER UPDATE OF type, product_id ON assets
WHEN old.type IS NOT new.type OR old.product_id IS NOT new.product_id BEGIN
  UPDATE reviews SET asset_type = new.type, asset_product_id = new.product_id WHERE asset_id = new.id;
  UPDATE review_steps SET asset_type = new.type, asset_product_id = new.product_id WHERE asset_id = new.id;
END;

DROP INDEX reviews_queue_idx;
CREATE INDEX reviews_queue_idx ON reviews (org_id, status, due_at, id, asset_type, asset_product_id);
DROP INDEX reviews_submitter_idx;
CREATE INDEX reviews_submitter_idx ON reviews (org_id, submitted_by, due_at, id, status, asset_type, asset_product_id);

DROP INDEX review_steps_unclaimed_idx;
CREATE INDEX review_steps_unclaimed_idx ON review_steps (org_id, role, due_at, id, asset_type, asset_product_id, status, claimed_by)
  WHERE status = 'active' AND claimed_by IS NULL;
DROP INDEX review_steps_claimed_idx;
CREATE INDEX review_steps_claimed_idx ON review_steps (org_id, claimed_by, status, due_at, id, role, asset_type, asset_product_id);
