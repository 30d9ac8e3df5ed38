package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore/blobtest"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The demo's assets stand where real review rounds put them: each asset's
// status is the one its latest round gives it, every signature of the
// history verifies, and the demo shows what the review screens are for —
// open rounds with claimed and unclaimed steps, a round that asked for
// changes followed by a round on the next version, approvals with their
// expiry dates (one within 30 days), and a rejection.
func TestDemoReviewHistory(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			db := storetest.Open(t, backend)
			keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			id := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{SiteURL: "https://review.example.com"}, nil)
			storage := service.NewStorage(db, blobtest.Open(t, "disk").Store, []byte("secret"), http.DetectContentType)
			data := service.NewRegistry(db, storage)
			data.Config.SignatureKey = keys.AuditKey
			id.DemoContent = service.NewDemoContent(data, storage)
			client := service.Client{IP: "192.0.2.1", UserAgent: "test"}
			st, err := id.SeedDemo(ctx, client)
			if err != nil {
				t.Fatal(err)
			}
			if st.Assets != service.DemoAssets {
				t.Fatalf("after seeding: %+v", st)
			}
			now := time.Now().UTC()

			viewer := fairbalance.Caller{Role: "authenticated", UserID: fairbalance.DemoUserID(fairbalance.RoleViewer), OrgID: fairbalance.DemoOrgID, Member: fairbalance.RoleViewer, Demo: true}
			read := func(table, query string, out any) {
				t.Helper()
				res, err := data.Read(ctx, viewer, table, req(t, query))
				if err != nil {
					t.Fatalf("read %s: %v", table, err)
				}
				if err := json.Unmarshal(res.Rows, out); err != nil {
					t.Fatal(err)
				}
			}
			type step struct {
				ReviewID    string  `json:"review_id"`
				Role        string  `json:"role"`
				Status      string  `json:"status"`
				ClaimedBy   *string `json:"claimed_by"`
				SignatureID *string `json:"signature_id"`
				DueAt       *string `json:"due_at"`
			}
			type round struct {
				ID        string `json:"id"`
				Round     int    `json:"round"`
				Status    string `json:"status"`
				VersionID string `json:"version_id"`
				AssetID   string `json:"asset_id"`
				Steps     []step `json:"-"`
			}
			var assets []struct {
				ID        string  `json:"id"`
				Title     string  `json:"title"`
				Status    string  `json:"status"`
				ExpiresAt *string `json:"expires_at"`
				Approved  *string `json:"approved_version_id"`
				Rounds    []round `json:"-"`
			}
			read("assets", "select=id,title,status,expires_at,approved_version_id", &assets)
			var rounds []round
			read("reviews", "select=id,asset_id,round,status,version_id", &rounds)
			var steps []step
			read("review_steps", "select=review_id,role,status,claimed_by,signature_id,due_at&order=position", &steps)
			for _, r := range rounds {
				for _, s := range steps {
					if s.ReviewID == r.ID {
						r.Steps = append(r.Steps, s)
					}
				}
				for i := range assets {
					if assets[i].ID == r.AssetID {
						assets[i].Rounds = append(assets[i].Rounds, r)
					}
				}
			}
			if len(assets) != service.DemoAssets {
				t.Fatalf("%d assets", len(assets))
			}
			byStatus := map[string]int{}
			claimedOpen, unclaimedOpen, resubmitted, expiringSoon, decided := false, false, false, false, 0
			for _, a := range assets {
				byStatus[a.Status]++
				if len(a.Rounds) == 0 {
					if a.Status != "draft" && a.Status != "archived" {
						t.Errorf("%s is %s without a review round", a.Title, a.Status)
					}
					continue
				}
				latest := a.Rounds[0]
				for _, r := range a.Rounds {
					if r.Round > latest.Round {
						latest = r
					}
				}
				want := map[string][]string{"open": {"in_review"}, "changes_requested": {"changes_requested"}, "rejected": {"rejected"},
					"approved": {"approved", "expired", "withdrawn"}, "withdrawn": {"draft"}}[latest.Status]
				ok := false
				for _, w := range want {
					ok = ok || w == a.Status
				}
				if !ok {
					t.Errorf("%s is %s but its latest round (%d) is %s", a.Title, a.Status, latest.Round, latest.Status)
				}
				if latest.Status == "approved" && (a.Approved == nil || *a.Approved != latest.VersionID || a.ExpiresAt == nil) {
					t.Errorf("%s: approved round without the approved version and expiry: %+v", a.Title, a)
				}
				if a.Status == "approved" {
					exp, _ := time.Parse(time.DateOnly, *a.ExpiresAt)
					if exp.Before(now) {
						t.Errorf("%s is approved but expired on %s", a.Title, *a.ExpiresAt)
					}
					expiringSoon = expiringSoon || exp.Before(now.AddDate(0, 0, 30))
				}
				if a.Status == "expired" && *a.ExpiresAt > now.Format(time.DateOnly) {
					t.Errorf("%s is expired before its date %s", a.Title, *a.ExpiresAt)
				}
				for _, r := range a.Rounds {
					if r.Round > 1 && r.VersionID != "" {
						for _, prev := range a.Rounds {
							if prev.Round == r.Round-1 && prev.Status == "changes_requested" && prev.VersionID != r.VersionID {
								resubmitted = true
							}
						}
					}
					for _, s := range r.Steps {
						if s.Status == "active" && r.Status == "open" {
							claimedOpen = claimedOpen || s.ClaimedBy != nil
							unclaimedOpen = unclaimedOpen || s.ClaimedBy == nil
						}
						isDecision := s.Status == "approved" || s.Status == "approved_with_changes" || s.Status == "changes_requested" || s.Status == "rejected"
						if isDecision != (s.SignatureID != nil) {
							t.Errorf("%s round %d: %s step %s with signature %v", a.Title, r.Round, s.Role, s.Status, s.SignatureID)
						}
						if s.SignatureID == nil {
							continue
						}
						decided++
						raw, err := data.Call(ctx, viewer, "verify_signature", map[string]any{"signature_id": *s.SignatureID}, true)
						if err != nil {
							t.Fatal(err)
						}
						var v struct {
							Valid      bool   `json:"valid"`
							Reason     string `json:"reason"`
							SignerName string `json:"signer_name"`
						}
						_ = json.Unmarshal(raw, &v)
						if !v.Valid || v.SignerName == "" {
							t.Errorf("%s round %d: the %s signature does not verify: %s", a.Title, r.Round, s.Role, v.Reason)
						}
					}
				}
			}
			for _, s := range []string{"in_review", "changes_requested", "approved", "rejected", "expired", "withdrawn", "draft", "archived"} {
				if byStatus[s] == 0 {
					t.Errorf("no %s demo asset: %v", s, byStatus)
				}
			}
			if !claimedOpen || !unclaimedOpen || !resubmitted || !expiringSoon || decided < 15 {
				t.Errorf("claimed open step %v, unclaimed open step %v, a second round after changes %v, an approval expiring within 30 days %v, %d signatures",
					claimedOpen, unclaimedOpen, resubmitted, expiringSoon, decided)
			}
			// The change requests: confirmed ones (made and checked), and
			// the open checklist of the asset that asks for changes.
			var crs []struct {
				Status string `json:"status"`
			}
			read("change_requests", "select=status", &crs)
			statuses := map[string]int{}
			for _, c := range crs {
				statuses[c.Status]++
			}
			if statuses["confirmed"] == 0 || statuses["open"] == 0 || statuses["done"] == 0 {
				t.Errorf("change requests by status: %v", statuses)
			}
			// The detail aid in its second round shows its threads: two
			// carried onto version 2 with their replies, one resolved on
			// version 1.
			var notes []struct {
				ThreadID     string  `json:"thread_id"`
				VersionID    string  `json:"version_id"`
				State        string  `json:"state"`
				AnchorStatus string  `json:"anchor_status"`
				CarriedFrom  *string `json:"carried_from"`
			}
			detailAid := ""
			for _, a := range assets {
				if a.Title == "Respira COPD detail aid" {
					detailAid = a.ID
				}
			}
			read("annotations", "select=thread_id,version_id,state,anchor_status,carried_from&asset_id=eq."+detailAid, &notes)
			carried, resolved := 0, 0
			for _, n := range notes {
				if n.CarriedFrom != nil && n.AnchorStatus != "orphaned" {
					carried++
				}
				if n.State == "resolved" {
					resolved++
				}
			}
			var replies []struct {
				Body string `json:"body"`
			}
			read("annotation_replies", "select=body", &replies)
			var allNotes []struct {
				Category string `json:"category"`
			}
			read("annotations", "select=category", &allNotes)
			if len(notes) != 5 || carried != 2 || resolved != 1 || len(replies) != 2 || len(allNotes) <= len(notes) {
				t.Errorf("demo annotations: %d rows, %d carried, %d resolved, %d replies; want 5, 2, 1, 2", len(notes), carried, resolved, len(replies))
			}
			// The Review Center has work for the demo's medical reviewer.
			medical := fairbalance.Caller{Role: "authenticated", UserID: fairbalance.DemoUserID(fairbalance.RoleReviewerMedical), OrgID: fairbalance.DemoOrgID, Member: fairbalance.RoleReviewerMedical, Demo: true}
			// Compliance Intelligence has something to say on every chart of
			// the year's history.
			raw, err := data.Call(ctx, medical, "compliance_insights", nil, true)
			if err != nil {
				t.Fatal(err)
			}
			var ins fairbalance.Insights
			if err := json.Unmarshal(raw, &ins); err != nil {
				t.Fatal(err)
			}
			multi, kinds, pointed := 0, map[string]bool{}, false
			for _, b := range ins.RoundsPerAsset {
				if b.Rounds > 1 {
					multi += b.Assets
				}
			}
			for _, d := range ins.Reasons.Decisions {
				kinds[d.Decision] = true
			}
			for _, c := range ins.Reasons.ByCategory {
				pointed = pointed || c.Category != "general"
			}
			if ins.FirstPass.FirstPass < 3 || multi < 3 || ins.CycleTime.MedianHours == nil || !kinds["rejected"] || !kinds["changes_requested"] || !pointed ||
				len(ins.Reasons.TopRequests) == 0 || ins.Reasons.TopRequests[0].Count < 2 || ins.OverdueTotal == 0 || ins.Expiring[2].Count == 0 || ins.CycleTime.Approved < 6 {
				t.Errorf("demo insights: %+v", ins)
			}
			raw, err = data.Call(ctx, medical, "review_queue", map[string]any{"tab": "mine"}, true)
			if err != nil {
				t.Fatal(err)
			}
			var q struct {
				Items []map[string]any `json:"items"`
			}
			_ = json.Unmarshal(raw, &q)
			if len(q.Items) < 2 {
				t.Errorf("the medical reviewer's queue: %s", raw)
			}
			if v, err := db.View().VerifyAudit(ctx, fairbalance.DemoOrgID); err != nil || !v.OK {
				t.Fatalf("the demo's audit chain: %+v %v", v, err)
			}

			// Removal takes the history too; seeding again makes it again.
			if err := id.RemoveDemo(ctx, client); err != nil {
				t.Fatal(err)
			}
			for _, table := range []string{"reviews", "review_steps", "signatures", "change_requests", "notifications"} {
				if n, err := readAll(ctx, db, table); err != nil || n != 0 {
					t.Errorf("%d rows left in %s (%v)", n, table, err)
				}
			}
			if st, err := id.SeedDemo(ctx, client); err != nil || st.Assets != service.DemoAssets {
				t.Fatalf("seeding again: %+v %v", st, err)
			}
		})
	}
}
