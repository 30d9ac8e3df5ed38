-- The review workflow's background work and its e-mails (issue 15).
--
-- review_steps.overdue_at: when the overdue sweep marked an active step
-- whose due time had passed (NULL: not marked). The mark is set once per
-- step, with its audit entry and its notices, so a sweep that runs again
-- finds nothing more to do; the Review Center shows the mark, and orders
-- by due_at, which puts overdue steps first anyway.
ALTER TABLE review_steps ADD COLUMN overdue_at TIMESTAMP;
-- The sweeps look for active steps by due time, across organisations.
CREATE INDEX review_steps_due_idx ON review_steps (due_at) WHERE status = 'active';

-- Where a signature was given (21 CFR 11.10(e): who, when, from where):
-- the signer's client address and user agent as the server saw them.
-- Sealed with the other fields when present (signature encoding v2);
-- signatures made before this migration keep '' and their v1 seal.
ALTER TABLE signatures ADD COLUMN client_ip TEXT NOT NULL DEFAULT '';
ALTER TABLE signatures ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';

-- The e-mail switch for the signing lockout notice (to administrators);
-- the other review notices follow the existing switches.
ALTER TABLE notification_preferences ADD COLUMN signing_locked INTEGER NOT NULL DEFAULT 1;
