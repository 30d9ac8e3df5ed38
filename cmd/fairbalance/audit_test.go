package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auditseal"
	"fairbalance/auth"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// auditStore gives the flags that select a fresh database of the backend,
// and a function that opens it directly.
func auditStore(t *testing.T, backend string) (flags []string, open func() *sqlstore.DB) {
	t.Helper()
	ctx := context.Background()
	var o sqlstore.Options
	switch backend {
	case "sqlite":
		dir := t.TempDir()
		flags = []string{"--data-dir", dir}
		o.SQLitePath = filepath.Join(dir, "fairbalance.db")
	case "postgres":
		// A schema of its own, as storetest does, named on the URL.
		base := os.Getenv("TEST_DATABASE_URL")
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		schema := "t_" + hex.EncodeToString(b)
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			admin.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			admin.Close()
		})
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		o.DatabaseURL = u.String()
		flags = []string{"--database-url", o.DatabaseURL}
	}
	return flags, func() *sqlstore.DB {
		db, err := sqlstore.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
}

func TestAuditVerifyCommand(t *testing.T) {
	backends := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		backends = append(backends, "postgres")
	}
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			flags, open := auditStore(t, backend)
			verify := func(extra ...string) (string, error) {
				var out bytes.Buffer
				err := run(ctx, append(append([]string{"audit", "verify"}, flags...), extra...), nil, &out, io.Discard)
				return out.String(), err
			}

			out, err := verify()
			if err != nil || out != "no audit entries\n" {
				t.Fatalf("empty database: %q, %v", out, err)
			}

			db := open()
			err = db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
				for _, c := range []struct {
					org string
					n   int
				}{{"org-a", 5}, {"org-b", 3}, {"", 2}} {
					for i := 0; i < c.n; i++ {
						if err := tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: c.org, ActorID: "u1", Action: "asset.update", ObjectType: "asset", ObjectID: "a1"}); err != nil {
							return err
						}
					}
				}
				return nil
			})
			db.Close()
			if err != nil {
				t.Fatal(err)
			}

			out, err = verify()
			want := "org (instance): 2 entries, ok\norg org-a: 5 entries, ok\norg org-b: 3 entries, ok\n"
			if err != nil || out != want {
				t.Fatalf("verify: %v\n%s", err, out)
			}
			if out, err = verify("--org", "org-b"); err != nil || out != "org org-b: 3 entries, ok\n" {
				t.Fatalf("verify --org org-b: %v\n%s", err, out)
			}
			if out, err = verify("--org", ""); err != nil || out != "org (instance): 2 entries, ok\n" {
				t.Fatalf(`verify --org "": %v`+"\n%s", err, out)
			}
			if out, err = verify("--org", "org-none"); err != nil || out != "org org-none: 0 entries, ok\n" {
				t.Fatalf("verify --org org-none: %v\n%s", err, out)
			}

			// A direct edit of entry 3 of org-a, around the trigger.
			db = open()
			stmts := []string{"DROP TRIGGER audit_log_no_update", "UPDATE audit_log SET object_id = 'a2' WHERE org_id = 'org-a' AND seq = 3"}
			if backend == "postgres" {
				stmts = []string{"ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change", stmts[1], "ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change"}
			}
			for _, s := range stmts {
				if err := sqltest.Exec(ctx, db, s); err != nil {
					db.Close()
					t.Fatalf("%s: %v", s, err)
				}
			}
			db.Close()

			out, err = verify()
			want = "org (instance): 2 entries, ok\norg org-a: BROKEN at entry 3: hash mismatch: the entry's contents do not match its hash\norg org-b: 3 entries, ok\n"
			if err == nil || out != want {
				t.Fatalf("after tampering: %v\n%s", err, out)
			}
			if out, err = verify("--org", "org-a"); err == nil || !strings.HasPrefix(out, "org org-a: BROKEN at entry 3: ") {
				t.Fatalf("verify --org org-a after tampering: %v\n%s", err, out)
			}
		})
	}
}

func TestAuditCommandUsage(t *testing.T) {
	for _, args := range [][]string{{"audit"}, {"audit", "check"}, {"audit", "verify", "extra"}} {
		if err := run(context.Background(), args, nil, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "usage:") {
			t.Errorf("%q: %v", args, err)
		}
	}
}

// sealedTrail is a database with two sealed chains: org-a (200 entries,
// sealed at entries 100 and 200) and org-b (30 entries, sealed at 30), the
// data directory holding the keys and the checkpoint log, and the command
// that verifies it.
type sealedTrail struct {
	backend string
	dir     string
	db      *sqlstore.DB
	sealer  *auditseal.Sealer
	keys    *auth.Keys
	verify  func(extra ...string) (string, error)
	ctx     context.Context
	now     time.Time // the sealer's clock; each seal moves it a minute on
}

func newSealedTrail(t *testing.T, backend string) *sealedTrail {
	t.Helper()
	ctx := context.Background()
	flags, open := auditStore(t, backend)
	s := &sealedTrail{backend: backend, ctx: ctx}
	if backend == "sqlite" {
		s.dir = flags[1]
	} else {
		s.dir = t.TempDir()
		flags = append(flags, "--data-dir", s.dir)
	}
	s.verify = func(extra ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, append(append([]string{"audit", "verify"}, flags...), extra...), nil, &out, io.Discard)
		return out.String(), err
	}
	var err error
	if s.keys, _, err = auth.LoadOrCreateKeys(s.dir); err != nil {
		t.Fatal(err)
	}
	s.db = open()
	t.Cleanup(func() { s.db.Close() })
	s.now = time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)
	s.sealer, err = auditseal.New(ctx, auditseal.Config{
		Chains: s.db.AuditView(), Key: s.keys.AuditKey,
		Logs: []auditseal.Log{auditseal.NewFileLog(filepath.Join(s.dir, auditseal.FileName))},
		Now:  func() time.Time { return s.now },
		Log:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	s.append(t, "org-a", 100)
	s.append(t, "org-b", 30)
	s.seal(t) // 09:01
	s.append(t, "org-a", 100)
	s.seal(t) // 09:02
	return s
}

func (s *sealedTrail) append(t *testing.T, org string, n int) {
	t.Helper()
	err := s.db.AuditTx(s.ctx, func(tx fairbalance.AuditStore) error {
		for i := 0; i < n; i++ {
			if err := tx.AppendAudit(s.ctx, &fairbalance.AuditEntry{OrgID: org, ActorID: "u1", Action: "asset.update", ObjectType: "asset", ObjectID: fmt.Sprint("a", i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (s *sealedTrail) seal(t *testing.T) {
	t.Helper()
	s.now = s.now.Add(time.Minute)
	if err := s.sealer.Seal(s.ctx); err != nil {
		t.Fatal(err)
	}
}

// checkpointLines is the checkpoint log, line by line.
func (s *sealedTrail) checkpointLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.dir, auditseal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// A consistent rewrite — entry 120 of org-a changed, every later hash and
// the head recomputed, so that the chain verifies against itself — no
// longer matches the checkpoint of entry 200: verify names the
// organisation, the checkpoint and the entry, and fails. The sealer will
// not seal the rewritten chain.
func TestAuditRewriteDetected(t *testing.T) {
	for _, backend := range auditBackends() {
		t.Run(backend, func(t *testing.T) {
			s := newSealedTrail(t, backend)
			out, err := s.verify()
			want := "org org-a: 200 entries, ok, sealed up to entry 200 by 2 checkpoints (the last of 2026-08-01T09:02:00Z)\n" +
				"org org-b: 30 entries, ok, sealed up to entry 30 by 1 checkpoint (the last of 2026-08-01T09:01:00Z)\n"
			if err != nil || out != want {
				t.Fatalf("before the attack: %v\n%s", err, out)
			}

			storetest.RewriteAudit(t, s.db, backend, "org-a", 120, func(e *fairbalance.AuditEntry) { e.ObjectID = "someone-else's-asset" })
			// The chain alone cannot tell.
			if v, err := s.db.AuditView().VerifyAudit(s.ctx, "org-a"); err != nil || !v.OK || v.Entries != 200 {
				t.Fatalf("the rewrite is not consistent: %+v, %v", v, err)
			}

			out, err = s.verify()
			if err == nil || !strings.Contains(err.Error(), "broken in 1 of 2 chains") {
				t.Fatalf("verify after the rewrite: %v\n%s", err, out)
			}
			want = "org org-a: BROKEN at entry 200: checkpoint mismatch: entry 200 no longer has the hash sealed by the checkpoint of 2026-08-01T09:02:00Z"
			if !strings.HasPrefix(out, want) || !strings.Contains(out, "the chain was rewritten after entry 100 (the last sealed entry that still matches)") ||
				!strings.Contains(out, "org org-b: 30 entries, ok, sealed up to entry 30") {
				t.Fatalf("verify after the rewrite:\n%s", out)
			}
			if out, err := s.verify("--org", "org-a"); err == nil || !strings.HasPrefix(out, want) {
				t.Fatalf("verify --org org-a: %v\n%s", err, out)
			}

			// The sealer refuses to vouch for the rewritten chain, and says why.
			before := len(s.checkpointLines(t))
			s.append(t, "org-a", 1)
			s.seal(t)
			if n := len(s.checkpointLines(t)); n != before {
				t.Fatalf("the rewritten chain was sealed again (%d → %d checkpoints)", before, n)
			}
			if r := s.sealer.SealStatus().Refused["org-a"]; !strings.Contains(r, "entry 200 no longer has the hash sealed") {
				t.Fatalf("refused = %q", r)
			}
		})
	}
}

// Cutting the last 50 entries of org-a and rolling its head back leaves a
// chain consistent with itself but shorter than its last checkpoint.
func TestAuditTruncationDetected(t *testing.T) {
	for _, backend := range auditBackends() {
		t.Run(backend, func(t *testing.T) {
			s := newSealedTrail(t, backend)
			storetest.TruncateAudit(t, s.db, backend, "org-a", 50)
			if v, err := s.db.AuditView().VerifyAudit(s.ctx, "org-a"); err != nil || !v.OK || v.Entries != 150 {
				t.Fatalf("the truncation is not consistent: %+v, %v", v, err)
			}
			out, err := s.verify()
			want := "org org-a: BROKEN at entry 151: sealed entries missing: the checkpoint of 2026-08-01T09:02:00Z sealed entry 200 ("
			if err == nil || !strings.HasPrefix(out, want) || !strings.Contains(out, "but the chain ends at entry 150\n") {
				t.Fatalf("verify after the truncation: %v\n%s", err, out)
			}

			// Cut whole, head and all: the chain is still named by its checkpoints.
			storetest.RemoveAuditChain(t, s.db, backend, "org-b")
			out, err = s.verify()
			if err == nil || !strings.Contains(out, "org org-b: BROKEN at entry 1: sealed entries missing: the checkpoint of 2026-08-01T09:01:00Z sealed entry 30 (") {
				t.Fatalf("verify after removing org-b: %v\n%s", err, out)
			}

			s.append(t, "org-a", 60) // even grown past the checkpoint again
			s.seal(t)
			if r := s.sealer.SealStatus().Refused["org-a"]; !strings.Contains(r, "no longer has the hash sealed") {
				t.Fatalf("refused = %q", r)
			}
		})
	}
}

// A checkpoint changed in the log (to match a rewrite), or signed with
// another key, is named as bad; the right public key given on the command
// line checks them as the keys file's does, a wrong one refuses them all.
func TestAuditCheckpointSignatureTamperDetected(t *testing.T) {
	for _, backend := range auditBackends() {
		t.Run(backend, func(t *testing.T) {
			s := newSealedTrail(t, backend)
			if out, err := s.verify("--checkpoint-key", s.keys.AuditPublicKey()); err != nil {
				t.Fatalf("verify with the public key: %v\n%s", err, out)
			}

			newHead := storetest.RewriteAudit(t, s.db, backend, "org-a", 150, func(e *fairbalance.AuditEntry) { e.Action = "asset.delete" })
			lines := s.checkpointLines(t)
			var cp fairbalance.AuditCheckpoint
			if err := json.Unmarshal([]byte(lines[2]), &cp); err != nil || cp.OrgID != "org-a" || cp.Seq != 200 {
				t.Fatalf("line 3 %q: %v", lines[2], err)
			}
			cp.Hash = newHead // the attacker edits the checkpoint to match
			edited, _ := json.Marshal(cp)
			_, other, _ := ed25519.GenerateKey(nil)
			forged := fairbalance.AuditCheckpoint{OrgID: "org-b", Seq: 31, Hash: strings.Repeat("ab", 32), Entries: 31, At: time.Date(2026, 8, 1, 9, 5, 0, 0, time.UTC)}
			forged.Sign(other)
			forgedLine, _ := json.Marshal(forged)
			lines[2] = string(edited)
			lines = append(lines, string(forgedLine), "{not json")
			if err := os.WriteFile(filepath.Join(s.dir, auditseal.FileName), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}

			out, err := s.verify()
			for _, want := range []string{
				// The edited checkpoint is not taken; the chain matches the
				// one before it (the rewrite is after it), the forged one
				// is not taken either.
				"org org-a: 200 entries, ok, sealed up to entry 100 by 1 checkpoint",
				"org org-b: 30 entries, ok, sealed up to entry 30 by 1 checkpoint",
				"checkpoint audit-checkpoints.jsonl line 3 (org org-a, entry 200, 2026-08-01T09:02:00Z): BAD: the checkpoint's signature does not verify\n",
				"checkpoint audit-checkpoints.jsonl line 4 (org org-b, entry 31, 2026-08-01T09:05:00Z): BAD: the checkpoint was signed by an unknown key\n",
				"checkpoint audit-checkpoints.jsonl line 5: BAD: not a checkpoint",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("verify lacks %q:\n%s", want, out)
				}
			}
			if err == nil || !strings.Contains(err.Error(), "3 audit checkpoints are bad") {
				t.Fatalf("verify: %v", err)
			}
			_, wrong, _ := ed25519.GenerateKey(nil)
			out, err = s.verify("--org", "org-b", "--checkpoint-key", base64.StdEncoding.EncodeToString(wrong.Public().(ed25519.PublicKey)))
			if err == nil || !strings.Contains(out, "org org-b: 30 entries, ok, not sealed\n") || !strings.Contains(out, "entry 30, 2026-08-01T09:01:00Z): BAD: the checkpoint was signed by an unknown key") {
				t.Fatalf("verify with a wrong key: %v\n%s", err, out)
			}
			if _, err := s.verify("--checkpoint-key", "not-a-key"); err == nil || !strings.Contains(err.Error(), "--checkpoint-key") {
				t.Fatalf("a malformed key: %v", err)
			}
		})
	}
}

func auditBackends() []string {
	if os.Getenv("TEST_DATABASE_URL") != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// The server seals on shutdown what grew since its last pass, and verify
// then checks the chain against that checkpoint. An interval longer than a
// minute is refused.
func TestServeSealsOnShutdown(t *testing.T) {
	dir := t.TempDir()
	var keys bytes.Buffer
	if err := run(context.Background(), []string{"keys", "--json", "--data-dir", dir}, nil, &keys, io.Discard); err != nil {
		t.Fatal(err)
	}
	var k map[string]string
	_ = json.Unmarshal(keys.Bytes(), &k)
	if pub, err := auth.ParseAuditPublicKey(k["audit_checkpoint_public_key"]); err != nil || len(pub) != ed25519.PublicKeySize {
		t.Fatalf("keys --json: %v %v", k, err)
	}

	base, stop := startServer(t, dir) // seals every minute: only the shutdown pass runs here
	req, _ := http.NewRequest("POST", base+"/rest/v1/orgs", strings.NewReader(`{"name":"Sealed Org"}`))
	req.Header.Set("apikey", k["service_role_key"])
	req.Header.Set("Authorization", "Bearer "+k["service_role_key"])
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create org: %d", res.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(dir, auditseal.FileName)); !os.IsNotExist(err) {
		t.Fatalf("sealed before the first pass: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, auditseal.FileName))
	if err != nil {
		t.Fatalf("no checkpoint after shutdown: %v", err)
	}
	var cp fairbalance.AuditCheckpoint
	if err := json.Unmarshal(bytes.TrimSpace(b), &cp); err != nil || cp.Seq != 1 || cp.OrgID == "" {
		t.Fatalf("checkpoint %s: %v", b, err)
	}
	if st, _ := os.Stat(filepath.Join(dir, auditseal.FileName)); st.Mode().Perm() != 0o600 {
		t.Fatalf("checkpoint log mode %v", st.Mode().Perm())
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"audit", "verify", "--data-dir", dir}, nil, &out, io.Discard); err != nil || !strings.Contains(out.String(), "org "+cp.OrgID+": 1 entries, ok, sealed up to entry 1 by 1 checkpoint") {
		t.Fatalf("verify: %v\n%s", err, out.String())
	}

	if err := run(context.Background(), []string{"serve", "--data-dir", dir, "--audit-seal-interval", "2m"}, nil, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "at most 1m") {
		t.Fatalf("a 2m interval: %v", err)
	}
}
