package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore/blobtest"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The demo data holds content: products, references with real PDF files,
// claims quoting them, modules and eleven assets across types and states.
func TestDemoContent(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			db := storetest.Open(t, backend)
			blobs := blobtest.Open(t, "disk")
			keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			id := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{SiteURL: "https://review.example.com"}, nil)
			storage := service.NewStorage(db, blobs.Store, []byte("secret"), http.DetectContentType)
			data := service.NewRegistry(db, storage)
			id.DemoContent = service.NewDemoContent(data, storage)
			client := service.Client{IP: "192.0.2.1", UserAgent: "test"}

			st, err := id.SeedDemo(ctx, client)
			if err != nil {
				t.Fatal(err)
			}
			if !st.HasDemo || st.Assets != service.DemoAssets || st.Users != len(fairbalance.Roles) {
				t.Fatalf("after seeding: %+v", st)
			}
			blobCount := len(blobs.Keys(t))
			if blobCount < 4+6 {
				t.Fatalf("%d blobs: reference and asset PDFs missing", blobCount)
			}
			// Seeding again changes nothing.
			if st, err = id.SeedDemo(ctx, client); err != nil || st.Assets != service.DemoAssets {
				t.Fatalf("second seed: %+v %v", st, err)
			}
			if n := len(blobs.Keys(t)); n != blobCount {
				t.Fatalf("second seed: %d blobs, was %d", n, blobCount)
			}

			viewer := fairbalance.Caller{Role: "authenticated", UserID: fairbalance.DemoUserID(fairbalance.RoleViewer), OrgID: fairbalance.DemoOrgID, Member: fairbalance.RoleViewer, Demo: true}
			read := func(table, query string) []map[string]any {
				t.Helper()
				res, err := data.Read(ctx, viewer, table, req(t, query))
				if err != nil {
					t.Fatalf("read %s: %v", table, err)
				}
				var rows []map[string]any
				if err := json.Unmarshal(res.Rows, &rows); err != nil {
					t.Fatal(err)
				}
				return rows
			}
			if n := len(read("products", "select=id,isi_text")); n != 2 {
				t.Fatalf("%d products", n)
			}
			refs := read("references", "select=id,page_count,page_texts,file_path")
			if len(refs) < 3 {
				t.Fatalf("%d references", len(refs))
			}
			for _, r := range refs {
				if r["page_count"].(float64) < 2 || !strings.HasPrefix(r["file_path"].(string), fairbalance.DemoOrgID+"/") {
					t.Fatalf("reference without a multi-page file: %v", r)
				}
			}
			if n := len(read("claims", "select=id")); n < 5 {
				t.Fatalf("%d claims", n)
			}
			if n := len(read("claim_references", "select=id")); n < 5 {
				t.Fatalf("%d claim references", n)
			}
			kinds := map[string]bool{}
			for _, m := range read("modules", "select=kind") {
				kinds[m["kind"].(string)] = true
			}
			for _, k := range []string{"isi", "disclaimer", "claim", "copy"} {
				if !kinds[k] {
					t.Fatalf("no %s module: %v", k, kinds)
				}
			}
			assets := read("assets", "select=id,type,status,current_version_number,asset_versions(kind,page_count,content_html,submitted_at)")
			statuses, types := map[string]bool{}, map[string]bool{}
			multi, pdfs, marked := 0, 0, 0
			for _, a := range assets {
				statuses[a["status"].(string)], types[a["type"].(string)] = true, true
				vs := a["asset_versions"].([]any)
				if len(vs) >= 2 {
					multi++
				}
				if int(a["current_version_number"].(float64)) != len(vs) {
					t.Fatalf("asset %v: current version %v of %d", a["id"], a["current_version_number"], len(vs))
				}
				for _, v := range vs {
					v := v.(map[string]any)
					if v["kind"] == "file" && v["page_count"].(float64) >= 2 {
						pdfs++
					}
					if html, _ := v["content_html"].(string); strings.Contains(html, "data-module-id=") {
						marked++
					}
				}
			}
			for _, s := range []string{"draft", "in_review", "changes_requested", "approved", "expired", "archived"} {
				if !statuses[s] {
					t.Errorf("no %s asset: %v", s, statuses)
				}
			}
			if len(types) < 5 || multi < 3 || pdfs < 4 || marked < 3 {
				t.Errorf("types %v, %d assets with several versions, %d multi-page PDF versions, %d versions with modules", types, multi, pdfs, marked)
			}
			// The PDFs' text is searchable.
			out, err := data.Call(ctx, viewer, "search_content", map[string]any{"query": "rhabdomyolysis"}, true)
			if err != nil || !strings.Contains(string(out), `"kind":"reference"`) || !strings.Contains(string(out), `"kind":"asset"`) {
				t.Fatalf("search: %s %v", out, err)
			}

			// Removal takes the content and its files away.
			if err := id.RemoveDemo(ctx, client); err != nil {
				t.Fatal(err)
			}
			if st, err = id.CheckDemo(ctx); err != nil || st.HasDemo || st.Assets != 0 {
				t.Fatalf("after removal: %+v %v", st, err)
			}
			if keys := blobs.Keys(t); len(keys) != 0 {
				t.Fatalf("blobs left: %v", keys)
			}
			for _, table := range []string{"products", "assets", "asset_versions", "content_references", "claims", "modules", "storage_objects", "search_docs"} {
				rows, err := readAll(ctx, db, table)
				if err != nil {
					t.Fatal(err)
				}
				if rows != 0 {
					t.Errorf("%d rows left in %s", rows, table)
				}
			}
			// And it can be seeded again.
			if st, err = id.SeedDemo(ctx, client); err != nil || st.Assets != service.DemoAssets {
				t.Fatalf("seeding again: %+v %v", st, err)
			}
		})
	}
}

// readAll counts the demo organisation's rows of a table.
func readAll(ctx context.Context, db fairbalance.Store, table string) (int64, error) {
	_, n, err := db.View().Read(ctx, &fairbalance.ReadPlan{Table: table, Columns: []fairbalance.SelectColumn{{Column: "org_id", Alias: "org_id", Type: fairbalance.TypeText}},
		Where: &fairbalance.Cond{Column: "org_id", Operator: "eq", Value: fairbalance.DemoOrgID}, Limit: -1, Count: true})
	return n, err
}
