-- The review workflow's asset states (issue 13): assets.status also
-- accepts 'rejected', the end of a review round that rejects the asset.
-- The allowed values are the domain's AssetStatus vocabulary; a test
-- compares this CHECK with it. Widening the list leaves every row valid.
ALTER TABLE assets DROP CONSTRAINT assets_status_check;
ALTER TABLE assets ADD CONSTRAINT assets_status_check
  CHECK (status IN ('draft','in_review','changes_requested','approved','rejected','expired','withdrawn','archived'));
