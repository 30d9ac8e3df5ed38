package service_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// Benchmarks of the review workflow (issue 15's figures): a decision with
// its signature (≤ 150 ms of server time beyond the password hash), and
// the Review Center's first page with 10 000 open rounds (≤ 50 ms).

// instantSigner accepts every signer without hashing: the benchmark
// measures the server's work beyond the password hash, which is timed on
// its own (hash-ms).
type instantSigner struct{}

func (instantSigner) CheckSigner(context.Context, string, string, string) (service.SignerCheck, error) {
	return service.SignerOK, nil
}

// benchOrg makes an organisation with an owner, a marketer and one
// reviewer of each role, and a product with its ISI text.
func benchOrg(b *testing.B, db *sqlstore.DB, d *service.Registry) (members map[string]fairbalance.Caller, productID string) {
	b.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	orgID := "00000000-0000-4000-8000-0000000000aa"
	members = map[string]fairbalance.Caller{}
	err := db.Tx(ctx, func(tx fairbalance.Tx) error {
		if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: orgID, Name: "Bench", CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		for i, role := range []string{fairbalance.RoleOwner, fairbalance.RoleMarketer, fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory} {
			uid := fmt.Sprintf("00000000-0000-4000-8000-0000000001%02d", i)
			if err := tx.CreateUser(ctx, &fairbalance.User{ID: uid, Email: role + "@bench.example.com", CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			if err := tx.CreateProfile(ctx, &fairbalance.Profile{ID: uid, OrgID: orgID, Role: role, FullName: "Bench " + role, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			members[role] = fairbalance.Caller{Role: "authenticated", UserID: uid, OrgID: orgID, Member: role}
		}
		return tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: orgID, Action: "org.seeded"})
	})
	if err != nil {
		b.Fatal(err)
	}
	productID = "00000000-0000-4000-8000-0000000002aa"
	err = db.Tx(ctx, func(tx fairbalance.Tx) error {
		_, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "products", Columns: []string{"id", "org_id", "brand_name", "isi_text", "created_at", "updated_at"},
			Rows: []map[string]any{{"id": productID, "org_id": orgID, "brand_name": "Zelvora", "isi_text": "IMPORTANT SAFETY INFORMATION: Zelvora can cause liver problems.",
				"created_at": now, "updated_at": now}}})
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return members, productID
}

// BenchmarkDecideStep measures decide_step through the data API (checks,
// the sealed signature, the decision, the roll-up, the audit entries and
// notifications, in one transaction), with the password check replaced
// by an instant one; hash-ms is the argon2id check it replaces. "open"
// decides the first step of a round; "closing" the last one, which also
// closes the round and approves the asset.
//
//	go test -tags noui ./service -run '^$' -bench BenchmarkDecideStep -benchtime 200x
//	TEST_DATABASE_URL=postgres://… go test -tags noui ./service -run '^$' -bench BenchmarkDecideStep -benchtime 200x
func BenchmarkDecideStep(b *testing.B) {
	hasher := auth.NewHasher(1)
	hash, err := hasher.Hash(context.Background(), reviewPassword)
	if err != nil {
		b.Fatal(err)
	}
	var hashTook time.Duration
	for range 5 {
		start := time.Now()
		if ok, _ := hasher.Verify(context.Background(), reviewPassword, hash); !ok {
			b.Fatal("hash")
		}
		hashTook += time.Since(start)
	}
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) {
			db := storetest.Open(b, backend)
			d := service.NewRegistry(db, nil)
			_, key, _ := ed25519.GenerateKey(rand.Reader)
			d.Config.Signer, d.Config.SignatureKey = instantSigner{}, key
			members, productID := benchOrg(b, db, d)
			ctx := context.Background()
			call := func(c fairbalance.Caller, fn string, args map[string]any) map[string]any {
				out, err := callErr(&matrixEnv{ctx: ctx, data: d}, c, fn, args)
				if err != nil {
					b.Fatalf("%s: %v", fn, err)
				}
				return out
			}
			n := 0
			round := func() map[string]map[string]any {
				n++
				a := call(members[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": fmt.Sprintf("Bench %d", n), "type": "email", "audience": "hcp",
					"channel": "Email", "market": "US", "product_id": productID, "content_html": readyHTML})
				return byRole(call(members[fairbalance.RoleMarketer], "submit_for_review", map[string]any{"asset_id": a["id"]})["steps"])
			}
			decide := func(role string, steps map[string]map[string]any) {
				call(members[role], "decide_step", map[string]any{"step_id": steps[role]["id"], "decision": "approved", "comment": "Approved.", "password": "x"})
			}
			for _, closing := range []bool{false, true} {
				name := "open"
				if closing {
					name = "closing"
				}
				b.Run(name, func(b *testing.B) {
					var took []float64
					var cpu time.Duration
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						steps := round()
						if closing {
							decide(fairbalance.RoleReviewerMedical, steps)
							decide(fairbalance.RoleReviewerLegal, steps)
						}
						b.StartTimer()
						start, c0 := time.Now(), processCPU()
						decide(fairbalance.RoleReviewerRegulatory, steps)
						cpu += processCPU() - c0
						took = append(took, float64(time.Since(start).Microseconds())/1000)
					}
					b.StopTimer()
					reportTimes(b, took)
					b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
					b.ReportMetric(float64(hashTook.Microseconds())/5000, "hash-ms")
				})
			}
		})
	}
}

// BenchmarkReviewQueue10k measures review_queue's first page (25 items
// and the three tabs' counts) through the data API, with 10 000 open
// rounds (30 000 active steps, some claimed) in the organisation, all of
// one product: a product filter keeps every round, the filtered counts'
// worst case. Measured 2026-11 with the build before migration 0022 and
// the one after it run in turn, five times each, on a 2-core machine at a
// load average of 8 to 14 (median p50 in ms, before → after):
//
//	                              SQLite        PostgreSQL 15
//	mine                          18 → 22       25 → 27
//	open-by-type-and-role         66 → 10       50 → 22
//	mine-by-product-and-type      96 → 15       77 → 29
//	open-by-product               102 → 16      56 → 15
//	open-by-role                  31 → 34       38 → 19
//	submitted-by-type-and-role    142 → 28      62 → 25
//
// Before 0022 a filtered count looked every round's (or step's) asset up;
// now rounds and steps carry their asset's type and product and the
// queue indexes cover the counts (see the migration).
//
//	go test -tags noui ./service -run '^$' -bench BenchmarkReviewQueue10k -benchtime 50x
//	TEST_DATABASE_URL=postgres://… go test -tags noui ./service -run '^$' -bench BenchmarkReviewQueue10k -benchtime 50x
//
// REVIEW_BENCH_KEEP keeps the seeded rounds to look at the query plans:
// SQLite copies its database to that file, PostgreSQL the three tables
// into that schema (replaced if it exists).
func BenchmarkReviewQueue10k(b *testing.B) {
	const rounds = 10_000
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) {
			db := storetest.Open(b, backend)
			d := service.NewRegistry(db, nil)
			members, productID := benchOrg(b, db, d)
			seedQueueBench(b, db, members, productID, rounds)
			ctx := context.Background()
			med, marketer := members[fairbalance.RoleReviewerMedical], members[fairbalance.RoleMarketer]
			cases := []struct {
				name string
				c    fairbalance.Caller
				args map[string]any
			}{
				{"mine", med, map[string]any{"tab": "mine"}},
				{"open", med, map[string]any{"tab": "open"}},
				{"submitted", marketer, map[string]any{"tab": "submitted"}},
				{"open-by-type-and-role", med, map[string]any{"tab": "open", "type": "banner", "role": "reviewer_legal"}},
				{"mine-overdue", med, map[string]any{"tab": "mine", "status": "overdue"}},
				{"mine-by-type", med, map[string]any{"tab": "mine", "type": "banner"}},
				{"mine-by-product-and-type", med, map[string]any{"tab": "mine", "product_id": productID, "type": "email"}},
				{"open-by-product", med, map[string]any{"tab": "open", "product_id": productID}},
				{"open-by-type", med, map[string]any{"tab": "open", "type": "banner"}},
				{"open-by-role", med, map[string]any{"tab": "open", "role": "reviewer_regulatory"}},
				{"open-overdue-by-type", med, map[string]any{"tab": "open", "status": "overdue", "type": "email"}},
				{"submitted-by-type-and-role", marketer, map[string]any{"tab": "submitted", "type": "banner", "role": "reviewer_legal"}},
				{"submitted-by-product-open", marketer, map[string]any{"tab": "submitted", "product_id": productID, "status": "open"}},
			}
			for _, q := range cases {
				b.Run(q.name, func(b *testing.B) {
					var took []float64
					var out map[string]any
					var cpu time.Duration
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						start, c0 := time.Now(), processCPU()
						raw, err := d.Call(ctx, q.c, "review_queue", q.args, true)
						cpu += processCPU() - c0
						took = append(took, float64(time.Since(start).Microseconds())/1000)
						if err != nil {
							b.Fatal(err)
						}
						if i == 0 {
							if err := json.Unmarshal(raw, &out); err != nil {
								b.Fatal(err)
							}
						}
					}
					b.StopTimer()
					if items := out["items"].([]any); len(items) != 25 || out["next"] == nil {
						b.Fatalf("%s: %d items, next %v", q.name, len(items), out["next"])
					}
					b.Logf("%s %s: counts %v", backend, q.name, out["counts"])
					reportTimes(b, took)
					b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
				})
			}
		})
	}
}

// seedQueueBench adds n assets in review of the product, each with an
// open round of three active steps due over the next weeks (and the past
// few days: some are overdue); one step in fifty is claimed by its role's
// reviewer.
func seedQueueBench(b *testing.B, db *sqlstore.DB, members map[string]fairbalance.Caller, productID string, n int) {
	b.Helper()
	ctx := context.Background()
	marketer := members[fairbalance.RoleMarketer]
	types := []string{"email", "web_page", "detail_aid", "social_post", "banner", "print", "video_script"}
	start := time.Now()
	var assets []sqltest.BulkAsset
	for i := range n {
		assets = append(assets, sqltest.BulkAsset{
			ID: fmt.Sprintf("a%07d-0000-4000-8000-000000000000", i), VersionID: fmt.Sprintf("b%07d-0000-4000-8000-000000000000", i),
			OrgID: marketer.OrgID, CreatedBy: marketer.UserID, OwnerID: marketer.UserID, ProductID: productID,
			Title: fmt.Sprintf("Queue asset %d", i), Type: types[i%len(types)], Audience: "hcp", Market: "US", Channel: "email",
			JobCode: fmt.Sprintf("FB-US-%06d", i), Status: "in_review", Text: "Zelvora lowers LDL-C.",
		})
	}
	if err := sqltest.BulkInsertAssets(ctx, db, assets); err != nil {
		b.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	roles := []string{fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory}
	reviewCols := []string{"id", "org_id", "asset_id", "version_id", "round", "status", "template_name", "submitted_by", "submitted_at", "due_at", "created_at", "updated_at"}
	stepCols := []string{"id", "org_id", "review_id", "asset_id", "position", "role", "required", "step_order", "due_days", "status", "activated_at", "due_at", "claimed_by", "claimed_at", "comment", "created_at", "updated_at"}
	const batch = 500
	for base := 0; base < n; base += batch {
		var reviews, steps []map[string]any
		for i := base; i < min(base+batch, n); i++ {
			id := fmt.Sprintf("c%07d-0000-4000-8000-000000000000", i)
			due := now.Add(time.Duration(i%(24*30))*time.Hour - 72*time.Hour)
			reviews = append(reviews, map[string]any{"id": id, "org_id": marketer.OrgID, "asset_id": assets[i].ID, "version_id": assets[i].VersionID,
				"round": int64(1), "status": "open", "template_name": fairbalance.DefaultWorkflowName, "submitted_by": marketer.UserID,
				"submitted_at": now, "due_at": due, "created_at": now, "updated_at": now})
			for p, role := range roles {
				var claimed any
				if (i+p)%50 == 0 {
					claimed = members[role].UserID
				}
				steps = append(steps, map[string]any{"id": fmt.Sprintf("d%07d-000%d-4000-8000-000000000000", i, p), "org_id": marketer.OrgID, "review_id": id,
					"asset_id": assets[i].ID, "position": int64(p + 1), "role": role, "required": true, "step_order": int64(1), "due_days": int64(5),
					"status": "active", "activated_at": now, "due_at": due, "claimed_by": claimed, "claimed_at": nil, "comment": "", "created_at": now, "updated_at": now})
			}
		}
		err := db.Tx(ctx, func(tx fairbalance.Tx) error {
			if _, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "reviews", Columns: reviewCols, Rows: reviews}); err != nil {
				return err
			}
			_, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "review_steps", Columns: stepCols, Rows: steps})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("%s: seeded %d open rounds in %v", db.Backend(), n, time.Since(start).Round(time.Millisecond))
	if keep := os.Getenv("REVIEW_BENCH_KEEP"); keep != "" && db.Backend() == "sqlite" {
		if err := sqltest.Exec(ctx, db, "VACUUM INTO '"+keep+"'"); err != nil {
			b.Fatal(err)
		}
	}
	if keep := os.Getenv("REVIEW_BENCH_KEEP"); keep != "" && db.Backend() == "postgres" {
		for _, stmt := range []string{"DROP SCHEMA IF EXISTS " + keep + " CASCADE", "CREATE SCHEMA " + keep,
			"CREATE TABLE " + keep + ".reviews (LIKE reviews INCLUDING ALL)", "INSERT INTO " + keep + ".reviews SELECT * FROM reviews",
			"CREATE TABLE " + keep + ".review_steps (LIKE review_steps INCLUDING ALL)", "INSERT INTO " + keep + ".review_steps SELECT * FROM review_steps",
			"CREATE TABLE " + keep + ".assets AS SELECT * FROM assets", "ALTER TABLE " + keep + ".assets ADD PRIMARY KEY (id)"} {
			if err := sqltest.Exec(ctx, db, stmt); err != nil {
				b.Fatal(err)
			}
		}
	}
	if db.Backend() == "postgres" {
		// As autovacuum would leave them (SQLite is never analysed).
		if err := sqltest.Exec(ctx, db, "VACUUM ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
}
