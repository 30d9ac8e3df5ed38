CREATE TABLE users (
  id TEXT PRIMARY KEY,
  aud TEXT NOT NULL DEFAULT 'authenticated',
  role TEXT NOT NULL DEFAULT 'authenticated',
  email TEXT,
  phone TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL DEFAULT '',
  email_confirmed_at TIMESTAMPTZ,
  invited_at TIMESTAMPTZ,
  confirmation_sent_at TIMESTAMPTZ,
  recovery_sent_at TIMESTAMPTZ,
  email_change TEXT NOT NULL DEFAULT '',
  email_change_sent_at TIMESTAMPTZ,
  email_change_confirm_status INTEGER NOT NULL DEFAULT 0,
  reauthentication_sent_at TIMESTAMPTZ,
  last_sign_in_at TIMESTAMPTZ,
  app_metadata JSONB NOT NULL DEFAULT '{}',
  user_metadata JSONB NOT NULL DEFAULT '{}',
  banned_until TIMESTAMPTZ,
  deleted_at TIMESTAMPTZ,
  is_anonymous BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL AND email <> '';
CREATE INDEX users_created_at_idx ON users (created_at, id);

CREATE TABLE identities (
  id TEXT PRIMARY KEY,
  provider_id TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  identity_data JSONB NOT NULL DEFAULT '{}',
  email TEXT NOT NULL DEFAULT '',
  last_sign_in_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  UNIQUE (provider_id, provider)
);
CREATE INDEX identities_user_id_idx ON identities (user_id);

CREATE TABLE mfa_factors (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  friendly_name TEXT NOT NULL DEFAULT '',
  factor_type TEXT NOT NULL,
  status TEXT NOT NULL,
  secret TEXT NOT NULL DEFAULT '',
  last_challenged_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX mfa_factors_user_id_idx ON mfa_factors (user_id);
CREATE UNIQUE INDEX mfa_factors_name_key ON mfa_factors (user_id, friendly_name) WHERE friendly_name <> '';

CREATE TABLE mfa_challenges (
  id TEXT PRIMARY KEY,
  factor_id TEXT NOT NULL REFERENCES mfa_factors(id) ON DELETE CASCADE,
  ip_address TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  verified_at TIMESTAMPTZ
);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  aal TEXT NOT NULL DEFAULT 'aal1',
  factor_id TEXT NOT NULL DEFAULT '',
  amr JSONB NOT NULL DEFAULT '[]',
  user_agent TEXT NOT NULL DEFAULT '',
  ip TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  refreshed_at TIMESTAMPTZ,
  not_after TIMESTAMPTZ
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE refresh_tokens (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  parent TEXT NOT NULL DEFAULT '',
  counter INTEGER NOT NULL DEFAULT 1,
  revoked BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX refresh_tokens_session_counter_key ON refresh_tokens (session_id, counter);

CREATE TABLE one_time_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_type TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  relates_to TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  UNIQUE (user_id, token_type)
);
CREATE INDEX one_time_tokens_hash_idx ON one_time_tokens (token_hash);

CREATE TABLE flow_states (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL DEFAULT '',
  auth_code TEXT NOT NULL UNIQUE,
  code_challenge TEXT NOT NULL,
  code_challenge_method TEXT NOT NULL,
  authentication_method TEXT NOT NULL,
  auth_code_issued_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX flow_states_user_idx ON flow_states (user_id);

CREATE TABLE mail_outbox (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  body_text TEXT NOT NULL,
  body_html TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  sent_at TIMESTAMPTZ
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (status, next_attempt_at);
CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (recipient, id);

CREATE TABLE auth_audit (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  action TEXT NOT NULL,
  actor_id TEXT NOT NULL DEFAULT '',
  actor_email TEXT NOT NULL DEFAULT '',
  ip TEXT NOT NULL DEFAULT '',
  payload JSONB NOT NULL DEFAULT '{}',
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX auth_audit_created_idx ON auth_audit (created_at);
CREATE FUNCTION auth_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'auth_audit is append-only'; END $$;
CREATE TRIGGER auth_audit_no_change BEFORE UPDATE OR DELETE ON auth_audit
FOR EACH ROW EXECUTE FUNCTION auth_audit_append_only();
