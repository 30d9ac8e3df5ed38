package service_test

import (
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/samplepdf"
	"fairbalance/service"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// runningPDF is a PDF whose pages carry a running header (its title) and
// a "Page N of M" footer, with word on page 2 only.
func runningPDF(t *testing.T, title, word string) []byte {
	t.Helper()
	b, err := samplepdf.Generate(title, []samplepdf.Page{
		{Heading: "Indications", Paragraphs: []string{"Lowers LDL cholesterol in adults with hyperlipidemia."}},
		{Heading: "Dosage", Paragraphs: []string{"Take one tablet daily; " + word + " tablets may be split."}},
		{Heading: "Warnings", Paragraphs: []string{"Myalgia was reported rarely."}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cleanSnippet checks that a snippet marks word and holds no running text
// of runningPDF.
func cleanSnippet(t *testing.T, what string, h fairbalance.SearchHit, word, title string) {
	t.Helper()
	if !strings.Contains(strings.ToLower(h.Snippet), strings.ToLower(fairbalance.SnippetStart+word+fairbalance.SnippetEnd)) {
		t.Errorf("%s: snippet %q does not mark %q", what, h.Snippet, word)
	}
	if strings.Contains(h.Snippet, title) || strings.Contains(h.Snippet, "Page ") || strings.Contains(h.Snippet, " of 3") {
		t.Errorf("%s: snippet %q holds the running header or footer", what, h.Snippet)
	}
}

// Search covers every version of an asset, and a PDF's snippets carry no
// running header or footer (issue 14), for files uploaded now and for
// those indexed before (RefreshSearchTexts).
func TestSearchEveryVersion(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m, s := newContentStorageEnv(t, backend, "disk")
			marketer := m.members["own"][fairbalance.RoleMarketer]
			viewer := m.members["own"][fairbalance.RoleViewer]
			const title = "Cardiomax Prescribing Information"

			path := upload(t, m, s, marketer, "asset-files", "pi.pdf", runningPDF(t, title, "Quelzarin"))
			asset, err := callErr(m, marketer, "create_asset", map[string]any{"title": "Cardiomax PI", "type": "print", "audience": "hcp",
				"channel": "print", "market": "US", "file_path": path})
			if err != nil {
				t.Fatal(err)
			}
			id := asset["id"].(string)
			hits := mustSearch(t, m, viewer, map[string]any{"query": "quelzarin"})
			if len(hits) != 1 || hits[0].ID != id || hits[0].Version != 0 {
				t.Fatalf("version 1 while current: %+v", hits)
			}
			cleanSnippet(t, "version 1 while current", hits[0], "Quelzarin", title)
			// The version keeps every extracted line.
			v := readRows(t, m, viewer, "asset_versions", "select=plain_text&asset_id=eq."+id)[0]
			if pt := v["plain_text"].(string); !strings.Contains(pt, title) || !strings.Contains(pt, "Page 2 of 3") {
				t.Fatalf("plain text lost its running lines: %q", pt)
			}

			if _, err := callErr(m, marketer, "add_asset_version", map[string]any{"asset_id": id, "content_html": "<p>Rewritten: take one tablet daily with water.</p>",
				"change_note": "Reworded"}); err != nil {
				t.Fatal(err)
			}
			hits = mustSearch(t, m, viewer, map[string]any{"query": "quelzarin"})
			if len(hits) != 1 || hits[0].ID != id || hits[0].AssetID != id || hits[0].Version != 1 || hits[0].Title != "Cardiomax PI" {
				t.Fatalf("a word only in version 1: %+v", hits)
			}
			cleanSnippet(t, "version 1", hits[0], "Quelzarin", title)
			if hits := mustSearch(t, m, viewer, map[string]any{"query": "water"}); len(hits) != 1 || hits[0].Version != 0 {
				t.Fatalf("the current version: %+v", hits)
			}
			// Words of the running header still find the version, once.
			if hits := mustSearch(t, m, viewer, map[string]any{"query": "prescribing information", "kinds": []string{"asset"}}); len(hits) != 1 || hits[0].Version != 1 {
				t.Fatalf("running header words: %+v", hits)
			}
			// Another organisation finds nothing of it.
			if hits := mustSearch(t, m, m.members["other"][fairbalance.RoleOwner], map[string]any{"query": "quelzarin"}); len(hits) != 0 {
				t.Fatalf("another organisation: %+v", hits)
			}

			// A reference's PDF the same way.
			ref := mustInsert(t, m, marketer, "references", map[string]any{"title": "Label", "citation": "Cardiomax label 2026", "kind": "prescribing_information"})
			rpath := upload(t, m, s, marketer, "reference-files", "label.pdf", runningPDF(t, title, "Brevonil"))
			if _, err := callErr(m, marketer, "attach_reference_file", map[string]any{"reference_id": ref["id"], "file_path": rpath}); err != nil {
				t.Fatal(err)
			}
			hits = mustSearch(t, m, viewer, map[string]any{"query": "brevonil"})
			if len(hits) != 1 || hits[0].ID != ref["id"] {
				t.Fatalf("reference: %+v", hits)
			}
			cleanSnippet(t, "reference", hits[0], "Brevonil", title)

			// PDFs indexed before: their index holds the plain text until
			// RefreshSearchTexts makes their search texts, once.
			err = sqltest.Exec(m.ctx, m.db, `UPDATE search_versions SET body = (SELECT plain_text FROM asset_versions v WHERE v.id = search_versions.version_id), cleaned = FALSE
WHERE asset_id = ? AND number = 1`, id)
			if err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(m.ctx, m.db, `UPDATE content_references SET search_text = NULL WHERE id = ?`, ref["id"]); err != nil {
				t.Fatal(err)
			}
			noisy := mustSearch(t, m, viewer, map[string]any{"query": "brevonil"})
			if len(noisy) != 1 || !strings.Contains(noisy[0].Snippet, "Page 2 of 3") && !strings.Contains(noisy[0].Snippet, title) {
				t.Fatalf("the reference indexed before: %+v", noisy)
			}
			n, err := service.RefreshSearchTexts(m.ctx, m.db)
			if err != nil || n != 2 {
				t.Fatalf("RefreshSearchTexts: %d, %v; want the PDF version and the reference", n, err)
			}
			hits = mustSearch(t, m, viewer, map[string]any{"query": "quelzarin"})
			if len(hits) != 1 || hits[0].Version != 1 {
				t.Fatalf("after re-indexing: %+v", hits)
			}
			cleanSnippet(t, "version 1 re-indexed", hits[0], "Quelzarin", title)
			hits = mustSearch(t, m, viewer, map[string]any{"query": "brevonil"})
			if len(hits) != 1 {
				t.Fatalf("reference after re-indexing: %+v", hits)
			}
			cleanSnippet(t, "reference re-indexed", hits[0], "Brevonil", title)
			if n, err := service.RefreshSearchTexts(m.ctx, m.db); err != nil || n != 0 {
				t.Fatalf("RefreshSearchTexts again: %d, %v", n, err)
			}
		})
	}
}
