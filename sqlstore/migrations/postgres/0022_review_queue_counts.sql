-- The Review Center's counts with a filter (issue 15: the first page with
-- the three tabs' counts in at most 50 ms with 10 000 open rounds). The
-- product and type filters are the asset's: a count of a filtered tab
-- joined every open round (or active step) of the tab to its asset,
-- whatever the filter kept. Rounds and steps now carry a copy of their
-- asset's type and product, which the database keeps equal to the asset's
-- (the triggers below: on insert, and when an asset changes either), and
-- the queue indexes include them, so that a filtered count is an
-- index-only scan of one range, as an unfiltered one is. The columns are
-- the server's own and not served by the data API.

ALTER TABLE reviews ADD COLUMN asset_type TEXT;
ALTER TABLE reviews ADD COLUMN asset_product_id TEXT;
ALTER TABLE review_steps ADD COLUMN asset_type TEXT;
ALTER TABLE review_steps ADD COLUMN asset_product_id TEXT;

UPDATE reviews r SET asset_type = a.type, asset_product_id = a.product_id FROM assets a WHERE a.id = r.asset_id;
UPDATE review_steps s SET asset_type = a.type, asset_product_id = a.product_id FROM assets a WHERE a.id = s.asset_id;

CREATE FUNCTION review_asset_filters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.type, a.product_id INTO NEW.asset_type, NEW.asset_product_id FROM assets a WHERE a.id = NEW.asset_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER reviews_asset_filters BEFORE INSERT ON reviews
FOR EACH ROW EXECUTE FUNCTION review_asset_filters();
CREATE TRIGGER review_steps_asset_filters BEFORE INSERT ON review_steps
FOR EACH ROW EXECUTE FUNCTION review_asset_filters();

CREATE FUNCTION assets_review_filters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reviews SET asset_type = NEW.type, asset_product_id = NEW.product_id WHERE asset_id = NEW.id;
  UPDATE review_steps SET asset_type = NEW.type, asset_product_id = NEW.product_id WHERE asset_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER assets_review_filters AFTER UPDATE OF type, product_id ON assets
FOR EACH ROW WHEN (OLD.type IS DISTINCT FROM NEW.type OR OLD.product_id IS DISTINCT FROM NEW.product_id)
EXECUTE FUNCTION assets_review_filters();

DROP INDEX reviews_queue_idx;
CREATE INDEX reviews_queue_idx ON reviews (org_id, status, due_at, id) INCLUDE (asset_type, asset_product_id);
DROP INDEX reviews_submitter_idx;
CREATE INDEX reviews_submitter_idx ON reviews (org_id, submitted_by, due_at, id) INCLUDE (status, asset_type, asset_product_id);

DROP INDEX review_steps_unclaimed_idx;
CREATE INDEX review_steps_unclaimed_idx ON review_steps (org_id, role, due_at, id) INCLUDE (asset_type, asset_product_id)
  WHERE status = 'active' AND claimed_by IS NULL;
DROP INDEX review_steps_claimed_idx;
CREATE INDEX review_steps_claimed_idx ON review_steps (org_id, claimed_by, status, due_at, id) INCLUDE (role, asset_type, asset_product_id);

-- The rounds with an active step of a role (the role filter of the open
-- and submitted tabs): PostgreSQL counts them with a semi-join against
-- this index's entries of that role, read index-only, rather than a scan
-- of every step's row. (SQLite looks each round up in
-- review_steps_review_role_idx, which already answers from the index.)
CREATE INDEX review_steps_active_role_idx ON review_steps (role, review_id) WHERE status = 'active';
