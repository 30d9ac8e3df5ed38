package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

var auditT0 = time.Date(2026, 8, 1, 9, 30, 0, 123456000, time.UTC)

// testEntry is a complete entry; every field takes part in the hash.
func testEntry() fairbalance.AuditEntry {
	return fairbalance.AuditEntry{
		ID: 7, OrgID: "org-1", ActorID: "user-1", ActorEmail: "ada@example.com",
		Action: "asset.update", ObjectType: "asset", ObjectID: "asset-1",
		Before:    json.RawMessage(`{"title":"Old","tags":["a"]}`),
		After:     json.RawMessage(`{"title":"New","tags":["a","b"]}`),
		Meta:      json.RawMessage(`{"request_id":"r-1"}`),
		IP:        "203.0.113.5",
		UserAgent: "Mozilla/5.0",
		CreatedAt: auditT0,
		PrevHash:  fairbalance.GenesisHash,
	}
}

// The hash encoding is fixed: changing it would break every stored chain.
func TestAuditHashEncoding(t *testing.T) {
	e := testEntry()
	// Computed independently from the documented encoding.
	const want = "4d4d7df7e4b9dfe1520b68adc9f4fea53f985230a1b97bf148b45f25a3770f82"
	if got := e.ComputeHash(); got != want {
		t.Fatalf("ComputeHash = %s, want %s (the encoding changed)", got, want)
	}
	if e.Hash != "" {
		t.Fatal("ComputeHash modified the entry")
	}
	e.Hash = "anything"
	if e.ComputeHash() != want {
		t.Fatal("Hash takes part in its own hash")
	}

	// Every other field does.
	mutations := map[string]func(e *fairbalance.AuditEntry){
		"ID":         func(e *fairbalance.AuditEntry) { e.ID++ },
		"OrgID":      func(e *fairbalance.AuditEntry) { e.OrgID = "org-2" },
		"ActorID":    func(e *fairbalance.AuditEntry) { e.ActorID = "user-2" },
		"ActorEmail": func(e *fairbalance.AuditEntry) { e.ActorEmail = "eve@example.com" },
		"Action":     func(e *fairbalance.AuditEntry) { e.Action = "asset.delete" },
		"ObjectType": func(e *fairbalance.AuditEntry) { e.ObjectType = "version" },
		"ObjectID":   func(e *fairbalance.AuditEntry) { e.ObjectID = "asset-2" },
		"Before":     func(e *fairbalance.AuditEntry) { e.Before = json.RawMessage(`{"title":"Old","tags":[]}`) },
		"After":      func(e *fairbalance.AuditEntry) { e.After = nil },
		"Meta":       func(e *fairbalance.AuditEntry) { e.Meta = json.RawMessage(`null`) },
		"IP":         func(e *fairbalance.AuditEntry) { e.IP = "203.0.113.6" },
		"UserAgent":  func(e *fairbalance.AuditEntry) { e.UserAgent = "curl/8" },
		"CreatedAt":  func(e *fairbalance.AuditEntry) { e.CreatedAt = e.CreatedAt.Add(time.Microsecond) },
		"PrevHash":   func(e *fairbalance.AuditEntry) { e.PrevHash = strings.Repeat("1", 64) },
	}
	for name, mutate := range mutations {
		e := testEntry()
		mutate(&e)
		if e.ComputeHash() == want {
			t.Errorf("changing %s does not change the hash", name)
		}
	}

	// Length prefixes: moving bytes from one field to the next changes it.
	a, b := testEntry(), testEntry()
	a.ActorID, a.ActorEmail = "user-1a", "da@example.com"
	b.ActorID, b.ActorEmail = "user-1", "ada@example.com"
	if a.ComputeHash() == b.ComputeHash() {
		t.Error("field boundaries are ambiguous")
	}
	// An empty value differs from JSON null.
	a, b = testEntry(), testEntry()
	a.Before, b.Before = nil, json.RawMessage(`null`)
	if a.ComputeHash() == b.ComputeHash() {
		t.Error("empty and null Before hash the same")
	}

	// The JSON values are hashed as values: key order and white space (as
	// PostgreSQL's jsonb prints them) do not matter; the time zone neither.
	c := testEntry()
	c.Before = json.RawMessage(`{"tags": ["a"], "title": "Old"}`)
	c.After = json.RawMessage("{\n  \"tags\": [\"a\", \"b\"],\n  \"title\": \"New\"\n}")
	c.CreatedAt = auditT0.In(time.FixedZone("CEST", 2*3600))
	if c.ComputeHash() != want {
		t.Error("a re-spelling of the same values changes the hash")
	}
}

func TestAuditNormalize(t *testing.T) {
	e := fairbalance.AuditEntry{
		Action:    "asset.create",
		UserAgent: "bad\xff\x00agent",
		After:     json.RawMessage(` {"b": 1.50, "a": "<&>", "c": {"z": null, "y": [true]}} `),
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.FixedZone("X", -3600)),
	}
	if err := e.Normalize(); err != nil {
		t.Fatal(err)
	}
	if e.UserAgent != "bad\uFFFD\uFFFDagent" {
		t.Errorf("UserAgent %q", e.UserAgent)
	}
	if string(e.After) != `{"a":"<&>","b":1.50,"c":{"y":[true],"z":null}}` {
		t.Errorf("After %s", e.After)
	}
	if !e.CreatedAt.Equal(time.Date(2026, 1, 2, 4, 4, 5, 999999000, time.UTC)) || e.CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt %v", e.CreatedAt)
	}
	for _, bad := range []fairbalance.AuditEntry{
		{Action: ""},
		{Action: "x", Before: json.RawMessage(`{`)},
		{Action: "x", Meta: json.RawMessage(`{} {}`)},
	} {
		if err := bad.Normalize(); fairbalance.AsError(err) == nil || fairbalance.AsError(err).Kind != fairbalance.KindInvalid {
			t.Errorf("Normalize(%+v) = %v, want an invalid error", bad, err)
		}
	}
}

// appendAudit appends the entries, up to 500 per transaction, and returns
// them as stored.
func appendAudit(t testing.TB, db *sqlstore.DB, entries []fairbalance.AuditEntry) []fairbalance.AuditEntry {
	t.Helper()
	ctx := context.Background()
	out := slices.Clone(entries)
	for start := 0; start < len(out); start += 500 {
		end := min(start+500, len(out))
		err := db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
			for i := start; i < end; i++ {
				if err := tx.AppendAudit(ctx, &out[i]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("append: %v", err)
		}
	}
	return out
}

// entriesFor builds n entries of one organisation with varied fields.
func entriesFor(org string, n int) []fairbalance.AuditEntry {
	out := make([]fairbalance.AuditEntry, n)
	for i := range out {
		out[i] = fairbalance.AuditEntry{
			OrgID:      org,
			ActorID:    fmt.Sprintf("user-%d", i%3),
			ActorEmail: fmt.Sprintf("user-%d@example.com", i%3),
			Action:     []string{"asset.create", "asset.update", "review.decide", "member.invite"}[i%4],
			ObjectType: []string{"asset", "review"}[i%2],
			ObjectID:   fmt.Sprintf("obj-%d", i%5),
			After:      json.RawMessage(fmt.Sprintf(`{"n":%d,"title":"T"}`, i)),
			IP:         "198.51.100.1",
			UserAgent:  "test",
			CreatedAt:  auditT0.Add(time.Duration(i) * time.Second),
		}
		if i%10 == 9 {
			// Late: AppendAudit dates it as its predecessor.
			out[i].CreatedAt = out[i].CreatedAt.Add(-5 * time.Second)
		}
		if i%2 == 1 {
			out[i].Before = json.RawMessage(fmt.Sprintf(`{"title":"T","n":%d}`, i-1))
		}
	}
	return out
}

func sameEntry(a, b fairbalance.AuditEntry) bool {
	return a.ID == b.ID && a.OrgID == b.OrgID && a.ActorID == b.ActorID && a.ActorEmail == b.ActorEmail &&
		a.Action == b.Action && a.ObjectType == b.ObjectType && a.ObjectID == b.ObjectID &&
		string(a.Before) == string(b.Before) && string(a.After) == string(b.After) && string(a.Meta) == string(b.Meta) &&
		a.IP == b.IP && a.UserAgent == b.UserAgent && a.CreatedAt.Equal(b.CreatedAt) &&
		a.PrevHash == b.PrevHash && a.Hash == b.Hash && a.ClientReported == b.ClientReported
}

func mustVerify(t *testing.T, db *sqlstore.DB, org string, entries int64) {
	t.Helper()
	v, err := db.AuditView().VerifyAudit(context.Background(), org)
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK || v.Entries != entries || v.BrokenAt != 0 || v.Reason != "" || v.OrgID != org {
		t.Fatalf("verify %q: %+v, want ok with %d entries", org, v, entries)
	}
}

func TestAuditAppendAndVerify(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			view := db.AuditView()

			// No chains yet.
			mustVerify(t, db, "org-a", 0)
			if orgs, err := view.AuditChains(ctx); err != nil || len(orgs) != 0 {
				t.Fatalf("chains %v, %v", orgs, err)
			}
			// Outside a transaction, appending fails.
			if err := view.AppendAudit(ctx, &fairbalance.AuditEntry{Action: "x"}); err == nil {
				t.Fatal("AppendAudit outside a transaction succeeded")
			}

			// Three chains, appended interleaved; each numbers from 1.
			var all []fairbalance.AuditEntry
			a, b, inst := entriesFor("org-a", 120), entriesFor("org-b", 45), entriesFor("", 5)
			for i := 0; i < 120; i++ {
				all = append(all, a[i])
				if i < 45 {
					all = append(all, b[i])
				}
				if i < 5 {
					all = append(all, inst[i])
				}
			}
			stored := appendAudit(t, db, all)
			last := map[string]fairbalance.AuditEntry{}
			for _, e := range stored {
				prev, ok := last[e.OrgID]
				switch {
				case !ok && (e.ID != 1 || e.PrevHash != fairbalance.GenesisHash):
					t.Fatalf("first entry of %q: id %d prev %s", e.OrgID, e.ID, e.PrevHash)
				case ok && (e.ID != prev.ID+1 || e.PrevHash != prev.Hash):
					t.Fatalf("entry %d of %q does not follow %d", e.ID, e.OrgID, prev.ID)
				}
				if e.Hash != e.ComputeHash() || len(e.Hash) != 64 {
					t.Fatalf("entry %d of %q: hash %q", e.ID, e.OrgID, e.Hash)
				}
				if ok && e.CreatedAt.Before(prev.CreatedAt) {
					t.Fatalf("entry %d of %q is dated before its predecessor", e.ID, e.OrgID)
				}
				if e.ID%10 == 0 && !e.CreatedAt.Equal(prev.CreatedAt) {
					t.Fatalf("late entry %d of %q dated %v, want %v", e.ID, e.OrgID, e.CreatedAt, prev.CreatedAt)
				}
				last[e.OrgID] = e
			}
			mustVerify(t, db, "org-a", 120)
			mustVerify(t, db, "org-b", 45)
			mustVerify(t, db, "", 5)
			mustVerify(t, db, "org-none", 0)
			v, _ := view.VerifyAudit(ctx, "org-b")
			if v.HeadHash != last["org-b"].Hash {
				t.Fatalf("head hash %s, want %s", v.HeadHash, last["org-b"].Hash)
			}
			orgs, err := view.AuditChains(ctx)
			if err != nil || !slices.Equal(orgs, []string{"", "org-a", "org-b"}) {
				t.Fatalf("chains %q, %v", orgs, err)
			}

			// What is read back is what was appended, normalised.
			got, err := view.ListAudit(ctx, fairbalance.AuditFilter{OrgID: "org-a", Limit: 1000})
			if err != nil || len(got) != 120 {
				t.Fatalf("list: %d entries, %v", len(got), err)
			}
			var storedA []fairbalance.AuditEntry
			for _, e := range stored {
				if e.OrgID == "org-a" {
					storedA = append(storedA, e)
				}
			}
			for i, e := range got {
				want := storedA[len(storedA)-1-i]
				if !sameEntry(e, want) {
					t.Fatalf("read back\n%+v\nwant\n%+v", e, want)
				}
			}
			if string(got[len(got)-2].Before) != `{"n":0,"title":"T"}` || got[len(got)-1].Before != nil {
				t.Fatalf("Before not canonical or not empty: %s / %s", got[len(got)-2].Before, got[len(got)-1].Before)
			}

			// Normalisation on the way in; refusals leave the chain as it was.
			odd := fairbalance.AuditEntry{OrgID: "org-b", Action: "x", UserAgent: "a\xff\x00b", Meta: json.RawMessage(`{"z":1,"a":"\u00e9"}`)}
			if err := db.AuditTx(ctx, func(tx fairbalance.AuditStore) error { return tx.AppendAudit(ctx, &odd) }); err != nil {
				t.Fatal(err)
			}
			if odd.ID != 46 || odd.UserAgent != "a\uFFFD\uFFFDb" || string(odd.Meta) != `{"a":"é","z":1}` || odd.CreatedAt.IsZero() {
				t.Fatalf("appended %+v", odd)
			}
			err = db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
				return tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: "org-b", Action: "x", After: json.RawMessage(`{"a":`)})
			})
			if e := fairbalance.AsError(err); e == nil || e.Kind != fairbalance.KindInvalid {
				t.Fatalf("invalid JSON: %v", err)
			}
			mustVerify(t, db, "org-b", 46)
		})
	}
}

// Appends from many goroutines, through Tx as every service makes them,
// some of them rolled back, leave gap-free chains.
func TestAuditConcurrentAppends(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			orgs := []string{"org-1", "org-2", "org-3"}
			errBoom := errors.New("boom")
			const workers, perWorker = 12, 40
			var mu sync.Mutex
			committed := map[string]int64{}
			var wg sync.WaitGroup
			start := make(chan struct{}) // all at once, new chains included
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					for i := 0; i < perWorker; i++ {
						// Each transaction appends to one or two chains
						// (always in the same order, as a service must to
						// avoid deadlocks), and every fifth fails afterwards.
						targets := []string{orgs[(w+i)%3]}
						if i%4 == 0 {
							targets = []string{orgs[0], orgs[(w+i)%2+1]}
						}
						fail := i%5 == 4
						err := db.Tx(ctx, func(tx fairbalance.Tx) error {
							for _, org := range targets {
								e := &fairbalance.AuditEntry{OrgID: org, ActorID: fmt.Sprintf("w%d", w), Action: "test.append", ObjectID: fmt.Sprint(i)}
								if err := tx.AppendAudit(ctx, e); err != nil {
									return err
								}
							}
							if fail {
								return errBoom
							}
							return nil
						})
						switch {
						case fail && !errors.Is(err, errBoom):
							t.Errorf("failing transaction: %v", err)
						case !fail && err != nil:
							t.Errorf("append: %v", err)
						case !fail:
							mu.Lock()
							for _, org := range targets {
								committed[org]++
							}
							mu.Unlock()
						}
					}
				}()
			}
			close(start)
			wg.Wait()
			if t.Failed() {
				return
			}
			for _, org := range orgs {
				mustVerify(t, db, org, committed[org])
				// Every id from 1 to n, once.
				var ids []int64
				f := fairbalance.AuditFilter{OrgID: org, Limit: 100}
				for {
					page, err := db.AuditView().ListAudit(ctx, f)
					if err != nil {
						t.Fatal(err)
					}
					if len(page) == 0 {
						break
					}
					for _, e := range page {
						ids = append(ids, e.ID)
					}
					f.Before = page[len(page)-1].ID
				}
				if int64(len(ids)) != committed[org] {
					t.Fatalf("%s: %d entries listed, %d committed", org, len(ids), committed[org])
				}
				for i, id := range ids {
					if id != committed[org]-int64(i) {
						t.Fatalf("%s: ids %v", org, ids)
					}
				}
			}
		})
	}
}

// tamper runs stmts with the audit triggers out of the way, as someone with
// direct access to the database could.
func tamper(t *testing.T, db *sqlstore.DB, backend string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	if backend == "postgres" {
		stmts = append(append([]string{"ALTER TABLE audit_log DISABLE TRIGGER USER"}, stmts...), "ALTER TABLE audit_log ENABLE TRIGGER USER")
	} else {
		stmts = append([]string{"DROP TRIGGER IF EXISTS audit_log_no_update", "DROP TRIGGER IF EXISTS audit_log_no_delete"}, stmts...)
	}
	for _, s := range stmts {
		if err := sqltest.Exec(ctx, db, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestAuditTamperingIsRefusedOrDetected(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			var all []fairbalance.AuditEntry
			for _, org := range []string{"org-ok", "org-edit", "org-relink", "org-gap", "org-tail", "org-extra"} {
				all = append(all, entriesFor(org, 10)...)
			}
			stored := appendAudit(t, db, all)

			// Through normal SQL the trail cannot be changed.
			for _, s := range []string{
				`UPDATE audit_log SET action = 'x' WHERE org_id = 'org-edit' AND seq = 4`,
				`UPDATE audit_log SET created_at = created_at`,
				`DELETE FROM audit_log WHERE org_id = 'org-gap' AND seq = 5`,
				`DELETE FROM audit_log`,
				`DELETE FROM audit_chain_head WHERE org_id = 'org-ok'`,
				`UPDATE audit_chain_head SET seq = seq - 1 WHERE org_id = 'org-tail'`,
				`UPDATE audit_chain_head SET seq = seq + 2 WHERE org_id = 'org-tail'`,
				// An entry in place of another.
				`INSERT INTO audit_log (org_id, seq, action, created_at, prev_hash, hash) VALUES ('org-ok', 3, 'x', '2026-01-01 00:00:00+00', 'p', 'h')`,
			} {
				if err := sqltest.Exec(ctx, db, s); err == nil {
					t.Errorf("allowed: %s", s)
				}
			}
			if backend == "postgres" {
				for _, s := range []string{`TRUNCATE audit_log`, `TRUNCATE audit_chain_head`} {
					if err := sqltest.Exec(ctx, db, s); err == nil {
						t.Errorf("allowed: %s", s)
					}
				}
			}
			for _, org := range []string{"org-ok", "org-edit", "org-relink", "org-gap", "org-tail", "org-extra"} {
				mustVerify(t, db, org, 10)
			}

			// Around the triggers, every change is found, at its entry.
			byOrg := map[string][]fairbalance.AuditEntry{}
			for _, e := range stored {
				byOrg[e.OrgID] = append(byOrg[e.OrgID], e)
			}
			// An edited value: entry 4 no longer matches its hash.
			tamper(t, db, backend, `UPDATE audit_log SET after_data = '{"n":3,"title":"Approved"}' WHERE org_id = 'org-edit' AND seq = 4`)
			// An edit whose hash was recomputed: entry 7 no longer links.
			e := byOrg["org-relink"][5]
			e.After = json.RawMessage(`{"n":5,"title":"Rewritten"}`)
			tamper(t, db, backend, fmt.Sprintf(`UPDATE audit_log SET after_data = '%s', hash = '%s' WHERE org_id = 'org-relink' AND seq = 6`, e.After, e.ComputeHash()))
			// A deleted entry in the middle, and at the end.
			tamper(t, db, backend, `DELETE FROM audit_log WHERE org_id = 'org-gap' AND seq = 5`)
			tamper(t, db, backend, `DELETE FROM audit_log WHERE org_id = 'org-tail' AND seq = 10`)
			// Well-formed entries inserted through normal SQL (there is no
			// INSERT trigger): past the head of a chain, and as a chain of
			// their own.
			ts := auditT0.String() // as the SQLite driver writes times
			if backend == "postgres" {
				ts = auditT0.Format(time.RFC3339Nano)
			}
			for _, x := range []fairbalance.AuditEntry{
				{ID: 11, OrgID: "org-extra", Action: "asset.delete", CreatedAt: auditT0, PrevHash: byOrg["org-extra"][9].Hash},
				{ID: 1, OrgID: "org-forged", Action: "asset.delete", CreatedAt: auditT0, PrevHash: fairbalance.GenesisHash},
			} {
				x.Hash = x.ComputeHash()
				if err := sqltest.Exec(ctx, db, fmt.Sprintf(`INSERT INTO audit_log (org_id, seq, action, created_at, prev_hash, hash) VALUES ('%s', %d, '%s', '%s', '%s', '%s')`,
					x.OrgID, x.ID, x.Action, ts, x.PrevHash, x.Hash)); err != nil {
					t.Fatal(err)
				}
			}
			if orgs, err := db.AuditView().AuditChains(ctx); err != nil || !slices.Contains(orgs, "org-forged") || len(orgs) != 7 {
				t.Fatalf("chains %q, %v", orgs, err)
			}

			for _, c := range []struct {
				org    string
				at     int64
				reason string
			}{
				{"org-edit", 4, fairbalance.AuditHashMismatch},
				{"org-relink", 7, fairbalance.AuditBrokenLink},
				{"org-gap", 5, fairbalance.AuditGap},
				{"org-tail", 10, fairbalance.AuditGap},
				{"org-extra", 11, fairbalance.AuditHeadMismatch},
				{"org-forged", 1, fairbalance.AuditHeadMismatch},
			} {
				v, err := db.AuditView().VerifyAudit(ctx, c.org)
				if err != nil {
					t.Fatal(err)
				}
				if v.OK || v.BrokenAt != c.at || !strings.HasPrefix(v.Reason, c.reason) {
					t.Errorf("%s: %+v; want broken at %d: %s", c.org, v, c.at, c.reason)
				}
			}
			mustVerify(t, db, "org-ok", 10)
		})
	}
}

func TestAuditListPagination(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			var all []fairbalance.AuditEntry
			a, b := entriesFor("org-a", 230), entriesFor("org-b", 60)
			for i := range a {
				all = append(all, a[i])
				if i < len(b) {
					all = append(all, b[i])
				}
			}
			stored := appendAudit(t, db, all)
			view := db.AuditView()

			filters := map[string]fairbalance.AuditFilter{
				"none":     {},
				"action":   {Action: "review.decide"},
				"actor":    {ActorID: "user-2"},
				"type":     {ObjectType: "asset"},
				"object":   {ObjectType: "review", ObjectID: "obj-3"},
				"objects":  {ObjectType: "review", ObjectIDs: []string{"obj-1", "obj-3", "obj-none"}},
				"since":    {Since: auditT0.Add(100 * time.Second)},
				"until":    {Until: auditT0.Add(17*time.Second + time.Microsecond)},
				"range":    {Since: auditT0.Add(50 * time.Second), Until: auditT0.Add(150 * time.Second)},
				"combined": {Action: "asset.update", ActorID: "user-0", Since: auditT0.Add(30 * time.Second)},
				"nothing":  {Action: "no.such.action"},
				"future":   {Since: auditT0.Add(time.Hour)},
				"past":     {Until: auditT0},
			}
			match := func(f fairbalance.AuditFilter, e fairbalance.AuditEntry) bool {
				return e.OrgID == f.OrgID &&
					(f.Action == "" || e.Action == f.Action) &&
					(f.ActorID == "" || e.ActorID == f.ActorID) &&
					(f.ObjectType == "" || e.ObjectType == f.ObjectType) &&
					(f.ObjectID == "" || e.ObjectID == f.ObjectID) &&
					(len(f.ObjectIDs) == 0 || slices.Contains(f.ObjectIDs, e.ObjectID)) &&
					(f.Since.IsZero() || !e.CreatedAt.Before(f.Since)) &&
					(f.Until.IsZero() || e.CreatedAt.Before(f.Until))
			}
			for name, f := range filters {
				for _, org := range []string{"org-a", "org-b", "org-none"} {
					for _, limit := range []int{7, 0} {
						f.OrgID, f.Limit, f.Before = org, limit, 0
						var want []fairbalance.AuditEntry
						for i := len(stored) - 1; i >= 0; i-- {
							if match(f, stored[i]) {
								want = append(want, stored[i])
							}
						}
						var got []fairbalance.AuditEntry
						pages := 0
						for {
							page, err := view.ListAudit(ctx, f)
							if err != nil {
								t.Fatal(err)
							}
							if len(page) > max(limit, 0) && limit > 0 || len(page) > fairbalance.DefaultAuditPage {
								t.Fatalf("%s: page of %d", name, len(page))
							}
							got = append(got, page...)
							if len(page) == 0 {
								break
							}
							pages++
							f.Before = page[len(page)-1].ID
						}
						if len(got) != len(want) {
							t.Fatalf("%s %s limit %d: %d entries, want %d", name, org, limit, len(got), len(want))
						}
						for i := range got {
							if !sameEntry(got[i], want[i]) {
								t.Fatalf("%s %s: entry %d is %d, want %d", name, org, i, got[i].ID, want[i].ID)
							}
						}
						if limit == 7 && len(want) > 7 && pages < 2 {
							t.Fatalf("%s: one page only", name)
						}
					}
				}
			}
			if len(stored) != 290 {
				t.Fatal("setup")
			}

			// Page size bounds and the refused filter.
			got, err := view.ListAudit(ctx, fairbalance.AuditFilter{OrgID: "org-a", Limit: 5000})
			if err != nil || len(got) != 230 {
				t.Fatalf("limit 5000: %d, %v", len(got), err)
			}
			got, err = view.ListAudit(ctx, fairbalance.AuditFilter{OrgID: "org-a", Before: 1})
			if err != nil || len(got) != 0 {
				t.Fatalf("before 1: %d, %v", len(got), err)
			}
			_, err = view.ListAudit(ctx, fairbalance.AuditFilter{OrgID: "org-a", ObjectID: "obj-1"})
			if e := fairbalance.AsError(err); e == nil || e.Kind != fairbalance.KindInvalid || e.Code != "invalid_filter" {
				t.Fatalf("object id without type: %v", err)
			}
			for name, f := range map[string]fairbalance.AuditFilter{
				"ids without type": {OrgID: "org-a", ObjectIDs: []string{"obj-1"}},
				"id and ids":       {OrgID: "org-a", ObjectType: "review", ObjectID: "obj-1", ObjectIDs: []string{"obj-2"}},
				"too many ids":     {OrgID: "org-a", ObjectType: "review", ObjectIDs: make([]string, fairbalance.MaxAuditObjects+1)},
			} {
				if _, err := view.ListAudit(ctx, f); fairbalance.AsError(err) == nil || fairbalance.AsError(err).Code != "invalid_filter" {
					t.Fatalf("%s: %v", name, err)
				}
			}
			// Inside a write transaction the trail reads the same.
			err = db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
				page, err := tx.ListAudit(ctx, fairbalance.AuditFilter{OrgID: "org-b", Limit: 3})
				if err == nil && (len(page) != 3 || page[0].ID != 60) {
					err = fmt.Errorf("page %v", page)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// BenchmarkListAudit fetches pages of 50 entries from a chain of 1 000 000
// entries on SQLite, each before a cursor in the middle of the chain. The
// target is "action": one action (a tenth of the entries) before a cursor,
// at most 20 ms per page. Setting up takes a few minutes.
func BenchmarkListAudit(b *testing.B) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, sqlstore.Options{SQLitePath: filepath.Join(b.TempDir(), "bench.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const total, batch = 1_000_000, 20_000
	actions := []string{"asset.create", "asset.update", "version.upload", "review.submit", "review.decide",
		"annotation.create", "comment.reply", "member.invite", "settings.update", "auth.sign_in"}
	start := time.Now()
	for done := 0; done < total; done += batch {
		err := db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
			for i := done; i < done+batch; i++ {
				e := &fairbalance.AuditEntry{
					OrgID:      "org-bench",
					ActorID:    fmt.Sprintf("user-%d", i%37),
					ActorEmail: fmt.Sprintf("user-%d@example.com", i%37),
					Action:     actions[i%len(actions)],
					ObjectType: "asset",
					ObjectID:   fmt.Sprintf("asset-%d", i%5000),
					Before:     json.RawMessage(fmt.Sprintf(`{"status":"draft","title":"Asset %d"}`, i%5000)),
					After:      json.RawMessage(fmt.Sprintf(`{"status":"in_review","title":"Asset %d"}`, i%5000)),
					IP:         "198.51.100.7",
					UserAgent:  "Mozilla/5.0 (X11; Linux x86_64)",
					CreatedAt:  auditT0.Add(time.Duration(i) * time.Millisecond),
				}
				if err := tx.AppendAudit(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("appended %d entries in %v", total, time.Since(start).Round(time.Millisecond))
	view := db.AuditView()
	start = time.Now()
	v, err := view.VerifyAudit(ctx, "org-bench")
	if err != nil || !v.OK || v.Entries != total {
		b.Fatalf("verify: %+v, %v", v, err)
	}
	b.Logf("verified %d entries in %v", total, time.Since(start).Round(time.Millisecond))

	mid := time.Duration(total/2) * time.Millisecond
	for _, c := range []struct {
		name string
		f    fairbalance.AuditFilter
	}{
		{"action", fairbalance.AuditFilter{Action: "review.decide"}},
		{"none", fairbalance.AuditFilter{}},
		{"actor", fairbalance.AuditFilter{ActorID: "user-7"}},
		{"object", fairbalance.AuditFilter{ObjectType: "asset", ObjectID: "asset-42"}},
		{"since", fairbalance.AuditFilter{Since: auditT0.Add(mid / 2)}},
		{"range", fairbalance.AuditFilter{Since: auditT0.Add(mid - time.Minute), Until: auditT0.Add(mid + time.Minute)}},
		{"action_since", fairbalance.AuditFilter{Action: "review.decide", Since: auditT0.Add(mid / 2)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			f := c.f
			f.OrgID, f.Before, f.Limit = "org-bench", total/2+1, 50
			for b.Loop() {
				page, err := view.ListAudit(ctx, f)
				if err != nil || len(page) != 50 || page[0].ID > total/2 {
					b.Fatalf("page of %d, %v", len(page), err)
				}
			}
		})
	}
}

// HashMatches answers exactly ComputeHash() == Hash, whether the JSON
// fields are spelled canonically (the fast path) or not.
func TestAuditHashMatches(t *testing.T) {
	e := testEntry()
	if err := e.Normalize(); err != nil {
		t.Fatal(err)
	}
	e.Hash = e.ComputeHash()
	if !e.HashMatches() {
		t.Fatal("a canonical entry does not match its hash")
	}
	// The same values spelled otherwise still match, as ComputeHash says.
	spaced := e
	spaced.After = json.RawMessage(" " + strings.ReplaceAll(string(e.After), ":", " : ") + " ")
	if spaced.ComputeHash() != e.Hash || !spaced.HashMatches() {
		t.Fatalf("respelled JSON: ComputeHash matches %v, HashMatches %v", spaced.ComputeHash() == e.Hash, spaced.HashMatches())
	}
	// Other values do not.
	changed := e
	changed.After = json.RawMessage(strings.Replace(string(e.After), "New", "Neu", 1))
	if changed.HashMatches() || changed.ComputeHash() == e.Hash {
		t.Fatal("a changed value matches")
	}
	changed = e
	changed.Action = "x"
	if changed.HashMatches() {
		t.Fatal("a changed action matches")
	}
}
