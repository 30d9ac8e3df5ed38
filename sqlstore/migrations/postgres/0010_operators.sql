-- Instance operators (issue 13): the accounts that, beside the recovery key
-- and the service role, change the instance-wide settings and run the
-- safe-mode repairs. An organisation's admin is not one unless marked.
CREATE TABLE instance_operators (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  granted_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL
);

-- An upgraded instance keeps working: its first administrator (the
-- earliest account that is an active owner or admin, outside the demo
-- organisation) becomes its operator.
INSERT INTO instance_operators (user_id, granted_by, created_at)
SELECT u.id, 'migration', now()
FROM users u JOIN profiles_v2 p ON p.id = u.id
WHERE p.role IN ('owner','admin') AND p.deactivated_at IS NULL AND u.deleted_at IS NULL
  AND COALESCE(p.org_id, '') <> '00000000-0000-4000-8000-00000000d3e0'
  AND COALESCE(u.email, '') NOT LIKE '%@demo.example.com'
ORDER BY u.created_at, u.id
LIMIT 1;
