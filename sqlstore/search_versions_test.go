package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

const versionsAt = "'2026-01-01 00:00:00+00:00'"

// addVersion inserts version n of asset (authored, with text), and makes
// it current when current is set.
func addVersion(t *testing.T, db *sqlstore.DB, org, asset string, n int, text string, current bool) string {
	t.Helper()
	ctx := context.Background()
	id := fmt.Sprintf("%s-v%d", asset, n)
	if err := sqltest.Exec(ctx, db, `INSERT INTO asset_versions (id, org_id, asset_id, number, kind, plain_text, page_texts, sha256, page_count, change_note, created_by, created_at, updated_at)
VALUES (?, ?, ?, ?, 'authored', ?, '[]', 'x', 1, '', '', `+versionsAt+`, `+versionsAt+`)`, id, org, asset, n, text); err != nil {
		t.Fatal(err)
	}
	if current {
		if err := sqltest.Exec(ctx, db, `UPDATE assets SET current_version_id = ?, current_version_number = ? WHERE id = ?`, id, n, asset); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func seedOrgs(t *testing.T, db *sqlstore.DB, ids ...string) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	err := db.Tx(ctx, func(tx fairbalance.Tx) error {
		for _, id := range ids {
			if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: id, Name: id, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

type hitSummary struct {
	ID      string
	Version int
}

func summary(hits []fairbalance.SearchHit) []hitSummary {
	out := make([]hitSummary, len(hits))
	for i, h := range hits {
		out[i] = hitSummary{h.ID, h.Version}
	}
	return out
}

// Search covers every version of an asset (issue 14): matches in current
// content first, then the assets found only in an older version, once
// each, naming the newest such version; with the filters, the kinds and
// the organisation of the current matches.
func TestSearchOlderVersions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			seedOrgs(t, db, "org-a", "org-b")
			asset := func(org, id, status, market, text string) sqltest.BulkAsset {
				return sqltest.BulkAsset{ID: id, VersionID: id + "-v1", OrgID: org, Title: "Asset " + id, Type: "email", Audience: "hcp",
					Market: market, JobCode: "JC-" + id, Status: status, Text: text}
			}
			err := sqltest.BulkInsertAssets(ctx, db, []sqltest.BulkAsset{
				asset("org-a", "renamed", "draft", "US", "Zelvostat lowers cholesterol."),
				asset("org-a", "current", "draft", "US", "Zelvostat is the brand now."),
				asset("org-a", "twice", "approved", "EU", "Zelvostat first wording."),
				asset("org-a", "both", "draft", "US", "Zelvostat in the first version."),
				asset("org-a", "filtered", "approved", "US", "Zelvostat, approved and old."),
				asset("org-b", "stranger", "draft", "US", "Zelvostat of another organisation."),
			})
			if err != nil {
				t.Fatal(err)
			}
			addVersion(t, db, "org-a", "renamed", 2, "Cardiomax lowers cholesterol.", true)
			addVersion(t, db, "org-a", "twice", 2, "Zelvostat second wording.", false)
			addVersion(t, db, "org-a", "twice", 3, "Cardiomax third wording.", true)
			addVersion(t, db, "org-a", "both", 2, "Zelvostat in the current version too.", true)
			addVersion(t, db, "org-a", "filtered", 2, "Cardiomax, approved.", true)
			addVersion(t, db, "org-b", "stranger", 2, "Cardiomax elsewhere.", true)

			find := func(q fairbalance.SearchQuery) []fairbalance.SearchHit {
				t.Helper()
				if q.Limit == 0 {
					q.Limit = 20
				}
				hits, err := db.View().SearchContent(ctx, "org-a", q)
				if err != nil {
					t.Fatalf("search %+v: %v", q, err)
				}
				return hits
			}
			hits := find(fairbalance.SearchQuery{Text: "zelvostat"})
			got := summary(hits)
			if len(got) != 5 {
				t.Fatalf("zelvostat: %+v", hits)
			}
			// Current content first (in rank order), then the older versions.
			current := map[string]bool{"current": true, "both": true}
			for i, h := range got {
				if (i < 2) != current[h.ID] || (h.Version == 0) != current[h.ID] {
					t.Fatalf("zelvostat: current matches first, older after: %+v", got)
				}
			}
			older := map[string]int{}
			for _, h := range hits[2:] {
				older[h.ID] = h.Version
				if h.Kind != fairbalance.SearchAsset || h.AssetID != h.ID || h.Title != "Asset "+h.ID || h.Subtitle != "JC-"+h.ID ||
					!strings.Contains(h.Snippet, fairbalance.SnippetStart+"Zelvostat"+fairbalance.SnippetEnd) {
					t.Errorf("older hit: %+v", h)
				}
			}
			if fmt.Sprint(older) != fmt.Sprint(map[string]int{"filtered": 1, "renamed": 1, "twice": 2}) {
				t.Fatalf("older versions (the newest that matches): %v", older)
			}
			if h := hits[2:]; h[0].Rank < h[1].Rank || h[1].Rank < h[2].Rank {
				t.Fatalf("older hits not ranked: %+v", h)
			}

			// The filters, as for current matches (the order of equals aside).
			bySet := func(hits []hitSummary) string {
				out := make([]string, len(hits))
				for i, h := range hits {
					out[i] = fmt.Sprint(h)
				}
				return fmt.Sprint(sorted(out))
			}
			for _, c := range []struct {
				q    fairbalance.SearchQuery
				want []hitSummary
			}{
				{fairbalance.SearchQuery{Text: "zelvostat", Status: "approved"}, []hitSummary{{"twice", 2}, {"filtered", 1}}},
				{fairbalance.SearchQuery{Text: "zelvostat", Market: "EU"}, []hitSummary{{"twice", 2}}},
				{fairbalance.SearchQuery{Text: "zelvostat", Kinds: []string{"claim", "module"}}, nil},
				{fairbalance.SearchQuery{Text: "zelvostat", Kinds: []string{"asset"}, Type: "banner"}, nil},
				{fairbalance.SearchQuery{Text: "second wording"}, []hitSummary{{"twice", 2}}},
				{fairbalance.SearchQuery{Text: "first wor"}, []hitSummary{{"twice", 1}}},
				{fairbalance.SearchQuery{Text: "cardiomax elsewhere"}, nil},
				// A page that current matches fill has no room for older ones.
				{fairbalance.SearchQuery{Text: "zelvostat", Limit: 2}, []hitSummary{{"current", 0}, {"both", 0}}},
			} {
				if got := summary(find(c.q)); bySet(got) != bySet(c.want) {
					t.Errorf("%+v: %v, want %v", c.q, got, c.want)
				}
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "zelvostat", Limit: 3})); len(got) != 3 || got[2] != summary(hits)[2] {
				t.Errorf("a page with room for one older version: %v", got)
			}
			// The other organisation finds its own older version only.
			if hits, err := db.View().SearchContent(ctx, "org-b", fairbalance.SearchQuery{Text: "zelvostat", Limit: 20}); err != nil ||
				fmt.Sprint(summary(hits)) != "[{stranger 1}]" {
				t.Fatalf("org-b: %+v %v", hits, err)
			}

			// A version made current leaves the older versions' index, the
			// former current one joins it.
			if err := sqltest.Exec(ctx, db, `UPDATE assets SET current_version_id = 'twice-v2', current_version_number = 2 WHERE id = 'twice'`); err != nil {
				t.Fatal(err)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "wording"})); fmt.Sprint(got) != "[{twice 0}]" {
				t.Fatalf("after making v2 current: %v", got)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "third wording"})); fmt.Sprint(got) != "[{twice 3}]" {
				t.Fatalf("the former current version: %v", got)
			}

			// The search text replaces a version's plain text in the index.
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				if err := tx.SetSearchText(ctx, fairbalance.SearchTextVersion, "renamed-v1", "Velorin \uE000lowers\uE001 LDL."); err != nil {
					return err
				}
				return tx.SetSearchText(ctx, fairbalance.SearchTextVersion, "renamed-v2", "Cardiomax reduces LDL.")
			}); err != nil {
				t.Fatal(err)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "velorin"})); fmt.Sprint(got) != "[{renamed 1}]" {
				t.Fatalf("an older version's search text: %v", got)
			}
			if hits := find(fairbalance.SearchQuery{Text: "lowers"}); len(hits) != 1 || hits[0].ID != "renamed" || hits[0].Version != 1 ||
				strings.Count(hits[0].Snippet, fairbalance.SnippetStart) != 1 {
				t.Fatalf("markers in a search text: %+v", hits)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "reduces"})); fmt.Sprint(got) != "[{renamed 0}]" {
				t.Fatalf("the current version's search text: %v", got)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "cholesterol"})); len(got) != 0 {
				t.Fatalf("the replaced plain text: %v", got)
			}
			// Another change of the asset keeps the current search text.
			if err := sqltest.Exec(ctx, db, `UPDATE assets SET status = 'in_review' WHERE id = 'renamed'`); err != nil {
				t.Fatal(err)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "reduces", Status: "in_review"})); fmt.Sprint(got) != "[{renamed 0}]" {
				t.Fatalf("after a status change: %v", got)
			}
			for _, kind := range []string{fairbalance.SearchTextVersion, fairbalance.SearchTextReference, "claim"} {
				err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.SetSearchText(ctx, kind, "no-such-id", "x") })
				if !errors.Is(err, fairbalance.ErrNotFound) {
					t.Errorf("SetSearchText(%s) of nothing: %v", kind, err)
				}
			}

			// A deleted asset takes its versions along.
			if err := sqltest.Exec(ctx, db, `DELETE FROM assets WHERE id = 'twice'`); err != nil {
				t.Fatal(err)
			}
			if got := summary(find(fairbalance.SearchQuery{Text: "third wording"})); len(got) != 0 {
				t.Fatalf("a deleted asset's version: %v", got)
			}
		})
	}
}

// The PDFs whose search text is still their plain text are listed until
// the server sets it: file versions (as every one is after migration
// 0015) and references with a file, again after their plain text changes.
func TestPendingSearchTexts(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			seedOrgs(t, db, "org-a")
			err := sqltest.BulkInsertAssets(ctx, db, []sqltest.BulkAsset{{ID: "a1", VersionID: "a1-v1", OrgID: "org-a", Title: "Leaflet", Type: "print",
				Audience: "patient", JobCode: "JC-1", Status: "draft", Text: "Authored text needs nothing."}})
			if err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(ctx, db, `INSERT INTO asset_versions (id, org_id, asset_id, number, kind, plain_text, page_texts, file_bucket, file_path, file_name, mimetype, sha256, page_count, change_note, created_by, created_at, updated_at)
VALUES ('a1-v2', 'org-a', 'a1', 2, 'file', ?, ?, 'asset-files', 'org-a/x.pdf', 'x.pdf', 'application/pdf', 'x', 2, '', '', `+versionsAt+`, `+versionsAt+`)`,
				"Header\nmyalgia\fHeader\nrare", `["Header\nmyalgia", "Header\nrare"]`); err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(ctx, db, `UPDATE assets SET current_version_id = 'a1-v2', current_version_number = 2 WHERE id = 'a1'`); err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(ctx, db, `INSERT INTO content_references (id, org_id, title, citation, kind, status, file_bucket, file_path, file_name, sha256, page_count, page_texts, plain_text, created_by, created_at, updated_at)
VALUES ('r1', 'org-a', 'Study', 'Smith 2024', 'clinical_study', 'active', 'reference-files', 'org-a/r.pdf', 'r.pdf', 'y', 1, '["Journal\nhepatic"]', ?, '', `+versionsAt+`, `+versionsAt+`),
  ('r2', 'org-a', 'No file', '', 'other', 'active', NULL, NULL, NULL, NULL, 0, '[]', 'plain words', '', `+versionsAt+`, `+versionsAt+`)`, "Journal\nhepatic"); err != nil {
				t.Fatal(err)
			}
			pending := func(limit int) string {
				t.Helper()
				p, err := db.View().PendingSearchTexts(ctx, limit)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, x := range p {
					out = append(out, fmt.Sprintf("%s %s %q", x.Kind, x.ID, x.Pages))
				}
				return strings.Join(out, "; ")
			}
			if got := pending(10); got != `version a1-v2 ["Header\nmyalgia" "Header\nrare"]; reference r1 ["Journal\nhepatic"]` {
				t.Fatalf("pending: %s", got)
			}
			if got := pending(1); got != `version a1-v2 ["Header\nmyalgia" "Header\nrare"]` {
				t.Fatalf("pending, one: %s", got)
			}
			find := func(text string) string {
				t.Helper()
				hits, err := db.View().SearchContent(ctx, "org-a", fairbalance.SearchQuery{Text: text, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, h := range hits {
					out = append(out, h.Kind+":"+h.ID)
				}
				return strings.Join(out, ",")
			}
			if got := find("header"); got != "asset:a1" {
				t.Fatalf("before: %s", got)
			}
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				if err := tx.SetSearchText(ctx, fairbalance.SearchTextVersion, "a1-v2", "myalgia\frare"); err != nil {
					return err
				}
				return tx.SetSearchText(ctx, fairbalance.SearchTextReference, "r1", "hepatic")
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := pending(10); got != "" {
				t.Fatalf("pending after: %s", got)
			}
			if got := find("header"); got != "" {
				t.Fatalf("the version's search text: %s", got)
			}
			if got := find("journal"); got != "" {
				t.Fatalf("the reference's search text: %s", got)
			}
			if got := find("hepatic"); got != "reference:r1" {
				t.Fatalf("the reference's search text: %s", got)
			}
			// A reference edited keeps its search text; a new plain text
			// makes it pending again, and searched as it is meanwhile.
			if err := sqltest.Exec(ctx, db, `UPDATE content_references SET status = 'withdrawn' WHERE id = 'r1'`); err != nil {
				t.Fatal(err)
			}
			if got := find("hepatic"); got != "reference:r1" || find("journal") != "" {
				t.Fatalf("after an edit: %s", got)
			}
			if err := sqltest.Exec(ctx, db, `UPDATE content_references SET plain_text = 'Annals renal', page_texts = '["Annals renal"]' WHERE id = 'r1'`); err != nil {
				t.Fatal(err)
			}
			if got := find("annals"); got != "reference:r1" || find("hepatic") != "" {
				t.Fatalf("after a new plain text: %s", got)
			}
			if got := pending(10); got != `reference r1 ["Annals renal"]` {
				t.Fatalf("pending after a new plain text: %s", got)
			}
		})
	}
}

// Migration 0015 on an instance with content: every version written
// before gets its search text, the older ones are searched, and the PDFs
// (file versions, references with a file) wait for the server to make
// their search texts.
func TestMigrationSearchesEveryVersion(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			db, err := sqlstore.OpenAtForTest(ctx, storetest.Empty(t, backend), 14)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			seedOrgs(t, db, "org-a", "org-b")
			err = sqltest.BulkInsertAssets(ctx, db, []sqltest.BulkAsset{
				{ID: "renamed", VersionID: "renamed-v1", OrgID: "org-a", Title: "Renamed", Type: "email", Audience: "hcp", JobCode: "JC-1", Status: "draft", Text: "Quelzarin lowers LDL."},
				{ID: "pdf", VersionID: "pdf-v1", OrgID: "org-a", Title: "Leaflet", Type: "print", Audience: "patient", JobCode: "JC-2", Status: "draft", Text: "First draft."},
				{ID: "theirs", VersionID: "theirs-v1", OrgID: "org-b", Title: "Theirs", Type: "email", Audience: "hcp", JobCode: "JC-1", Status: "draft", Text: "Quelzarin elsewhere."},
			})
			if err != nil {
				t.Fatal(err)
			}
			addVersion(t, db, "org-a", "renamed", 2, "Cardiomax lowers LDL.", true)
			addVersion(t, db, "org-b", "theirs", 2, "Cardiomax elsewhere.", true)
			if err := sqltest.Exec(ctx, db, `INSERT INTO asset_versions (id, org_id, asset_id, number, kind, plain_text, page_texts, file_bucket, file_path, file_name, mimetype, sha256, page_count, change_note, created_by, created_at, updated_at)
VALUES ('pdf-v2', 'org-a', 'pdf', 2, 'file', ?, ?, 'asset-files', 'org-a/x.pdf', 'x.pdf', 'application/pdf', 'x', 2, '', '', `+versionsAt+`, `+versionsAt+`)`,
				"Header\nmyalgia\fHeader\nrare", `["Header\nmyalgia", "Header\nrare"]`); err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(ctx, db, `UPDATE assets SET current_version_id = 'pdf-v2', current_version_number = 2 WHERE id = 'pdf'`); err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(ctx, db, `INSERT INTO content_references (id, org_id, title, citation, kind, status, file_bucket, file_path, file_name, sha256, page_count, page_texts, plain_text, created_by, created_at, updated_at)
VALUES ('r1', 'org-a', 'Study', 'Smith 2024', 'clinical_study', 'active', 'reference-files', 'org-a/r.pdf', 'r.pdf', 'y', 1, '["Journal\nhepatic"]', 'Journal hepatic', '', `+versionsAt+`, `+versionsAt+`)`); err != nil {
				t.Fatal(err)
			}

			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			find := func(text string) string {
				t.Helper()
				hits, err := db.View().SearchContent(ctx, "org-a", fairbalance.SearchQuery{Text: text, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(summary(hits))
			}
			for q, want := range map[string]string{
				"quelzarin": "[{renamed 1}]", "cardiomax": "[{renamed 0}]", "first draft": "[{pdf 1}]", "myalgia": "[{pdf 0}]", "elsewhere": "[]",
			} {
				if got := find(q); got != want {
					t.Errorf("%q after the migration: %s, want %s", q, got, want)
				}
			}
			p, err := db.View().PendingSearchTexts(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%+v", p); got != `[{Kind:version ID:pdf-v2 Pages:[Header
myalgia Header
rare]} {Kind:reference ID:r1 Pages:[Journal
hepatic]}]` {
				t.Fatalf("pending after the migration: %s", got)
			}
			// A version made now joins the older ones' index as before.
			addVersion(t, db, "org-a", "renamed", 3, "Velorin lowers LDL.", true)
			if got := find("cardiomax"); got != "[{renamed 2}]" {
				t.Fatalf("after a new version: %s", got)
			}
		})
	}
}
