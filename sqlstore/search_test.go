package sqlstore_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// The search index follows the content tables through triggers, and no
// input reaches the full-text engine as syntax.
func TestSearchStore(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			now := time.Now().UTC()
			err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				for _, id := range []string{"org-a", "org-b"} {
					if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: id, Name: id, CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var assets []sqltest.BulkAsset
			for i, text := range []string{
				"Velostatin reduced LDL-C by 38.5% (p < 0.001) in LIPID-7.\fSecond page: myalgia was rare.",
				"Tiotrazole inhalation powder improved FEV1 by 120 mL.",
				"Le café crème — naïve façade; 日本語のテキスト; emoji 🙂 end. \uE000not a marker\uE001",
			} {
				assets = append(assets, sqltest.BulkAsset{ID: fmt.Sprintf("asset-%d", i), VersionID: fmt.Sprintf("v-%d", i), OrgID: "org-a",
					Title: fmt.Sprintf("Asset number %d", i), Type: "email", Audience: "hcp", Market: "US", JobCode: fmt.Sprintf("FB-US-%04d", i+1), Status: "draft", Text: text})
			}
			assets = append(assets, sqltest.BulkAsset{ID: "asset-b", VersionID: "v-b", OrgID: "org-b", Title: "Velostatin elsewhere", Type: "email", Audience: "hcp", JobCode: "FB-US-0001", Status: "draft", Text: "velostatin"})
			if err := sqltest.BulkInsertAssets(ctx, db, assets); err != nil {
				t.Fatal(err)
			}
			find := func(text string) []fairbalance.SearchHit {
				t.Helper()
				hits, err := db.View().SearchContent(ctx, "org-a", fairbalance.SearchQuery{Text: text, Limit: 10})
				if err != nil {
					t.Fatalf("search %q: %v", text, err)
				}
				return hits
			}
			if hits := find("velostatin"); len(hits) != 1 || hits[0].ID != "asset-0" || hits[0].AssetID != "asset-0" || hits[0].Kind != "asset" || hits[0].Rank <= 0 {
				t.Fatalf("velostatin: %+v", hits)
			}
			hits := find("myalgia")
			if len(hits) != 1 || !strings.Contains(hits[0].Snippet, fairbalance.SnippetStart+"myalgia"+fairbalance.SnippetEnd) || strings.ContainsAny(hits[0].Snippet, "\f\n") {
				t.Fatalf("snippet: %+v", hits)
			}
			if hits := find("marker"); len(hits) != 1 || strings.Count(hits[0].Snippet, fairbalance.SnippetStart) != 1 {
				t.Fatalf("markers in the text must not reach snippets: %+v", hits)
			}
			for q, want := range map[string]int{"fb-us-0002": 1, "FB-US": 3, "tiotra": 1, "inhalation pow": 1, "38.5%": 1, "LDL-C": 1, "café": 1, "façade": 1, "nothing-like-this": 0} {
				if got := len(find(q)); got != want {
					t.Errorf("%q: %d hits, want %d", q, got, want)
				}
			}
			for _, q := range []string{`"`, `""`, `" OR "`, `OR`, `AND NOT`, `NEAR(a b, 2)`, `*`, `^`, `a*b*`, `title:x`, `{title body}:x`, `-x`, `x:*`, `x & y | !z`, `<->`, `(`, `)`,
				`'`, `''`, `\`, "\x00", "\uE000", "🙂", "日本語", `%_`, strings.Repeat(`"a" `, 50), strings.Repeat("é", 300)} {
				if _, err := db.View().SearchContent(ctx, "org-a", fairbalance.SearchQuery{Text: q, Limit: 5}); err != nil {
					t.Errorf("%q: %v", q, err)
				}
			}
			// A new current version replaces the current text; every
			// version stays searchable, a version that is not current
			// found as such (issue 14).
			err = sqltest.Exec(ctx, db, `INSERT INTO asset_versions (id, org_id, asset_id, number, kind, plain_text, page_texts, sha256, page_count, change_note, created_by, created_at, updated_at)
VALUES ('v-1b', 'org-a', 'asset-1', 2, 'authored', 'Rewritten with bronchodilator wording.', '[]', 'x', 1, 'second', '', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00')`)
			if err != nil {
				t.Fatal(err)
			}
			if hits := find("bronchodilator"); len(hits) != 1 || hits[0].ID != "asset-1" || hits[0].Version != 2 {
				t.Fatalf("a version that is not current: %+v", hits)
			}
			if hits := find("tiotrazole"); len(hits) != 1 || hits[0].Version != 0 {
				t.Fatalf("the current version: %+v", hits)
			}
			if err := sqltest.Exec(ctx, db, `UPDATE assets SET current_version_id = 'v-1b', current_version_number = 2 WHERE id = 'asset-1'`); err != nil {
				t.Fatal(err)
			}
			if hits := find("bronchodilator"); len(hits) != 1 || hits[0].Version != 0 {
				t.Fatalf("the current version's text is not the current one: %+v", hits)
			}
			if hits := find("tiotrazole"); len(hits) != 1 || hits[0].ID != "asset-1" || hits[0].Version != 1 ||
				!strings.Contains(hits[0].Snippet, fairbalance.SnippetStart+"Tiotrazole"+fairbalance.SnippetEnd) {
				t.Fatalf("the former version: %+v", hits)
			}

			// Past the candidate cap (the newest matches, of every
			// organisation), an organisation with older matches still gets
			// them, ranked.
			var many []sqltest.BulkAsset
			for i := 0; i < 1100; i++ {
				many = append(many, sqltest.BulkAsset{ID: fmt.Sprintf("many-%d", i), VersionID: fmt.Sprintf("many-v-%d", i), OrgID: "org-b",
					Title: "Common title", Type: "email", Audience: "hcp", JobCode: fmt.Sprintf("B-%d", i), Status: "draft", Text: "tolerability is common"})
			}
			if err := sqltest.BulkInsertAssets(ctx, db, many); err != nil {
				t.Fatal(err)
			}
			if hits := find("myalgia"); len(hits) != 1 {
				t.Fatalf("own match among many of another organisation: %+v", hits)
			}
			if err := sqltest.Exec(ctx, db, `UPDATE assets SET title = 'Myalgia and tolerability' WHERE id = 'asset-2'`); err != nil {
				t.Fatal(err)
			}
			if hits := find("tolerability"); len(hits) != 1 || hits[0].ID != "asset-2" {
				t.Fatalf("capped search of org-a: %+v", hits)
			}
			hits, err = db.View().SearchContent(ctx, "org-b", fairbalance.SearchQuery{Text: "tolerability", Limit: 20})
			if err != nil || len(hits) != 20 {
				t.Fatalf("capped search of org-b: %d hits, %v", len(hits), err)
			}
		})
	}
}

// search_candidates (PostgreSQL) picks the newest matches whichever way it
// finds them: the short walk over the newest rows and its continuation (a
// common word), the id window estimated from the walk, the window falling
// short (matches dense among the newest rows only), and the whole GIN
// bitmap (a rare word); always within the organisation and the filters.
func TestSearchCandidates(t *testing.T) {
	db := storetest.Open(t, "postgres")
	ctx := context.Background()
	now := time.Now().UTC()
	err := db.Tx(ctx, func(tx fairbalance.Tx) error {
		for _, id := range []string{"org-a", "org-b"} {
			if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: id, Name: id, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const n = 2000
	var assets []sqltest.BulkAsset
	for i := 0; i < n; i++ {
		words := []string{"filler"}
		if i%10 != 0 {
			words = append(words, "common")
		}
		// Dense (two in five) among the newest 100, sparse (one in
		// twenty) before: an estimate from the newest rows overshoots.
		if (i >= n-100 && i%5 < 2) || i%20 == 0 {
			words = append(words, "skewed")
		}
		if i%3 == 0 {
			words = append(words, "third")
		}
		if i%15 == 0 {
			words = append(words, "sparse")
		}
		if i == 17 || i == 401 {
			words = append(words, "rare")
		}
		org := "org-a"
		if i%4 == 3 {
			org = "org-b"
		}
		status := "draft"
		if i%2 == 0 {
			status = "approved"
		}
		assets = append(assets, sqltest.BulkAsset{ID: fmt.Sprintf("asset-%d", i), VersionID: fmt.Sprintf("v-%d", i), OrgID: org,
			Title: fmt.Sprintf("Asset %d", i), Type: "email", Audience: "hcp", Market: "US", JobCode: fmt.Sprintf("FB-US-%04d", i),
			Status: status, Text: strings.Join(words, " ")})
	}
	if err := sqltest.BulkInsertAssets(ctx, db, assets); err != nil {
		t.Fatal(err)
	}
	if err := sqltest.Exec(ctx, db, "ANALYZE search_docs"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		s    fairbalance.SearchQuery
		cap  int
	}{
		{"common", fairbalance.SearchQuery{}, 20},  // the first walk
		{"common", fairbalance.SearchQuery{}, 300}, // the walk goes on
		{"third", fairbalance.SearchQuery{}, 30},   // likewise
		{"third", fairbalance.SearchQuery{Status: "approved"}, 30},
		{"skewed", fairbalance.SearchQuery{}, 60},
		{"sparse", fairbalance.SearchQuery{}, 80},  // the id window
		{"third", fairbalance.SearchQuery{}, 1000}, // walk and window short, then all
		{"rare", fairbalance.SearchQuery{}, 20},    // the whole bitmap
		{"common third", fairbalance.SearchQuery{Kinds: []string{"asset"}, Market: "US"}, 30},
		{"third", fairbalance.SearchQuery{Kinds: []string{"claim"}}, 30},
		{"thi", fairbalance.SearchQuery{}, 1000},
	} {
		got, want, err := db.SearchCandidatesForTest(ctx, "org-a", c.text, c.s, c.cap)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q %+v cap %d:\n got %v\nwant %v", c.text, c.s, c.cap, got, want)
		}
	}
}

// seedScope fills db with the assets of organisation "small" (600, of
// which the oldest 3 mention zeta) and "big", with big newer assets that
// all mention word.
func seedScope(t *testing.T, db *sqlstore.DB, big int, word string) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	err := db.Tx(ctx, func(tx fairbalance.Tx) error {
		for _, id := range []string{"org-big", "org-small"} {
			if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: id, Name: id, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	asset := func(org string, i int, text string) sqltest.BulkAsset {
		status := "draft"
		if i%2 == 0 {
			status = "approved"
		}
		return sqltest.BulkAsset{ID: fmt.Sprintf("%s-%d", org, i), VersionID: fmt.Sprintf("%s-v-%d", org, i), OrgID: org,
			Title: fmt.Sprintf("Asset %d of %s", i, org), Type: "email", Audience: "hcp", Market: "US", JobCode: fmt.Sprintf("%s-%05d", org, i),
			Status: status, Text: text}
	}
	var l []sqltest.BulkAsset
	for i := 0; i < 600; i++ {
		text := "filler text about dosing and common questions"
		if i < 3 {
			text = "zeta findings in filler text"
		}
		l = append(l, asset("org-small", i, text))
	}
	if err := sqltest.BulkInsertAssets(ctx, db, l); err != nil {
		t.Fatal(err)
	}
	for from := 0; from < big; from += 5000 {
		l = l[:0]
		for i := from; i < min(from+5000, big); i++ {
			l = append(l, asset("org-big", i, fmt.Sprintf("%[1]s %[1]ss %[1]smeter common words, number %[2]d", word, i)))
		}
		if err := sqltest.BulkInsertAssets(ctx, db, l); err != nil {
			t.Fatal(err)
		}
	}
	// Every asset of org-big has a second, current version: the word is
	// in the index of older versions too.
	if err := sqltest.Exec(ctx, db, `INSERT INTO asset_versions (id, org_id, asset_id, number, kind, plain_text, page_texts, sha256, page_count, change_note, created_by, created_at, updated_at)
SELECT id || '-v2', org_id, id, 2, 'authored', 'revised ' || title || ' with ' || ?, '[]', 'x', 1, '', '', created_at, updated_at FROM assets WHERE org_id = 'org-big'`, word); err != nil {
		t.Fatal(err)
	}
	if err := sqltest.Exec(ctx, db, `UPDATE assets SET current_version_id = id || '-v2', current_version_number = 2 WHERE org_id = 'org-big'`); err != nil {
		t.Fatal(err)
	}
	if db.Backend() == "postgres" {
		if err := sqltest.Exec(ctx, db, "VACUUM ANALYZE search_versions"); err != nil {
			t.Fatal(err)
		}
		if err := sqltest.Exec(ctx, db, "VACUUM ANALYZE search_docs"); err != nil {
			t.Fatal(err)
		}
	}
}

// The work of a search does not depend on other organisations' content: a
// word in every one of another organisation's many assets (and in three
// of the searcher's) costs the searcher no more than where the other
// organisation's assets, as many, have another word instead. The
// database's own counters measure the work: pages asked for, and on
// PostgreSQL rows of search_docs read. Before search was scoped, at 5000
// assets, SQLite read the other organisation's postings and ranked its
// matches (over 18 000 pages against 74), and PostgreSQL read 600 rows
// against 3 (and walked the other organisation's rows either way).
// SEARCH_SCOPE_ASSETS sets the other organisation's assets (5000 by
// default; the figure is 50 000).
func TestSearchWorkIsPerOrganisation(t *testing.T) {
	big := 5000
	if v, err := strconv.Atoi(os.Getenv("SEARCH_SCOPE_ASSETS")); err == nil && v > 0 {
		big = v
	}
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			with, without := storetest.Open(t, backend), storetest.Open(t, backend)
			seedScope(t, with, big, "zeta")
			seedScope(t, without, big, "omega")
			ctx := context.Background()
			for _, q := range []fairbalance.SearchQuery{
				{Text: "zeta"}, {Text: "zet"}, {Text: "zetameter"}, {Text: "zeta findings"}, {Text: "common zeta"},
				{Text: "zeta", Status: "approved"}, {Text: "zeta", Kinds: []string{"asset"}, Market: "US"},
				{Text: "filler"}, {Text: "nothing"},
			} {
				q.Limit = 20
				name := fmt.Sprintf("%q %+v", q.Text, q)
				for i := 0; i < 2; i++ { // warm both alike
					_, _, _ = with.SearchWorkForTest(ctx, "org-small", q)
					_, _, _ = without.SearchWorkForTest(ctx, "org-small", q)
				}
				got, gw, err := with.SearchWorkForTest(ctx, "org-small", q)
				if err != nil {
					t.Fatal(err)
				}
				want, ww, err := without.SearchWorkForTest(ctx, "org-small", q)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %+v where the other organisation has the word, %+v where it has not", name, gw, ww)
				if fmt.Sprint(hitIDs(got)) != fmt.Sprint(hitIDs(want)) {
					t.Errorf("%s: hits %v, %v where the other organisation has not the word", name, hitIDs(got), hitIDs(want))
				}
				// Index pages may split a little differently; the work
				// may not grow with the other organisation's matches.
				if gw.Pages > ww.Pages+max(8, ww.Pages/10) || gw.Rows > ww.Rows {
					t.Errorf("%s: work %+v, %+v where the other organisation has not the word", name, gw, ww)
				}
			}
		})
	}
}

func hitIDs(hits []fairbalance.SearchHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
