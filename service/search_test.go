package service_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// Full-text search (search_content) over assets, claims, modules and
// references, on each backend.

func newSearchEnv(t *testing.T, backend string) *matrixEnv {
	m := newMatrix(t, backend)
	return m
}

func search(t *testing.T, m *matrixEnv, c fairbalance.Caller, args map[string]any) (*service.SearchResult, error) {
	t.Helper()
	out, err := m.data.Call(m.ctx, c, "search_content", args, false)
	if err != nil {
		return nil, err
	}
	var r service.SearchResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("search result %s: %v", out, err)
	}
	// The answer reports no server timing: results only.
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(out, &keys); err != nil || len(keys) != 1 || keys["results"] == nil {
		t.Fatalf("search result %s: want {results} only", out)
	}
	return &r, nil
}

func mustSearch(t *testing.T, m *matrixEnv, c fairbalance.Caller, args map[string]any) []fairbalance.SearchHit {
	t.Helper()
	r, err := search(t, m, c, args)
	if err != nil {
		t.Fatalf("search %v: %v", args, err)
	}
	if r.Results == nil {
		t.Fatalf("search %v: results %v", args, r.Results)
	}
	return r.Results
}

func hitIDs(hits []fairbalance.SearchHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

type searchFixture struct {
	product, otherProduct                   string
	leaflet, email, banner, archived, other string
	claim, module, reference                string
}

// seedSearch gives org "own" three assets mentioning velostatin (one in
// its title), an unrelated one, a claim, a module and a reference; org
// "other" one asset with the same word.
func seedSearch(t *testing.T, m *matrixEnv) searchFixture {
	t.Helper()
	admin := m.members["own"][fairbalance.RoleAdmin]
	marketer := m.members["own"][fairbalance.RoleMarketer]
	var f searchFixture
	f.product = mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Cardiomax", "established_name": "velostatin"})["id"].(string)
	f.otherProduct = mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Respira"})["id"].(string)
	id := func(n int) string { return fmt.Sprintf("a0000000-0000-4000-8000-%012d", n) }
	vid := func(n int) string { return fmt.Sprintf("b0000000-0000-4000-8000-%012d", n) }
	f.leaflet, f.email, f.banner, f.archived, f.other = id(1), id(2), id(3), id(4), id(5)
	assets := []sqltest.BulkAsset{
		{ID: f.leaflet, VersionID: vid(1), OrgID: m.orgs["own"], Title: "Velostatin patient leaflet", Type: "print", Audience: "patient", Market: "US", JobCode: "FB-US-0001", Status: "approved", OwnerID: marketer.UserID, ProductID: f.product,
			Text: "Ask your doctor whether this medicine is right for you.\fPage two talks about side effects."},
		{ID: f.email, VersionID: vid(2), OrgID: m.orgs["own"], Title: "Launch email for cardiologists", Type: "email", Audience: "hcp", Market: "US", JobCode: "FB-US-0002", Status: "draft", OwnerID: admin.UserID, ProductID: f.product,
			Text: "In the LIPID-7 study, velostatin lowered LDL-C by 38.5% at 12 weeks. Café crème."},
		{ID: f.banner, VersionID: vid(3), OrgID: m.orgs["own"], Title: "Banner for the EU congress", Type: "banner", Audience: "hcp", Market: "EU", JobCode: "FB-EU-0003", Status: "in_review", OwnerID: marketer.UserID, ProductID: f.otherProduct,
			Text: "Tiotrazole inhalation powder. Not velostatin."},
		{ID: f.archived, VersionID: vid(4), OrgID: m.orgs["own"], Title: "Old tablets detail aid", Type: "detail_aid", Audience: "hcp", Market: "US", JobCode: "FB-US-0004", Status: "archived", OwnerID: marketer.UserID,
			Text: "Unrelated words about tablets and dosing."},
		{ID: f.other, VersionID: vid(5), OrgID: m.orgs["other"], Title: "Velostatin leaflet of another organisation", Type: "print", Audience: "patient", Market: "US", JobCode: "FB-US-0001", Status: "approved",
			Text: "velostatin velostatin velostatin"},
	}
	if err := sqltest.BulkInsertAssets(m.ctx, m.db, assets); err != nil {
		t.Fatal(err)
	}
	f.claim = mustInsert(t, m, admin, "claims", map[string]any{"text": "Velostatin lowers LDL-C by 38.5% at week 12.", "variants": []string{"Lowers LDL cholesterol by more than a third"}, "product_id": f.product, "status": "approved"})["id"].(string)
	f.module = mustInsert(t, m, marketer, "modules", map[string]any{"kind": "isi", "title": "Cardiomax ISI", "body": "Do not take velostatin if you have active liver disease.", "product_id": f.product})["id"].(string)
	f.reference = mustInsert(t, m, marketer, "references", map[string]any{"title": "LIPID-7 clinical study report", "citation": "Smith J et al. J Lipid Res. 2024;65:100.", "kind": "clinical_study"})["id"].(string)
	// The text of an attached file (attach_reference_file's work).
	if err := sqltest.Exec(m.ctx, m.db, `UPDATE content_references SET plain_text = 'Results
Velostatin 20 mg reduced LDL-C by 38.5% versus placebo.', page_count = 1 WHERE id = '`+f.reference+`'`); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSearchContent(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newSearchEnv(t, backend)
			f := seedSearch(t, m)
			viewer := m.members["own"][fairbalance.RoleViewer]

			t.Run("ranking and kinds", func(t *testing.T) {
				hits := mustSearch(t, m, viewer, map[string]any{"query": "velostatin"})
				kinds := map[string]bool{}
				for _, h := range hits {
					kinds[h.Kind] = true
					if h.ID == f.other {
						t.Fatalf("another organisation's asset found: %v", hits)
					}
					if h.ID == f.leaflet && (h.AssetID != f.leaflet || h.Subtitle != "FB-US-0001" || h.Status != "approved") {
						t.Fatalf("asset hit: %+v", h)
					}
				}
				for _, k := range fairbalance.SearchKinds {
					if !kinds[k] {
						t.Fatalf("no %s among %+v", k, hits)
					}
				}
				for i := 1; i < len(hits); i++ {
					if hits[i].Rank > hits[i-1].Rank {
						t.Fatalf("not ranked: %+v", hits)
					}
				}
				// The title match ranks above the body-only matches of assets.
				assets := mustSearch(t, m, viewer, map[string]any{"query": "velostatin", "kinds": []string{"asset"}})
				if ids := hitIDs(assets); len(ids) != 3 || ids[0] != f.leaflet {
					t.Fatalf("asset ranking: %+v", assets)
				}
			})

			t.Run("snippets", func(t *testing.T) {
				hits := mustSearch(t, m, viewer, map[string]any{"query": "LDL", "kinds": []string{"asset"}})
				if len(hits) != 1 || hits[0].ID != f.email {
					t.Fatalf("hits: %+v", hits)
				}
				sn := hits[0].Snippet
				if !strings.Contains(sn, fairbalance.SnippetStart+"LDL") || !strings.Contains(sn, fairbalance.SnippetEnd) || strings.ContainsAny(sn, "\f\n<>") {
					t.Fatalf("snippet %q", sn)
				}
				// Page breaks of file text become spaces.
				hits = mustSearch(t, m, viewer, map[string]any{"query": "side effects"})
				if len(hits) != 1 || hits[0].ID != f.leaflet || strings.Contains(hits[0].Snippet, "\f") ||
					!strings.Contains(hits[0].Snippet, fairbalance.SnippetStart+"side"+fairbalance.SnippetEnd) {
					t.Fatalf("hits: %+v", hits)
				}
			})

			t.Run("org isolation", func(t *testing.T) {
				other := m.members["other"][fairbalance.RoleOwner]
				hits := mustSearch(t, m, other, map[string]any{"query": "velostatin"})
				if ids := hitIDs(hits); len(ids) != 1 || ids[0] != f.other {
					t.Fatalf("other org sees %+v", hits)
				}
				if hits := mustSearch(t, m, other, map[string]any{"query": "liver"}); len(hits) != 0 {
					t.Fatalf("other org finds the module: %+v", hits)
				}
				_, err := search(t, m, fairbalance.Caller{Role: "anon"}, map[string]any{"query": "velostatin"})
				wantCode(t, "anonymous search", err, "42501")
			})

			t.Run("filters", func(t *testing.T) {
				cases := []struct {
					args map[string]any
					want []string
				}{
					{map[string]any{"status": "draft"}, []string{f.email, f.module}},
					{map[string]any{"type": "banner"}, []string{f.banner}},
					{map[string]any{"market": "EU"}, []string{f.banner}},
					{map[string]any{"owner_id": m.members["own"][fairbalance.RoleAdmin].UserID}, []string{f.email}},
					{map[string]any{"product_id": f.product, "kinds": []string{"claim", "module"}}, []string{f.claim, f.module}},
					{map[string]any{"kinds": []string{"reference"}}, []string{f.reference}},
					{map[string]any{"status": "active"}, []string{f.reference}},
				}
				for _, c := range cases {
					c.args["query"] = "velostatin"
					got := hitIDs(mustSearch(t, m, viewer, c.args))
					if strings.Join(sorted(got), ",") != strings.Join(sorted(c.want), ",") {
						t.Errorf("%v: got %v, want %v", c.args, got, c.want)
					}
				}
				// Over GET every argument is text.
				out, err := m.data.Call(m.ctx, viewer, "search_content", map[string]any{"query": "velostatin", "kinds": "{claim,module}", "limit": "1"}, true)
				if err != nil {
					t.Fatal(err)
				}
				var r service.SearchResult
				if err := json.Unmarshal(out, &r); err != nil || len(r.Results) != 1 || (r.Results[0].Kind != "claim" && r.Results[0].Kind != "module") {
					t.Fatalf("GET: %s %v", out, err)
				}
				_, err = search(t, m, viewer, map[string]any{"query": "x", "kinds": []string{"asset", "folder"}})
				wantCode(t, "bad kind", err, "P0001")
				_, err = search(t, m, viewer, map[string]any{"query": "x", "limit": 101})
				wantCode(t, "limit over 100", err, "P0001")
			})

			t.Run("prefix", func(t *testing.T) {
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "velosta", "kinds": []string{"asset"}}); len(hits) != 3 {
					t.Fatalf("prefix: %+v", hits)
				}
				// Only the last word is a prefix; every word is required.
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "velostatin leafl"}); len(hitIDs(hits)) != 1 || hits[0].ID != f.leaflet {
					t.Fatalf("last-word prefix: %+v", hits)
				}
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "velosta leaflet"}); len(hits) != 0 {
					t.Fatalf("non-final prefix matched: %+v", hits)
				}
				// Job codes are found whole or by their start.
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "FB-EU-0003"}); len(hits) != 1 || hits[0].ID != f.banner {
					t.Fatalf("job code: %+v", hits)
				}
			})

			t.Run("weird input", func(t *testing.T) {
				for _, q := range []string{"", "   ", "\t\n"} {
					_, err := search(t, m, viewer, map[string]any{"query": q})
					pe := wantCode(t, fmt.Sprintf("query %q", q), err, "P0001")
					if pe.Message != "Enter something to search for." {
						t.Fatalf("message %q", pe.Message)
					}
				}
				_, err := search(t, m, viewer, map[string]any{})
				wantCode(t, "no query", err, "P0001")
				for _, q := range []string{`"`, `""`, `"velostatin`, `velostatin"`, `OR`, `velostatin OR`, `OR velostatin`, `AND`, `NOT velostatin`, `*`, `velo*`, `**velostatin`,
					`NEAR(velostatin liver)`, `title:velostatin`, `-velostatin`, `+velostatin`, `velostatin^2`, `(`, `)`, `{`, `'`, `'; DROP TABLE assets; --`,
					`\`, `%`, `_`, `:*`, `!`, `&|`, `<->`, `a:*`, `$1`, `?`, `🙂`, `日本語`, `Ünïcödé`, strings.Repeat("velostatin ", 45), strings.Repeat("x", 400)} {
					if _, err := search(t, m, viewer, map[string]any{"query": q}); err != nil {
						t.Errorf("query %q: %v", q, err)
					}
				}
				// Quotes and operators are words, not syntax.
				// OR is a word (a stop word PostgreSQL drops), never a union.
				if hits := mustSearch(t, m, viewer, map[string]any{"query": `"velostatin" OR liver`}); len(hits) > 1 || len(hits) == 1 && hits[0].ID != f.module {
					t.Fatalf("OR treated as an operator: %+v", hits)
				}
				if hits := mustSearch(t, m, viewer, map[string]any{"query": `"velostatin`, "kinds": []string{"asset"}}); len(hits) != 3 {
					t.Fatalf("stray quote: %+v", hits)
				}
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "38.5%", "kinds": []string{"reference"}}); len(hits) != 1 {
					t.Fatalf("number with punctuation: %+v", hits)
				}
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "café"}); len(hits) != 1 || hits[0].ID != f.email {
					t.Fatalf("accented word: %+v", hits)
				}
				if _, err := search(t, m, viewer, map[string]any{"query": strings.Repeat("x", 501)}); pgCode(err) != "P0001" {
					t.Fatalf("over-long query: %v", err)
				}
				// No text column holds NUL (PostgreSQL refuses it), nor
				// bytes that are not UTF-8 (possible over GET): a client
				// error, with or without words around it.
				for _, args := range []map[string]any{{"query": "\x00"}, {"query": "velo\x00statin"}, {"query": "velostatin \xff"}, {"query": "velostatin", "status": "draft\x00"}} {
					_, err := search(t, m, viewer, args)
					if pe := wantCode(t, fmt.Sprintf("args %q", args), err, "P0001"); !strings.Contains(pe.Message, "without NUL") {
						t.Fatalf("args %q: message %q", args, pe.Message)
					}
				}
			})

			t.Run("index follows changes", func(t *testing.T) {
				marketer := m.members["own"][fairbalance.RoleMarketer]
				admin := m.members["own"][fairbalance.RoleAdmin]
				reviewer := m.members["own"][fairbalance.RoleReviewerMedical]
				searchUpdate(t, m, admin, "claims", "id=eq."+f.claim, map[string]any{"text": "Rosuvaline reduces triglycerides."})
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "velostatin", "kinds": []string{"claim"}}); len(hits) != 0 {
					t.Fatalf("old claim text still found: %+v", hits)
				}
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "triglycerides"}); len(hits) != 1 || hits[0].ID != f.claim {
					t.Fatalf("new claim text: %+v", hits)
				}
				searchUpdate(t, m, reviewer, "modules", "id=eq."+f.module, map[string]any{"status": "approved"})
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "liver", "status": "approved"}); len(hits) != 1 || hits[0].ID != f.module {
					t.Fatalf("module status: %+v", hits)
				}
				searchUpdate(t, m, marketer, "assets", "id=eq."+f.banner, map[string]any{"title": "Banner for the Paris congress", "market": "FR"})
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "paris", "market": "FR"}); len(hits) != 1 || hits[0].ID != f.banner {
					t.Fatalf("asset title: %+v", hits)
				}
				// Approved, it stays on record for its authors: an
				// administrator deletes it (issue 14).
				if _, err := m.data.Delete(m.ctx, admin, "modules", reqPrefer(t, "id=eq."+f.module, "return=minimal")); err != nil {
					t.Fatal(err)
				}
				if hits := mustSearch(t, m, viewer, map[string]any{"query": "liver"}); len(hits) != 0 {
					t.Fatalf("deleted module found: %+v", hits)
				}
			})
		})
	}
}

func searchUpdate(t *testing.T, m *matrixEnv, c fairbalance.Caller, table, query string, values map[string]any) {
	t.Helper()
	body, _ := json.Marshal(values)
	res, err := m.data.Update(m.ctx, c, table, reqPrefer(t, query, "return=minimal"), body)
	if err != nil {
		t.Fatalf("update %s: %v", table, err)
	}
	_ = res
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
