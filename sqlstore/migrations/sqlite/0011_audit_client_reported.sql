-- Entries a client appended through the data API (audit_logs,
-- audit_logs_v2) are marked client-reported; the flag is part of their hash.
-- Entries written before it existed stay unmarked, as they were hashed.
ALTER TABLE audit_log ADD COLUMN client_reported INTEGER NOT NULL DEFAULT 0;
