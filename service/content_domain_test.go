package service_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/dataapi"
	"fairbalance/service"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// The typed domain (issue 13): the vocabularies declared in the root
// package are what the database's CHECK constraints, the registry's
// columns and the generated TypeScript allow; the content functions check
// typed inputs; claims and modules follow their transition tables.

func sourceName(name, source string) string {
	if source != "" {
		return source
	}
	return name
}

// Every CHECK that holds a content column to a list of values, in the
// live schema of both databases, lists exactly the values of the
// registry column's vocabulary, in the same order; and every column with
// a vocabulary has its CHECK.
func TestVocabulariesMatchCheckConstraints(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			seen := 0
			for _, table := range service.ContentTables() {
				name := sourceName(table.Name, table.Source)
				checks, err := sqltest.ValueChecks(t.Context(), db, name)
				if err != nil {
					t.Fatal(err)
				}
				enums := map[string][]string{}
				for _, c := range table.Columns {
					if c.Enum != nil {
						enums[sourceName(c.Name, c.Source)] = c.Enum.Values
					}
				}
				if !maps.EqualFunc(checks, enums, slices.Equal) {
					t.Errorf("%s: CHECK lists %v, registry vocabularies %v", name, checks, enums)
				}
				seen += len(checks)
			}
			// assets.type, audience, status; asset_versions.kind;
			// content_references.kind, status; claims.status;
			// modules.kind, status.
			if seen != 9 {
				t.Errorf("%d value lists in the content tables' CHECK constraints", seen)
			}
			// The review workflow's: reviews.status; review_steps.role,
			// status; signatures.meaning, decision; change_requests.role,
			// status; notifications.kind; annotations.category, state,
			// anchor_status.
			seen = 0
			for _, table := range service.ReviewTables() {
				name := sourceName(table.Name, table.Source)
				checks, err := sqltest.ValueChecks(t.Context(), db, name)
				if err != nil {
					t.Fatal(err)
				}
				enums := map[string][]string{}
				for _, c := range table.Columns {
					if c.Enum != nil {
						enums[sourceName(c.Name, c.Source)] = c.Enum.Values
					}
				}
				if !maps.EqualFunc(checks, enums, slices.Equal) {
					t.Errorf("%s: CHECK lists %v, registry vocabularies %v", name, checks, enums)
				}
				seen += len(checks)
			}
			if seen != 11 {
				t.Errorf("%d value lists in the review tables' CHECK constraints", seen)
			}
			// The compliance checks': compliance_rules.kind, severity;
			// compliance_rule_settings.severity; guideline_documents.source;
			// compliance_findings.severity, state.
			seen = 0
			for _, table := range service.ComplianceTables() {
				checks, err := sqltest.ValueChecks(t.Context(), db, table.Name)
				if err != nil {
					t.Fatal(err)
				}
				enums := map[string][]string{}
				for _, c := range table.Columns {
					if c.Enum != nil {
						enums[c.Name] = c.Enum.Values
					}
				}
				if !maps.EqualFunc(checks, enums, slices.Equal) {
					t.Errorf("%s: CHECK lists %v, registry vocabularies %v", table.Name, checks, enums)
				}
				seen += len(checks)
			}
			if seen != 6 {
				t.Errorf("%d value lists in the compliance tables' CHECK constraints", seen)
			}
			checks, err := sqltest.ValueChecks(t.Context(), db, "assets")
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"draft", "in_review", "changes_requested", "approved", "rejected", "expired", "withdrawn", "archived"}
			if !slices.Equal(checks["status"], want) {
				t.Errorf("assets.status CHECK: %v", checks["status"])
			}
		})
	}
}

// Migration 0012 widened the CHECK on assets.status without touching the
// table's rows, indexes, triggers or the foreign keys that point at it.
func TestAssetStatusesWidenedInPlace(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			marketer := m.members["own"][fairbalance.RoleMarketer]
			asset, err := callErr(m, marketer, "create_asset", map[string]any{"title": "Rejected one", "type": "email", "audience": "hcp",
				"channel": "Email", "market": "US", "content_html": "<p>Lowers LDL-C by half.</p>"})
			if err != nil {
				t.Fatal(err)
			}
			id := asset["id"].(string)
			service := fairbalance.Caller{Role: "service_role"}
			for _, s := range fairbalance.AllAssetStatuses {
				if _, err := patchRows(t, m, service, "assets", "id=eq."+id, map[string]any{"status": string(s)}); err != nil {
					t.Fatalf("status %s: %v", s, err)
				}
			}
			if _, err := patchRows(t, m, service, "assets", "id=eq."+id, map[string]any{"status": "rejected"}); err != nil {
				t.Fatal(err)
			}
			// The search index (triggers on assets) follows the change.
			out, err := m.data.Call(m.ctx, marketer, "search_content", map[string]any{"query": "LDL-C", "status": "rejected"}, true)
			if err != nil || !strings.Contains(string(out), id) {
				t.Fatalf("search by the new status: %s %v", out, err)
			}
			// The database itself still refuses a value outside the list.
			err = sqltest.Exec(m.ctx, m.db, "UPDATE assets SET status = 'published' WHERE id = '"+id+"'")
			if err == nil {
				t.Fatal("the database took a status outside the vocabulary")
			}
			// The versions (a foreign key to assets, ON DELETE CASCADE) are intact.
			if vs := readRows(t, m, marketer, "asset_versions", "select=id&asset_id=eq."+id); len(vs) != 1 {
				t.Fatalf("versions: %v", vs)
			}
		})
	}
}

// The registry refuses a value outside a column's vocabulary as the
// CHECK would (400, 23514), in words naming the allowed values, on insert
// and update alike; a non-text value is refused the same way.
func TestRegistryRefusesValuesOutsideVocabularies(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			marketer := m.members["own"][fairbalance.RoleMarketer]
			claim := mustInsert(t, m, marketer, "claims", map[string]any{"text": "Lowers LDL-C."})
			module := mustInsert(t, m, marketer, "modules", map[string]any{"kind": "isi", "title": "ISI"})
			ref := mustInsert(t, m, marketer, "references", map[string]any{"title": "Study"})
			cases := []struct {
				what string
				do   func() error
				msg  string
			}{
				{"claim status on insert", func() error {
					_, err := insert(t, m, marketer, "claims", map[string]any{"text": "x", "status": "live"})
					return err
				}, "The status must be one of: draft, approved, withdrawn, expired."},
				{"claim status on update", func() error {
					_, err := patchRows(t, m, marketer, "claims", "id=eq."+claim["id"].(string), map[string]any{"status": "Approved"})
					return err
				}, "The status must be one of: draft, approved, withdrawn, expired."},
				{"module kind", func() error {
					_, err := insert(t, m, marketer, "modules", map[string]any{"kind": "video", "title": "x"})
					return err
				}, "The kind must be one of: claim, isi, disclaimer, copy, image."},
				{"module without a kind", func() error {
					_, err := insert(t, m, marketer, "modules", map[string]any{"title": "x"})
					return err
				}, "The kind must be one of: claim, isi, disclaimer, copy, image."},
				{"module status as a number", func() error {
					_, err := patchRows(t, m, marketer, "modules", "id=eq."+module["id"].(string), map[string]any{"status": 1})
					return err
				}, "The status must be one of: draft, approved, retired."},
				{"reference kind", func() error {
					_, err := patchRows(t, m, marketer, "references", "id=eq."+ref["id"].(string), map[string]any{"kind": "blog"})
					return err
				}, "The kind must be one of: prescribing_information, clinical_study, data_on_file, guideline, publication, other."},
				{"reference status", func() error {
					_, err := insert(t, m, marketer, "references", map[string]any{"title": "x", "status": "retracted"})
					return err
				}, "The status must be one of: active, withdrawn."},
			}
			for _, c := range cases {
				err := c.do()
				pe := wantCode(t, c.what, err, "23514")
				if pe == nil || pe.Kind != fairbalance.KindInvalid || pe.Message != c.msg || !strings.Contains(pe.Details, "violates check constraint") {
					t.Errorf("%s: %+v", c.what, pe)
				}
			}
			// Nothing was written.
			if rows := readRows(t, m, marketer, "claims", "select=status"); len(rows) != 1 || rows[0]["status"] != "draft" {
				t.Errorf("claims: %v", rows)
			}
			if rows := readRows(t, m, marketer, "modules", "select=kind,status"); len(rows) != 1 || rows[0]["status"] != "draft" {
				t.Errorf("modules: %v", rows)
			}
		})
	}
}

// Claims and modules change status only along their transition tables;
// a change refused leaves the row as it was, and keeping a status while
// editing the rest is no change of status.
func TestClaimAndModuleStatusTransitions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			// An administrator both authors and decides, so every move is
			// the transition table's to refuse (the role rule is
			// TestContentStatusIsDecided's).
			author := m.members["own"][fairbalance.RoleAdmin]
			set := func(table, id string, values map[string]any) error {
				_, err := patchRows(t, m, author, table, "id=eq."+id, values)
				return err
			}
			status := func(table, id string) any {
				return readRows(t, m, author, table, "select=status&id=eq."+id)[0]["status"]
			}
			claim := mustInsert(t, m, author, "claims", map[string]any{"text": "Lowers LDL-C."})["id"].(string)
			steps := []struct {
				to    string
				legal bool
			}{
				{"approved", true}, {"draft", false}, {"expired", true}, {"approved", true}, {"withdrawn", true}, {"approved", false}, {"draft", false},
			}
			from := "draft"
			for _, s := range steps {
				err := set("claims", claim, map[string]any{"status": s.to})
				if s.legal {
					if err != nil {
						t.Fatalf("claim %s to %s: %v", from, s.to, err)
					}
					from = s.to
					continue
				}
				if pgCode(err) != "P0001" || pgMessage(err) != fmt.Sprintf(service.MsgStatusMove, "claim", from, s.to) {
					t.Fatalf("claim %s to %s: %v", from, s.to, err)
				}
				if got := status("claims", claim); got != from {
					t.Fatalf("after a refused move the claim is %v", got)
				}
			}
			if err := set("claims", claim, map[string]any{"status": "withdrawn", "text": "Lowered LDL-C."}); err != nil {
				t.Fatalf("editing a withdrawn claim without moving it: %v", err)
			}

			module := mustInsert(t, m, author, "modules", map[string]any{"kind": "copy", "title": "Ask your doctor"})["id"].(string)
			if err := set("modules", module, map[string]any{"status": "approved"}); err != nil {
				t.Fatal(err)
			}
			if err := set("modules", module, map[string]any{"status": "draft"}); pgMessage(err) != "The module is approved and cannot become draft." {
				t.Fatalf("module back to draft: %v", err)
			}
			if err := set("modules", module, map[string]any{"status": "retired"}); err != nil {
				t.Fatal(err)
			}
			if err := set("modules", module, map[string]any{"status": "approved"}); pgCode(err) != "P0001" || status("modules", module) != "retired" {
				t.Fatalf("a retired module approved again: %v", err)
			}
			// Several rows at once: one that may not move refuses them all.
			other := mustInsert(t, m, author, "modules", map[string]any{"kind": "copy", "title": "Another"})["id"].(string)
			_, err := patchRows(t, m, author, "modules", "id=in.("+module+","+other+")", map[string]any{"status": "approved"})
			if pgCode(err) != "P0001" || status("modules", other) != "draft" {
				t.Fatalf("a bulk move with a retired module: %v", err)
			}
		})
	}
}

// The content functions check their typed inputs: every refused field has
// its message in the error's Fields, and the error's code and message are
// those of the first refusal (the wire's, as before).
func TestContentInputValidation(t *testing.T) {
	html := "<p>x</p>"
	long := strings.Repeat("x", 201)
	cases := []struct {
		name   string
		in     interface{ Validate() error }
		code   string
		fields map[string]string
	}{
		{"valid", service.CreateAssetInput{Title: "Launch", Type: fairbalance.AssetEmail, Audience: fairbalance.AudienceHCP, Version: service.VersionInput{ContentHTML: &html}}, "", nil},
		{"everything wrong", service.CreateAssetInput{Title: " ", Type: "poster", Audience: "public", Channel: strings.Repeat("c", 101), Market: strings.Repeat("m", 21),
			ExpiresAt: "31/12/2026", JobCode: "-bad", Version: service.VersionInput{ContentHTML: &html, FilePath: "org/x.pdf", ChangeNote: strings.Repeat("n", 1001)}}, "23514",
			map[string]string{
				"title":        "The title is required.",
				"type":         "The type must be one of: email, web_page, detail_aid, social_post, banner, print, video_script, other.",
				"audience":     "The audience must be one of: hcp, patient, payer.",
				"channel":      "The channel must be 0 to 100 characters long.",
				"market":       "The market must be 0 to 20 characters long.",
				"expires_at":   "The expiry date must be a date written YYYY-MM-DD.",
				"content_html": "Give either the composed content (content_html) or an uploaded file (file_path), not both.",
				"file_path":    "Give either the composed content (content_html) or an uploaded file (file_path), not both.",
				"change_note":  "The change note is longer than 1000 characters.",
				"job_code":     "A job code has 1 to 50 letters, digits, spaces and . _ / - characters.",
			}},
		{"long title", service.CreateAssetInput{Title: long, Type: fairbalance.AssetBanner, Audience: fairbalance.AudiencePayer, Version: service.VersionInput{ContentHTML: &html}}, "23514",
			map[string]string{"title": "The title must be 1 to 200 characters long."}},
		{"no content", service.CreateAssetInput{Title: "t", Type: fairbalance.AssetEmail, Audience: fairbalance.AudienceHCP}, "P0001",
			map[string]string{"content_html": "Give either the composed content (content_html) or an uploaded file (file_path), not both.",
				"file_path": "Give either the composed content (content_html) or an uploaded file (file_path), not both."}},
		{"editor document not an object", service.CreateAssetInput{Title: "t", Type: fairbalance.AssetEmail, Audience: fairbalance.AudienceHCP, Version: service.VersionInput{ContentHTML: &html, ContentJSON: []any{}}}, "P0001",
			map[string]string{"content_json": "content_json must be the editor's JSON document (an object)."}},
		{"file not uploaded", service.AddAssetVersionInput{AssetID: "a", Version: service.VersionInput{FilePath: "org/x.pdf", ChangeNote: "New layout"}}, "P0001",
			map[string]string{"file_path": "The uploaded file was not found; upload it again."}},
		{"second version without a change note", service.AddAssetVersionInput{AssetID: "a", Version: service.VersionInput{ContentHTML: &html}}, "P0001",
			map[string]string{"change_note": "Describe what changed in this version (a change note of 1 to 1000 characters)."}},
		{"valid upload", service.PrepareUploadInput{Bucket: "asset-files", FileName: "a.pdf", ContentType: "application/pdf", Size: 10}, "", nil},
		{"bad upload", service.PrepareUploadInput{Bucket: "asset-files", ContentType: "image/svg+xml"}, "P0001",
			map[string]string{"file_name": "The file needs a name of at most 255 characters.", "content_type": "Only PDF, PNG, JPEG and WebP files can be uploaded.", "size": "The file is empty."}},
		{"reference without a file", service.AttachReferenceFileInput{ReferenceID: "r", FileName: strings.Repeat("f", 256)}, "P0001",
			map[string]string{"file_path": "Upload the reference's file first (file_path).", "file_name": "The file name is longer than 255 characters."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate()
			if c.fields == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			fe := fairbalance.AsError(err)
			if fe == nil || fe.Kind != fairbalance.KindInvalid || fe.Code != c.code || !reflect.DeepEqual(fe.Fields, c.fields) {
				t.Fatalf("got %#v", fe)
			}
			if !slices.Contains(slices.Collect(maps.Values(fe.Fields)), fe.Message) {
				t.Fatalf("message %q is none of the fields'", fe.Message)
			}
		})
	}

	// Through the data API: the same error, the first refusal's code and
	// message, every field's message.
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			marketer := m.members["own"][fairbalance.RoleMarketer]
			_, err := callErr(m, marketer, "create_asset", map[string]any{"title": "Launch", "type": "poster", "audience": "public", "channel": "x", "market": "US", "content_html": html})
			fe := fairbalance.AsError(err)
			if fe == nil || fe.Code != "23514" || fe.Message != "The type must be one of: email, web_page, detail_aid, social_post, banner, print, video_script, other." ||
				len(fe.Fields) != 2 || fe.Fields["audience"] == "" {
				t.Fatalf("create_asset: %#v", err)
			}
			// A viewer is refused for who they are before their input is read.
			if _, err := callErr(m, m.members["own"][fairbalance.RoleViewer], "create_asset", map[string]any{"title": ""}); !denied(err) {
				t.Fatalf("viewer: %v", err)
			}
			if rows := readRows(t, m, marketer, "assets", "select=id"); len(rows) != 0 {
				t.Fatalf("assets written: %v", rows)
			}
		})
	}
}

// The domain types hold a row as the store does: one field per registry
// column, and a row read through the registry decodes into them.
func TestDomainTypesMatchRegistry(t *testing.T) {
	types := map[string]any{
		"products": fairbalance.Product{}, "assets": fairbalance.Asset{}, "asset_versions": fairbalance.Version{},
		"version_modules": fairbalance.VersionModule{}, "references": fairbalance.Reference{}, "claims": fairbalance.Claim{},
		"claim_references": fairbalance.ClaimReference{}, "modules": fairbalance.Module{},
	}
	for _, table := range service.ContentTables() {
		v, ok := types[table.Name]
		if !ok {
			t.Errorf("table %s has no domain type", table.Name)
			continue
		}
		var cols, fields []string
		for _, c := range table.Columns {
			cols = append(cols, c.Name)
		}
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			fields = append(fields, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
		}
		slices.Sort(cols)
		slices.Sort(fields)
		if !slices.Equal(cols, fields) {
			t.Errorf("%s: columns %v, %s fields %v", table.Name, cols, rt.Name(), fields)
		}
	}

	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			marketer := m.members["own"][fairbalance.RoleMarketer]
			admin := m.members["own"][fairbalance.RoleAdmin]
			mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Zelvora", "markets": []string{"US"}, "launch_date": "2025-01-31"})
			mustInsert(t, m, marketer, "claims", map[string]any{"text": "Lowers LDL-C.", "variants": []string{"Cuts LDL-C."}, "expires_at": "2026-12-31"})
			mustInsert(t, m, marketer, "modules", map[string]any{"kind": "disclaimer", "title": "US HCP"})
			mustInsert(t, m, marketer, "references", map[string]any{"title": "Study", "kind": "clinical_study"})
			if _, err := callErr(m, marketer, "create_asset", map[string]any{"title": "Launch", "type": "web_page", "audience": "patient", "channel": "Web", "market": "US",
				"content_html": "<p>Hello</p>", "content_json": map[string]any{"type": "doc"}}); err != nil {
				t.Fatal(err)
			}
			decode := func(table string, into any) {
				t.Helper()
				rows := readRows(t, m, marketer, table, "select=*")
				if len(rows) != 1 {
					t.Fatalf("%s: %v", table, rows)
				}
				raw, _ := json.Marshal(rows[0])
				if err := json.Unmarshal(raw, into); err != nil {
					t.Fatalf("%s as %T: %v", table, into, err)
				}
			}
			var p fairbalance.Product
			decode("products", &p)
			if p.BrandName != "Zelvora" || !p.Active || len(p.Markets) != 1 || p.LaunchDate == nil || *p.LaunchDate != "2025-01-31" || p.CreatedAt.IsZero() {
				t.Errorf("product: %+v", p)
			}
			var a fairbalance.Asset
			decode("assets", &a)
			if a.Type != fairbalance.AssetWebPage || a.Audience != fairbalance.AudiencePatient || a.Status != fairbalance.AssetDraft || a.CurrentVersionNumber != 1 ||
				a.CurrentVersionID == nil || a.OwnerID == nil || *a.OwnerID != marketer.UserID || a.UpdatedAt.IsZero() {
				t.Errorf("asset: %+v", a)
			}
			var v fairbalance.Version
			decode("asset_versions", &v)
			if v.Kind != fairbalance.VersionAuthored || v.Number != 1 || v.AssetID != a.ID || v.PlainText != "Hello" || len(v.PageTexts) != 1 || len(v.ContentJSON) == 0 || v.SubmittedAt != nil {
				t.Errorf("version: %+v", v)
			}
			var c fairbalance.Claim
			decode("claims", &c)
			if c.Status != fairbalance.ClaimDraft || len(c.Variants) != 1 || c.ExpiresAt == nil {
				t.Errorf("claim: %+v", c)
			}
			var mod fairbalance.Module
			decode("modules", &mod)
			if mod.Kind != fairbalance.ModuleDisclaimer || mod.Status != fairbalance.ModuleDraft {
				t.Errorf("module: %+v", mod)
			}
			var r fairbalance.Reference
			decode("references", &r)
			if r.Kind != fairbalance.ReferenceClinicalStudy || r.Status != fairbalance.ReferenceActive || r.FilePath != nil {
				t.Errorf("reference: %+v", r)
			}
		})
	}
}

// The generated TypeScript types every column with a vocabulary as the
// union of its values, in Row, Insert and Update, and lists the
// vocabularies in Enums and, at run time, in Constants.
func TestGeneratedTypeScriptUnions(t *testing.T) {
	d := dataapi.New(nil, service.ContentTables()...)
	ts := d.TypeScript()
	status := `"draft" | "in_review" | "changes_requested" | "approved" | "rejected" | "expired" | "withdrawn" | "archived"`
	assets := tableTypes(t, ts, "assets")
	for _, want := range []string{
		"          status: " + status + "\n",  // Row
		"          status?: " + status + "\n", // Insert (defaulted) and Update
		`          audience: "hcp" | "patient" | "payer"` + "\n",
		`          type?: "email" | "web_page" | "detail_aid" | "social_post" | "banner" | "print" | "video_script" | "other"` + "\n",
	} {
		if !strings.Contains(assets, want) {
			t.Errorf("assets types lack %q:\n%s", want, assets)
		}
	}
	if n := strings.Count(assets, "status?: "+status); n != 2 {
		t.Errorf("status in Insert and Update: %d times", n)
	}
	for _, want := range []string{
		"    Enums: {\n      asset_status: " + status + "\n",
		`      reference_status: "active" | "withdrawn"` + "\n",
		"export const Constants = {\n  public: {\n    Enums: {\n",
		`      asset_status: ["draft", "in_review", "changes_requested", "approved", "rejected", "expired", "withdrawn", "archived"],` + "\n",
		"} as const\n",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("types lack %q", want)
		}
	}
	// No column with a vocabulary is typed as a bare string.
	for _, table := range service.ContentTables() {
		block := tableTypes(t, ts, table.Name)
		for _, c := range table.Columns {
			if c.Enum != nil && (strings.Contains(block, " "+c.Name+": string") || strings.Contains(block, " "+c.Name+"?: string")) {
				t.Errorf("%s.%s is typed as a bare string", table.Name, c.Name)
			}
		}
	}
	// Without vocabularies, Enums stays empty and Constants lists none.
	plain := dataapi.New(nil, service.RecordTables()...).TypeScript()
	if !strings.Contains(plain, "    Enums: {\n      [_ in never]: never\n    }\n") {
		t.Errorf("empty Enums:\n%s", plain[strings.Index(plain, "Enums"):])
	}
}

// tableTypes is the part of generated types that types table's Row,
// Insert and Update.
func tableTypes(t *testing.T, ts, table string) string {
	t.Helper()
	_, block, ok := strings.Cut(ts, "\n      "+table+": {\n")
	if !ok {
		t.Fatalf("no types for %s", table)
	}
	block, _, _ = strings.Cut(block, "Relationships")
	return block
}

// The OpenAPI description lists a vocabulary column's values, as
// PostgREST does for an enum type.
func TestOpenAPIEnums(t *testing.T) {
	doc := dataapi.New(nil, service.ContentTables()...).OpenAPI("localhost", "test")
	props := doc["definitions"].(map[string]any)["claims"].(map[string]any)["properties"].(map[string]any)
	status := props["status"].(map[string]any)
	if status["format"] != "claim_status" || !reflect.DeepEqual(status["enum"], []string{"draft", "approved", "withdrawn", "expired"}) {
		t.Fatalf("claims.status: %v", status)
	}
	if text := props["text"].(map[string]any); text["enum"] != nil || text["format"] != "text" {
		t.Fatalf("claims.text: %v", text)
	}
}
