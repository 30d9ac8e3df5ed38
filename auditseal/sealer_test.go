package auditseal_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auditseal"
	"fairbalance/blobstore"
	"fairbalance/blobstore/blobtest"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"
)

var t0 = time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func appendN(t *testing.T, db *sqlstore.DB, org string, n int) {
	t.Helper()
	ctx := context.Background()
	err := db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
		for i := 0; i < n; i++ {
			if err := tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: org, Action: "asset.update", ObjectType: "asset", ObjectID: "a"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// read returns the good checkpoints of a log, failing on bad ones.
func read(t *testing.T, l auditseal.Log, key ed25519.PrivateKey) []fairbalance.AuditCheckpoint {
	t.Helper()
	keys := map[string]ed25519.PublicKey{fairbalance.AuditKeyID(key.Public().(ed25519.PublicKey)): key.Public().(ed25519.PublicKey)}
	var out []fairbalance.AuditCheckpoint
	err := l.Read(context.Background(), func(r auditseal.Record) error {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Source, r.Err)
		}
		if err := r.Checkpoint.Verify(keys); err != nil {
			t.Fatalf("%s: %v", r.Source, err)
		}
		out = append(out, r.Checkpoint)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type brief struct {
	org string
	seq int64
	at  time.Time
}

func briefs(cps []fairbalance.AuditCheckpoint) []brief {
	var out []brief
	for _, c := range cps {
		out = append(out, brief{c.OrgID, c.Seq, c.At})
	}
	return out
}

func same(a, b []brief) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].org != b[i].org || a[i].seq != b[i].seq || !a[i].at.Equal(b[i].at) {
			return false
		}
	}
	return true
}

// The sealer seals on its schedule — each grown chain once a tick, an
// unchanged one never again — and once more when it is stopped; a new
// sealer picks up where the log ends. The schedule is a channel of the
// test's: a second tick is taken only once the pass of the first has
// ended, so no test step waits on the wall clock.
func TestSealerSchedule(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			_, key, _ := ed25519.GenerateKey(nil)
			log := auditseal.NewFileLog(filepath.Join(t.TempDir(), auditseal.FileName))
			tick := make(chan time.Time)
			var interval time.Duration
			var mu sync.Mutex
			now := t0
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			setClock := func(t time.Time) { mu.Lock(); now = t; mu.Unlock() }
			s, err := auditseal.New(context.Background(), auditseal.Config{
				Chains: db.AuditView(), Key: key, Logs: []auditseal.Log{log}, Now: clock, Log: quiet(),
				Ticker: func(d time.Duration) (<-chan time.Time, func()) { interval = d; return tick, func() {} },
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { s.Run(ctx); close(done) }()
			pass := func(at time.Time) {
				setClock(at)
				tick <- at
				tick <- at // taken once the first pass is over; this one finds nothing new
				// The second tick's pass may still be running: Seal runs one
				// pass at a time, so this returns once it is over (and finds
				// nothing new itself), before the test appends again.
				_ = s.Seal(context.Background())
			}

			pass(t0.Add(time.Minute))
			if interval != time.Minute {
				t.Fatalf("interval %v", interval)
			}
			if _, err := os.Stat(log.Path()); !os.IsNotExist(err) {
				t.Fatalf("empty trail sealed: %v", err)
			}

			appendN(t, db, "org-a", 3)
			appendN(t, db, "org-b", 2)
			pass(t0.Add(2 * time.Minute))
			want := []brief{{"org-a", 3, t0.Add(2 * time.Minute)}, {"org-b", 2, t0.Add(2 * time.Minute)}}
			if got := briefs(read(t, log, key)); !same(got, want) {
				t.Fatalf("after the first growth: %v", got)
			}
			pass(t0.Add(3 * time.Minute)) // nothing grew
			if got := briefs(read(t, log, key)); !same(got, want) {
				t.Fatalf("an unchanged chain was sealed again: %v", got)
			}
			appendN(t, db, "org-a", 1)
			pass(t0.Add(4 * time.Minute))
			want = append(want, brief{"org-a", 4, t0.Add(4 * time.Minute)})
			if got := briefs(read(t, log, key)); !same(got, want) {
				t.Fatalf("after org-a grew: %v", got)
			}
			if cp, ok := s.LastCheckpoint("org-a"); !ok || cp.Seq != 4 {
				t.Fatalf("last checkpoint of org-a: %+v", cp)
			}
			st := s.SealStatus()
			if st.Error != "" || !st.LastSealed.Equal(t0.Add(4*time.Minute)) || st.Interval != time.Minute || st.KeyID == "" || len(st.Places) != 1 {
				t.Fatalf("status %+v", st)
			}

			// Stopping seals what grew since the last tick.
			appendN(t, db, "org-b", 1)
			setClock(t0.Add(4*time.Minute + 30*time.Second))
			stop()
			<-done
			want = append(want, brief{"org-b", 3, t0.Add(4*time.Minute + 30*time.Second)})
			got := read(t, log, key)
			if !same(briefs(got), want) {
				t.Fatalf("after the stop: %v", briefs(got))
			}
			head, _ := db.AuditView().AuditHeads(context.Background())
			if got[3].Hash != head[1].Hash || got[3].Entries != 3 || got[3].KeyID != fairbalance.AuditKeyID(key.Public().(ed25519.PublicKey)) {
				t.Fatalf("checkpoint %+v, head %+v", got[3], head[1])
			}

			// A new sealer (a restart) knows the last checkpoints and seals
			// nothing that did not grow.
			s2, err := auditseal.New(context.Background(), auditseal.Config{Chains: db.AuditView(), Key: key, Logs: []auditseal.Log{log}, Now: clock, Log: quiet()})
			if err != nil {
				t.Fatal(err)
			}
			if cp, ok := s2.LastCheckpoint("org-b"); !ok || cp.Seq != 3 {
				t.Fatalf("after a restart, last of org-b: %+v", cp)
			}
			if err := s2.Seal(context.Background()); err != nil || len(read(t, log, key)) != 4 {
				t.Fatalf("a restart sealed again: %v", err)
			}
		})
	}
}

// Checkpoints go to S3 as one object each, named by organisation, entry
// and a digest of the bytes: written once, never replaced, read back by
// Check; an object whose bytes were changed is named.
func TestSealerS3(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	_, key, _ := ed25519.GenerateKey(nil)
	h := blobtest.Open(t, "s3")
	file := auditseal.NewFileLog(filepath.Join(t.TempDir(), auditseal.FileName))
	bucket := auditseal.NewBlobLog(h.Store)
	s, err := auditseal.New(context.Background(), auditseal.Config{Chains: db.AuditView(), Key: key, Logs: []auditseal.Log{file, bucket}, Now: func() time.Time { return t0 }, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, db, "org-a", 2)
	appendN(t, db, "", 1)
	if err := s.Seal(context.Background()); err != nil {
		t.Fatal(err)
	}
	keys := h.Keys(t)
	if len(keys) != 2 || !strings.HasPrefix(keys[0], "audit-checkpoints/_instance/00000000000000000001-") || !strings.HasPrefix(keys[1], "audit-checkpoints/org-a/00000000000000000002-") {
		t.Fatalf("objects %q", keys)
	}
	if st := s.SealStatus(); len(st.Places) != 2 || st.Places[1] != "s3" || st.Error != "" {
		t.Fatalf("status %+v", st)
	}
	// Written again (another instance sealing the same head), nothing changes.
	again := read(t, file, key)
	if err := bucket.Append(context.Background(), again); err != nil || len(h.Keys(t)) != 2 {
		t.Fatalf("a duplicate was written: %v %q", err, h.Keys(t))
	}
	pub := key.Public().(ed25519.PublicKey)
	checked, err := auditseal.Check(context.Background(), []auditseal.Log{file, bucket}, map[string]ed25519.PublicKey{fairbalance.AuditKeyID(pub): pub})
	if err != nil || checked.Records != 4 || checked.Checkpoints != 2 || len(checked.Bad) != 0 || checked.Last["org-a"].Seq != 2 || len(checked.Seals[""]) != 1 {
		t.Fatalf("check: %+v, %v", checked, err)
	}

	// Someone with access to the bucket rewrites an object.
	cp := again[1]
	cp.Hash = strings.Repeat("0", 64)
	b, _ := json.Marshal(cp)
	if _, err := h.Store.Put(context.Background(), keys[1], bytes.NewReader(b), 0); err != nil {
		t.Fatal(err)
	}
	checked, err = auditseal.Check(context.Background(), []auditseal.Log{bucket}, map[string]ed25519.PublicKey{fairbalance.AuditKeyID(pub): pub})
	if err != nil || len(checked.Bad) != 1 || checked.Bad[0].Source != keys[1] || !strings.Contains(checked.Bad[0].Err.Error(), "do not match its key") {
		t.Fatalf("check after the rewrite: %+v, %v", checked, err)
	}
}

// A pass that cannot write its checkpoints fails, says so in the status and
// is tried again on the next pass; a failing second place does not keep
// the checkpoints from the first.
func TestSealerFailures(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	_, key, _ := ed25519.GenerateKey(nil)
	dir := t.TempDir()
	path := filepath.Join(dir, auditseal.FileName)
	if err := os.Mkdir(path, 0o700); err != nil { // the log's place is taken
		t.Fatal(err)
	}
	filesDir := filepath.Join(dir, "files")
	disk, err := blobstore.NewDisk(filesDir)
	if err != nil {
		t.Fatal(err)
	}
	file := auditseal.NewFileLog(path)
	s, err := auditseal.New(context.Background(), auditseal.Config{Chains: db.AuditView(), Key: key, Logs: []auditseal.Log{file, auditseal.NewBlobLog(disk)}, Now: func() time.Time { return t0 }, Log: quiet()})
	if err != nil {
		t.Fatalf("an unreadable log stopped the sealer: %v", err)
	}
	if st := s.SealStatus(); !strings.Contains(st.Error, "read the checkpoints") {
		t.Fatalf("status after an unreadable log: %+v", st)
	}
	appendN(t, db, "org-a", 1)
	if err := s.Seal(context.Background()); err == nil {
		t.Fatal("a pass with an unwritable log succeeded")
	}
	if st := s.SealStatus(); !strings.Contains(st.Error, "write the checkpoints to the data directory") || st.ErrorAt.IsZero() || !st.LastSealed.IsZero() {
		t.Fatalf("status %+v", st)
	}
	if _, ok := s.LastCheckpoint("org-a"); ok {
		t.Fatal("a checkpoint that was not written counts as sealed")
	}

	// The data directory is fixed; the files' place breaks.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filesDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filesDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err = s.Seal(context.Background())
	if err == nil || !strings.Contains(err.Error(), "write the checkpoints to s3") {
		t.Fatalf("second place failing: %v", err)
	}
	if len(read(t, file, key)) != 1 {
		t.Fatal("the data directory's checkpoint is missing")
	}
	if st := s.SealStatus(); !strings.Contains(st.Error, "s3") || !st.LastSealed.Equal(t0) {
		t.Fatalf("status %+v", st)
	}
	// Nothing new to seal: the next pass clears the error.
	if err := s.Seal(context.Background()); err != nil || s.SealStatus().Error != "" {
		t.Fatalf("a clean pass: %v, %+v", err, s.SealStatus())
	}
}

// A line torn by a crash is named by the reader and does not spoil the
// next append, which starts on a line of its own.
func TestFileLogTornLine(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(nil)
	path := filepath.Join(t.TempDir(), auditseal.FileName)
	l := auditseal.NewFileLog(path)
	cp := fairbalance.AuditCheckpoint{OrgID: "org-a", Seq: 1, Hash: strings.Repeat("a", 64), Entries: 1, At: t0}
	cp.Sign(key)
	if err := l.Append(context.Background(), []fairbalance.AuditCheckpoint{cp}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	_, _ = f.WriteString(`{"org_id":"org-a","seq":2,"ha`)
	f.Close()
	cp2 := cp
	cp2.Seq, cp2.Entries = 3, 3
	cp2.Sign(key)
	if err := l.Append(context.Background(), []fairbalance.AuditCheckpoint{cp2}); err != nil {
		t.Fatal(err)
	}
	var good, bad []string
	_ = l.Read(context.Background(), func(r auditseal.Record) error {
		if r.Err != nil {
			bad = append(bad, r.Source)
		} else {
			good = append(good, r.Source)
		}
		return nil
	})
	if strings.Join(good, ",") != "audit-checkpoints.jsonl line 1,audit-checkpoints.jsonl line 3" || strings.Join(bad, ",") != "audit-checkpoints.jsonl line 2" {
		t.Fatalf("good %q, bad %q", good, bad)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
}
