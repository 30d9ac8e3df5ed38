-- Compliance Intelligence (issue 17): each insight reads one index range
-- of an organisation's rows in the period, rather than every row of the
-- organisation: approvals by the time their round closed, decisions by
-- the time they were made, change requests by the time they were raised,
-- active steps by due time, and approved assets by expiry date. The
-- indexes carry the product filter's column (the copies of migration
-- 0022) and what the statements read, so that the rows themselves are
-- rarely visited.
-- A cycle's first round, and its submission, found from any round.
CREATE INDEX reviews_cycle_idx ON reviews (asset_id, round, status, submitted_at);
CREATE INDEX reviews_closed_idx ON reviews (org_id, status, closed_at, asset_product_id, asset_id, round);
CREATE INDEX review_steps_decided_idx ON review_steps (org_id, decided_at, status, role, asset_product_id, activated_at);
CREATE INDEX review_steps_active_idx ON review_steps (org_id, status, due_at, role, asset_product_id);
CREATE INDEX change_requests_created_idx ON change_requests (org_id, created_at, role, review_id, annotation_id);
CREATE INDEX assets_org_expiry_idx ON assets (org_id, status, expires_at, product_id);
-- Findings by rule and month: where each was first raised (a finding
-- carried onto a later version is a row of its own with the same
-- first_version_id), without reading the rows.
CREATE INDEX compliance_findings_insights_idx ON compliance_findings (org_id, created_at, rule, product_id, first_version_id, version_id);
