package service_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"fairbalance"
	"fairbalance/blobstore/blobtest"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The content model (issue 5): tables, functions and product buckets.

// newContentEnv is the permission matrix's organisations and members with
// the content tables and functions registered.
func newContentEnv(t *testing.T, backend string) *matrixEnv {
	m, _ := newContentStorageEnv(t, backend, "disk")
	return m
}

// newContentStorageEnv is newContentEnv with its storage service, on the
// blob backend blobs.
func newContentStorageEnv(t *testing.T, backend, blobs string) (*matrixEnv, *service.Storage) {
	m, s, _ := newContentBlobsEnv(t, backend, blobs)
	return m, s
}

// newContentBlobsEnv is newContentStorageEnv with its blob store's views.
func newContentBlobsEnv(t *testing.T, backend, blobs string) (*matrixEnv, *service.Storage, blobtest.Harness) {
	m := newMatrix(t, backend)
	h := blobtest.Open(t, blobs)
	s := service.NewStorage(m.db, h.Store, []byte("secret"), http.DetectContentType)
	m.data = service.NewRegistry(m.db, s)
	return m, s, h
}

func insert(t *testing.T, m *matrixEnv, c fairbalance.Caller, table string, row any) (map[string]any, error) {
	t.Helper()
	body, _ := json.Marshal(row)
	res, err := m.data.Insert(m.ctx, c, table, reqPrefer(t, "select=*", "return=representation"), body)
	if err != nil {
		return nil, err
	}
	var rows []map[string]any
	if err := json.Unmarshal(res.Rows, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("insert %s: %s %v", table, res.Rows, err)
	}
	return rows[0], nil
}

func mustInsert(t *testing.T, m *matrixEnv, c fairbalance.Caller, table string, row any) map[string]any {
	t.Helper()
	r, err := insert(t, m, c, table, row)
	if err != nil {
		t.Fatalf("insert %s: %v", table, err)
	}
	return r
}

func TestContentProducts(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			admin := m.members["own"][fairbalance.RoleAdmin]
			p := mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Zelvora", "markets": []string{"US", "EU"}, "launch_date": "2025-01-31"})
			if p["org_id"] != m.orgs["own"] || p["active"] != true || p["created_by"] != admin.UserID {
				t.Fatalf("product row: %v", p)
			}
			if ms, _ := p["markets"].([]any); len(ms) != 2 || ms[0] != "US" {
				t.Fatalf("markets: %v", p["markets"])
			}
			_, err := insert(t, m, admin, "products", map[string]any{"brand_name": "ZELVORA"})
			wantCode(t, "duplicate brand", err, "23505")
			_, err = insert(t, m, admin, "products", map[string]any{"brand_name": " "})
			pe := wantCode(t, "empty brand", err, "23514")
			if pe.Message != "The brand name is required." {
				t.Fatalf("message: %q", pe.Message)
			}
			_, err = insert(t, m, admin, "products", map[string]any{"brand_name": "X", "launch_date": "31/01/2025"})
			wantCode(t, "bad date", err, "23514")
			for _, role := range []string{fairbalance.RoleMarketer, fairbalance.RoleViewer, fairbalance.RoleReviewerMedical} {
				_, err := insert(t, m, m.members["own"][role], "products", map[string]any{"brand_name": "Other " + role})
				if !denied(err) {
					t.Fatalf("%s inserted a product: %v", role, err)
				}
				if rows := readRows(t, m, m.members["own"][role], "products", "select=id"); len(rows) != 1 {
					t.Fatalf("%s reads %d products", role, len(rows))
				}
			}
			if rows := readRows(t, m, m.members["other"][fairbalance.RoleAdmin], "products", "select=id"); len(rows) != 0 {
				t.Fatalf("another organisation reads %d products", len(rows))
			}
			if e := lastEntry(t, m, m.orgs["own"], "product_created"); e.ObjectID != p["id"] {
				t.Fatalf("audit entry: %+v", e)
			}
		})
	}
}

func callErr(m *matrixEnv, c fairbalance.Caller, fn string, args map[string]any) (map[string]any, error) {
	raw, err := m.data.Call(m.ctx, c, fn, args, false)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", fn, raw, err)
	}
	return out, nil
}

func pgMessage(err error) string {
	if pe, ok := err.(*fairbalance.Error); ok {
		return pe.Message
	}
	return fmt.Sprint(err)
}

func patchRows(t *testing.T, m *matrixEnv, c fairbalance.Caller, table, query string, values any) ([]map[string]any, error) {
	t.Helper()
	body, _ := json.Marshal(values)
	res, err := m.data.Update(m.ctx, c, table, reqPrefer(t, query, "return=representation"), body)
	if err != nil {
		return nil, err
	}
	var rows []map[string]any
	_ = json.Unmarshal(res.Rows, &rows)
	return rows, nil
}

func deleteRows(t *testing.T, m *matrixEnv, c fairbalance.Caller, table, query string) (int64, error) {
	t.Helper()
	res, err := m.data.Delete(m.ctx, c, table, req(t, query))
	if err != nil {
		return 0, err
	}
	return res.Affected, nil
}

var composeHTML = `<h1>Title</h1><p>Hello <strong>world</strong><script>alert(1)</script></p>` +
	`<p><img src=x onerror="alert(2)"><a href="javascript:alert(3)">bad</a> <a href="https://example.com" onclick="x()">good</a></p>` +
	`<ul><li>one</li><li>two</li></ul><p><span data-module-id="%s" data-module-kind="isi" data-module-title="Zelvora ISI" style="color:red">Important Safety Information</span></p>`

func TestContentAssetsComposed(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			own := m.members["own"]
			marketer, stranger := own[fairbalance.RoleMarketer], m.members["other"][fairbalance.RoleAdmin]
			product := mustInsert(t, m, own[fairbalance.RoleAdmin], "products", map[string]any{"brand_name": "Zelvora"})
			module := mustInsert(t, m, marketer, "modules", map[string]any{"kind": "isi", "title": "ISI", "body": "Important Safety Information"})
			args := func() map[string]any {
				return map[string]any{"title": "Launch e-mail", "type": "email", "audience": "hcp", "channel": "email", "market": "us",
					"product_id": product["id"], "content_html": fmt.Sprintf(composeHTML, module["id"]),
					"content_json": map[string]any{"type": "doc", "content": []any{}}}
			}

			// Who may create.
			for _, role := range []string{fairbalance.RoleViewer, fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory} {
				if _, err := callErr(m, own[role], "create_asset", args()); !denied(err) {
					t.Fatalf("%s created an asset: %v", role, err)
				}
			}
			demo := marketer
			demo.Demo = true
			if _, err := callErr(m, demo, "create_asset", args()); !denied(err) {
				t.Fatalf("a demo session created an asset: %v", err)
			}

			asset, err := callErr(m, marketer, "create_asset", args())
			if err != nil {
				t.Fatal(err)
			}
			if asset["job_code"] != "FB-US-0001" || asset["status"] != "draft" || asset["current_version_number"] != float64(1) ||
				asset["owner_id"] != marketer.UserID || asset["org_id"] != m.orgs["own"] || asset["current_version_id"] == nil {
				t.Fatalf("asset: %v", asset)
			}
			vs := readRows(t, m, marketer, "asset_versions", "select=*&asset_id=eq."+asset["id"].(string))
			if len(vs) != 1 {
				t.Fatalf("versions: %v", vs)
			}
			v := vs[0]
			h := v["content_html"].(string)
			for _, bad := range []string{"script", "alert", "onerror", "javascript", "onclick", "style", "<img"} {
				if strings.Contains(h, bad) {
					t.Errorf("sanitised HTML keeps %q: %s", bad, h)
				}
			}
			for _, good := range []string{"<h1>Title</h1>", "<strong>world</strong>", `href="https://example.com"`, `rel="noopener"`, "<li>one</li>",
				fmt.Sprintf(`<span data-module-id="%s" data-module-kind="isi" data-module-title="Zelvora ISI">Important Safety Information</span>`, module["id"])} {
				if !strings.Contains(h, good) {
					t.Errorf("sanitised HTML lacks %q: %s", good, h)
				}
			}
			if want := "Title\nHello world\nbad good\none\ntwo\nImportant Safety Information"; v["plain_text"] != want {
				t.Errorf("plain text %q, want %q", v["plain_text"], want)
			}
			sum := sha256.Sum256([]byte(h))
			if v["sha256"] != hex.EncodeToString(sum[:]) || v["page_count"] != float64(1) || v["kind"] != "authored" || v["number"] != float64(1) || v["id"] != asset["current_version_id"] {
				t.Errorf("version: %v", v)
			}
			if pt, _ := v["page_texts"].([]any); len(pt) != 1 || pt[0] != v["plain_text"] {
				t.Errorf("page_texts: %v", v["page_texts"])
			}
			if cj, _ := v["content_json"].(map[string]any); cj["type"] != "doc" {
				t.Errorf("content_json: %v", v["content_json"])
			}
			vm := readRows(t, m, own[fairbalance.RoleViewer], "version_modules", "select=*")
			if len(vm) != 1 || vm[0]["module_id"] != module["id"] || vm[0]["version_id"] != v["id"] || vm[0]["asset_id"] != asset["id"] {
				t.Fatalf("version_modules: %v", vm)
			}
			// Deleting a module used in a version is refused.
			if _, err := deleteRows(t, m, marketer, "modules", "id=eq."+module["id"].(string)); pgCode(err) != "23503" {
				t.Fatalf("delete of a used module: %v", err)
			}

			// Embeds: the product, the owner, the versions.
			rows := readRows(t, m, own[fairbalance.RoleViewer], "assets", "select=id,products(brand_name),owner:profiles_v2!owner_id(full_name),asset_versions(number)&id=eq."+asset["id"].(string))
			if len(rows) != 1 || rows[0]["products"].(map[string]any)["brand_name"] != "Zelvora" || rows[0]["owner"].(map[string]any)["full_name"] != "marketer" || len(rows[0]["asset_versions"].([]any)) != 1 {
				t.Fatalf("embedded: %v", rows)
			}

			// Job codes: generated in sequence, unique per organisation.
			second, err := callErr(m, own[fairbalance.RoleAdmin], "create_asset", args())
			if err != nil || second["job_code"] != "FB-US-0002" {
				t.Fatalf("second asset: %v %v", second, err)
			}
			a := args()
			a["job_code"] = "FB-US-0001"
			_, err = callErr(m, marketer, "create_asset", a)
			wantCode(t, "duplicate job code", err, "23505")
			a = args()
			a["market"] = ""
			a["job_code"] = ""
			if third, err := callErr(m, marketer, "create_asset", a); err != nil || third["job_code"] != "FB-GLOBAL-0003" {
				t.Fatalf("third asset: %v %v", third, err)
			}
			// Another organisation's numbering is its own, and may reuse a code.
			a = args()
			delete(a, "product_id")
			a["job_code"], a["content_html"] = "FB-US-0001", "<p>Theirs</p>"
			if _, err := callErr(m, stranger, "create_asset", a); err != nil {
				t.Fatalf("another organisation's job code: %v", err)
			}

			// Validation.
			a = args()
			a["type"] = "poster"
			_, err = callErr(m, marketer, "create_asset", a)
			wantCode(t, "bad type", err, "23514")
			a = args()
			a["file_path"] = "x"
			if _, err := callErr(m, marketer, "create_asset", a); pgCode(err) != "P0001" {
				t.Fatalf("both content and file: %v", err)
			}
			a = args()
			a["content_html"] = `<p><span data-module-id="6f1c1f9e-1111-4222-8333-944444444444" data-module-kind="isi">x</span></p>`
			if _, err := callErr(m, marketer, "create_asset", a); pgCode(err) != "P0001" {
				t.Fatalf("unknown module: %v", err)
			}
			otherModule := mustInsert(t, m, stranger, "modules", map[string]any{"kind": "copy", "title": "Theirs"})
			a["content_html"] = fmt.Sprintf(`<p><span data-module-id="%s" data-module-kind="copy">x</span></p>`, otherModule["id"])
			if _, err := callErr(m, marketer, "create_asset", a); pgCode(err) != "P0001" {
				t.Fatalf("another organisation's module: %v", err)
			}
			a = args()
			a["product_id"] = mustInsert(t, m, stranger, "products", map[string]any{"brand_name": "Theirs"})["id"]
			if _, err := callErr(m, marketer, "create_asset", a); pgCode(err) != "23503" {
				t.Fatalf("another organisation's product: %v", err)
			}

			// Versions: numbered, a change note from the second on, insert-only.
			id := asset["id"].(string)
			if _, err := callErr(m, marketer, "add_asset_version", map[string]any{"asset_id": id, "content_html": "<p>v2</p>"}); pgCode(err) != "P0001" {
				t.Fatalf("version without a change note: %v", err)
			}
			v2, err := callErr(m, marketer, "add_asset_version", map[string]any{"asset_id": id, "content_html": "<p>v2</p>", "change_note": "Shorter"})
			if err != nil || v2["number"] != float64(2) || v2["change_note"] != "Shorter" {
				t.Fatalf("version 2: %v %v", v2, err)
			}
			if r := readRows(t, m, marketer, "assets", "select=current_version_id,current_version_number&id=eq."+id); r[0]["current_version_id"] != v2["id"] || r[0]["current_version_number"] != float64(2) {
				t.Fatalf("asset after version 2: %v", r)
			}
			if _, err := callErr(m, own[fairbalance.RoleViewer], "add_asset_version", map[string]any{"asset_id": id, "content_html": "<p>v3</p>", "change_note": "x"}); !denied(err) {
				t.Fatalf("a viewer added a version: %v", err)
			}
			if _, err := callErr(m, stranger, "add_asset_version", map[string]any{"asset_id": id, "content_html": "<p>v3</p>", "change_note": "x"}); pgCode(err) != "P0002" {
				t.Fatalf("another organisation added a version: %v", err)
			}
			if _, err := patchRows(t, m, marketer, "asset_versions", "id=eq."+v2["id"].(string), map[string]any{"change_note": "edited"}); !denied(err) {
				t.Fatalf("a version was edited: %v", err)
			}
			if _, err := deleteRows(t, m, own[fairbalance.RoleOwner], "asset_versions", "id=eq."+v2["id"].(string)); !denied(err) {
				t.Fatalf("a version was deleted: %v", err)
			}
			// Below the API too: once submitted, the database refuses any change.
			submit := func(values map[string]any) error {
				return m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
					var cols []string
					for k := range values {
						cols = append(cols, k)
					}
					_, _, err := tx.Update(m.ctx, &fairbalance.WritePlan{Table: "asset_versions", Columns: cols, Rows: []map[string]any{values},
						Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: v2["id"]}})
					return err
				})
			}
			if err := submit(map[string]any{"submitted_at": time.Now().UTC()}); err != nil {
				t.Fatalf("submitting: %v", err)
			}
			if err := submit(map[string]any{"change_note": "rewritten history"}); err == nil {
				t.Fatal("a submitted version changed")
			}
			if _, err := insert(t, m, marketer, "assets", map[string]any{"title": "direct", "audience": "hcp"}); !denied(err) {
				t.Fatalf("an asset was inserted directly: %v", err)
			}

			// Metadata edits: the allowed columns only; other organisations see nothing.
			if _, err := patchRows(t, m, marketer, "assets", "id=eq."+id, map[string]any{"status": "approved"}); !denied(err) {
				t.Fatalf("status written directly: %v", err)
			}
			if _, err := patchRows(t, m, marketer, "assets", "id=eq."+id, map[string]any{"job_code": "X"}); !denied(err) {
				t.Fatalf("job code written directly: %v", err)
			}
			if rows, err := patchRows(t, m, marketer, "assets", "id=eq."+id, map[string]any{"title": "Renamed", "expires_at": "2027-01-01"}); err != nil || len(rows) != 1 {
				t.Fatalf("rename: %v %v", rows, err)
			}
			if _, err := patchRows(t, m, marketer, "assets", "id=eq."+id, map[string]any{"owner_id": stranger.UserID}); pgCode(err) != "23503" {
				t.Fatalf("owner from another organisation: %v", err)
			}
			if rows, _ := patchRows(t, m, stranger, "assets", "id=eq."+id, map[string]any{"title": "Hijacked"}); len(rows) != 0 {
				t.Fatal("another organisation renamed the asset")
			}
			if rows := readRows(t, m, stranger, "assets", "select=id"); len(rows) != 1 {
				t.Fatalf("another organisation reads %d assets (its own only)", len(rows))
			}
			if rows := readRows(t, m, stranger, "version_modules", "select=*"); len(rows) != 0 {
				t.Fatal("another organisation reads the version modules")
			}
			if rows := readRows(t, m, stranger, "asset_versions", "select=id&asset_id=eq."+id); len(rows) != 0 {
				t.Fatal("another organisation reads the versions")
			}

			// Archive: then nothing changes.
			arch, err := callErr(m, marketer, "archive_asset", map[string]any{"asset_id": id})
			if err != nil || arch["status"] != "archived" {
				t.Fatalf("archive: %v %v", arch, err)
			}
			if _, err := callErr(m, marketer, "add_asset_version", map[string]any{"asset_id": id, "content_html": "<p>v3</p>", "change_note": "x"}); pgMessage(err) != "Archived assets cannot change." {
				t.Fatalf("version of an archived asset: %v", err)
			}
			if _, err := patchRows(t, m, marketer, "assets", "id=eq."+id, map[string]any{"title": "Again"}); pgMessage(err) != "Archived assets cannot change." {
				t.Fatalf("rename of an archived asset: %v", err)
			}

			// Audit trail.
			if e := lastEntry(t, m, m.orgs["own"], "asset_created"); e.ObjectType != "assets" || e.ActorID == "" {
				t.Fatalf("asset_created: %+v", e)
			}
			if e := lastEntry(t, m, m.orgs["own"], "asset_version_created"); e.ObjectID != v2["id"] {
				t.Fatalf("asset_version_created: %+v", e)
			}
			if e := lastEntry(t, m, m.orgs["own"], "asset_archived"); e.ObjectID != id {
				t.Fatalf("asset_archived: %+v", e)
			}
			lastEntry(t, m, m.orgs["own"], "asset_updated")
			lastEntry(t, m, m.orgs["own"], "module_created")

			counts, err := callErr(m, own[fairbalance.RoleViewer], "content_counts", nil)
			if err != nil || counts["assets"] != float64(3) || counts["modules"] != float64(1) || counts["by_status"].(map[string]any)["archived"] != float64(1) {
				t.Fatalf("counts: %v %v", counts, err)
			}
		})
	}
}

// testPDF is a PDF of the given pages, each page's text on its own lines.
func testPDF(t *testing.T, pages ...string) []byte {
	t.Helper()
	f := fpdf.New("P", "mm", "A4", "")
	fonts := []string{"Helvetica", "Times", "Courier"}
	for i, p := range pages {
		f.AddPage()
		f.SetFont(fonts[i%len(fonts)], "", 12)
		for _, line := range strings.Split(p, "\n") {
			f.Cell(0, 8, line)
			f.Ln(8)
		}
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload prepares and performs an upload to a product bucket as c.
func upload(t *testing.T, m *matrixEnv, s *service.Storage, c fairbalance.Caller, bucket, name string, body []byte) string {
	t.Helper()
	_, typ := s.SniffContentType(body)
	prep, err := callErr(m, c, "prepare_upload", map[string]any{"bucket": bucket, "file_name": name, "content_type": typ, "size": float64(len(body))})
	if err != nil {
		t.Fatalf("prepare_upload: %v", err)
	}
	path := prep["path"].(string)
	if !strings.HasPrefix(path, c.OrgID+"/") || prep["bucket"] != bucket || !strings.HasPrefix(prep["signed_url"].(string), "/storage/v1/object/upload/sign/"+bucket+"/"+path+"?token=") {
		t.Fatalf("prepare_upload: %v", prep)
	}
	if _, err := s.UploadSigned(m.ctx, prep["token"].(string), service.UploadInput{Bucket: bucket, Name: path, Body: bytes.NewReader(body)}); err != nil {
		t.Fatalf("signed upload: %v", err)
	}
	return path
}

func TestContentFiles(t *testing.T) {
	for _, backend := range storetest.Backends() {
		for _, blobs := range blobtest.Backends() {
			t.Run(backend+"/"+blobs, func(t *testing.T) {
				m, s := newContentStorageEnv(t, backend, blobs)
				ctx := m.ctx
				own := m.members["own"]
				marketer, viewer, stranger := own[fairbalance.RoleMarketer], own[fairbalance.RoleViewer], m.members["other"][fairbalance.RoleAdmin]
				pdf := testPDF(t, "Zelvora reduced symptoms\nby 42 percent in adults.", "Page two holds the\nprimary endpoint result.", "Third page: references.")

				// prepare_upload: writers only; types and sizes checked up front.
				prep := map[string]any{"bucket": "asset-files", "file_name": "a.pdf", "content_type": "application/pdf", "size": 1000}
				if _, err := callErr(m, viewer, "prepare_upload", prep); !denied(err) {
					t.Fatalf("a viewer prepared an upload: %v", err)
				}
				bad := map[string]any{"bucket": "asset-files", "file_name": "a.svg", "content_type": "image/svg+xml", "size": 1000}
				if _, err := callErr(m, marketer, "prepare_upload", bad); pgCode(err) != "P0001" {
					t.Fatalf("svg: %v", err)
				}
				big := map[string]any{"bucket": "asset-files", "file_name": "a.pdf", "content_type": "application/pdf", "size": float64(501 << 20)}
				if _, err := callErr(m, marketer, "prepare_upload", big); pgCode(err) != "P0001" {
					t.Fatalf("too large: %v", err)
				}
				// Client-chosen names are refused in product buckets.
				_, err := s.Upload(ctx, marketer, service.UploadInput{Bucket: "asset-files", Name: m.orgs["own"] + "/mine.pdf", Body: bytes.NewReader(pdf)})
				if e := fairbalance.AsError(err); e == nil || e.Code != service.CodeInvalidRequest || e.Message != service.MsgServerPaths {
					t.Fatalf("direct upload: %v", err)
				}
				if _, err := s.SignUploadURL(ctx, marketer, "asset-files", m.orgs["own"]+"/mine.pdf", false); fairbalance.AsError(err) == nil || fairbalance.AsError(err).Message != service.MsgServerPaths {
					t.Fatalf("signed upload URL: %v", err)
				}
				for _, c := range []fairbalance.Caller{own[fairbalance.RoleOwner], {Role: "service_role"}} {
					if err := s.DeleteBucket(ctx, c, "asset-files"); err == nil {
						t.Fatal("a system bucket was deleted")
					}
					if err := s.UpdateBucket(ctx, c, service.BucketInput{ID: "asset-files"}); err == nil {
						t.Fatal("a system bucket was updated")
					}
				}
				if err := s.EmptyBucket(ctx, fairbalance.Caller{Role: "service_role"}, "asset-files"); err == nil {
					t.Fatal("a system bucket was emptied")
				}

				path := upload(t, m, s, marketer, "asset-files", "Launch deck.pdf", pdf)
				asset, err := callErr(m, marketer, "create_asset", map[string]any{"title": "Deck", "type": "detail_aid", "audience": "hcp", "channel": "rep", "market": "EU", "file_path": path, "file_name": "Launch deck.pdf"})
				if err != nil {
					t.Fatal(err)
				}
				v := readRows(t, m, viewer, "asset_versions", "select=*&asset_id=eq."+asset["id"].(string))[0]
				sum := sha256.Sum256(pdf)
				if v["kind"] != "file" || v["page_count"] != float64(3) || v["file_bucket"] != "asset-files" || v["file_path"] != path || v["file_name"] != "Launch deck.pdf" ||
					v["mimetype"] != "application/pdf" || v["file_size"] != float64(len(pdf)) || v["sha256"] != hex.EncodeToString(sum[:]) || v["content_html"] != nil {
					t.Fatalf("file version: %v", v)
				}
				pages, _ := v["page_texts"].([]any)
				if len(pages) != 3 || !strings.Contains(pages[1].(string), "primary endpoint") || !strings.Contains(pages[0].(string), "42 percent") {
					t.Fatalf("page texts: %q", pages)
				}
				if strings.Count(v["plain_text"].(string), "\f") != 2 {
					t.Fatalf("plain text: %q", v["plain_text"])
				}

				// Members of the organisation read the file; another organisation
				// finds nothing, by path, by signed URL or by listing.
				if _, blob, err := s.Open(ctx, viewer, "asset-files", path); err != nil {
					t.Fatalf("a viewer cannot open the file: %v", err)
				} else {
					got, _ := io.ReadAll(blob)
					blob.Close()
					if !bytes.Equal(got, pdf) {
						t.Fatal("the file's bytes differ")
					}
				}
				if _, _, err := s.Open(ctx, stranger, "asset-files", path); fairbalance.AsError(err) == nil || fairbalance.AsError(err).Message != "Object not found" {
					t.Fatalf("another organisation opened the file: %v", err)
				}
				if _, err := s.Info(ctx, stranger, "asset-files", path); err == nil {
					t.Fatal("another organisation read the file's info")
				}
				if _, err := s.SignURL(ctx, stranger, "asset-files", path, 60); err == nil {
					t.Fatal("another organisation signed the file's URL")
				}
				if l, err := s.List(ctx, stranger, "asset-files", service.ListInput{Prefix: m.orgs["own"]}); err != nil || len(l) != 0 {
					t.Fatalf("another organisation lists %v %v", l, err)
				}
				if l, err := s.List(ctx, stranger, "asset-files", service.ListInput{}); err != nil || len(l) != 0 {
					t.Fatalf("another organisation lists the root: %v %v", l, err)
				}
				if l, err := s.List(ctx, viewer, "asset-files", service.ListInput{Prefix: m.orgs["own"]}); err != nil || len(l) != 1 {
					t.Fatalf("own listing: %v %v", l, err)
				}
				if gone, err := s.Remove(ctx, stranger, "asset-files", []string{path}); err != nil || len(gone) != 0 {
					t.Fatalf("another organisation removed the file: %v %v", gone, err)
				}
				if _, err := s.Remove(ctx, marketer, "asset-files", []string{path}); err == nil {
					t.Fatal("the file of a version was removed")
				}
				spare := upload(t, m, s, marketer, "asset-files", "spare.pdf", pdf)
				if gone, err := s.Remove(ctx, marketer, "asset-files", []string{spare}); err != nil || len(gone) != 1 {
					t.Fatalf("an unused file was not removed: %v %v", gone, err)
				}
				if _, err := s.Move(ctx, marketer, "asset-files", path, "asset-files", m.orgs["own"]+"/renamed.pdf"); err == nil {
					t.Fatal("a product bucket's object was renamed")
				}
				if _, err := callErr(m, stranger, "create_asset", map[string]any{"title": "Theirs", "type": "other", "audience": "hcp", "channel": "x", "market": "US", "file_path": path}); pgCode(err) != "P0001" {
					t.Fatalf("another organisation used the file: %v", err)
				}
				if _, err := callErr(m, stranger, "add_asset_version", map[string]any{"asset_id": asset["id"], "file_path": path, "change_note": "x"}); err == nil {
					t.Fatal("another organisation added a version")
				}

				// An image version: one page, no text.
				png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
				ipath := upload(t, m, s, marketer, "asset-files", "banner.png", png)
				iv, err := callErr(m, marketer, "add_asset_version", map[string]any{"asset_id": asset["id"], "file_path": ipath, "change_note": "As an image"})
				if err != nil || iv["number"] != float64(2) || iv["page_count"] != float64(1) || iv["mimetype"] != "image/png" || len(iv["page_texts"].([]any)) != 0 {
					t.Fatalf("image version: %v %v", iv, err)
				}

				// References: the PDF attached, and claims quoting its pages.
				ref := mustInsert(t, m, marketer, "references", map[string]any{"title": "Pivotal study", "citation": "Doe J. 2024", "kind": "clinical_study"})
				rpath := upload(t, m, s, marketer, "reference-files", "study.pdf", pdf)
				if _, err := callErr(m, viewer, "attach_reference_file", map[string]any{"reference_id": ref["id"], "file_path": rpath}); !denied(err) {
					t.Fatalf("a viewer attached a file: %v", err)
				}
				if _, err := callErr(m, marketer, "attach_reference_file", map[string]any{"reference_id": ref["id"], "file_path": path}); pgCode(err) != "P0001" {
					t.Fatalf("a file of asset-files attached to a reference: %v", err)
				}
				r, err := callErr(m, marketer, "attach_reference_file", map[string]any{"reference_id": ref["id"], "file_path": rpath, "file_name": "study.pdf"})
				if err != nil || r["page_count"] != float64(3) || r["file_name"] != "study.pdf" || len(r["page_texts"].([]any)) != 3 {
					t.Fatalf("attach: %v %v", r, err)
				}
				lastEntry(t, m, m.orgs["own"], "reference_file_attached")
				claim := mustInsert(t, m, marketer, "claims", map[string]any{"text": "Zelvora reduces symptoms by 42%", "variants": []string{"42% fewer symptoms"}})
				link := map[string]any{"claim_id": claim["id"], "reference_id": ref["id"], "page": 2, "passage": "holds the  PRIMARY\nendpoint"}
				cr := mustInsert(t, m, marketer, "claim_references", link)
				link["page"] = 1
				_, err = insert(t, m, marketer, "claim_references", link)
				if pe := wantCode(t, "passage on the wrong page", err, "23514"); pe.Message != "The quoted passage was not found on page 1 of the reference." {
					t.Fatalf("message: %q", pe.Message)
				}
				link["page"] = 4
				_, err = insert(t, m, marketer, "claim_references", link)
				wantCode(t, "page past the end", err, "23514")
				link["page"] = 2
				if _, err := insert(t, m, viewer, "claim_references", link); !denied(err) {
					t.Fatalf("a viewer linked a passage: %v", err)
				}
				if _, err := insert(t, m, stranger, "claim_references", link); pgCode(err) != "23503" {
					t.Fatalf("another organisation linked to our claim: %v", err)
				}
				if _, err := patchRows(t, m, marketer, "claim_references", "id=eq."+cr["id"].(string), map[string]any{"page": 3}); !denied(err) {
					t.Fatalf("a link was edited: %v", err)
				}
				rows := readRows(t, m, viewer, "claims", "select=id,claim_references(page,passage)")
				if len(rows) != 1 || len(rows[0]["claim_references"].([]any)) != 1 {
					t.Fatalf("claims with references: %v", rows)
				}
				rows = readRows(t, m, viewer, "claim_references", "select=page,references(title),claims(text)")
				if len(rows) != 1 || rows[0]["references"].(map[string]any)["title"] != "Pivotal study" || rows[0]["claims"] == nil {
					t.Fatalf("links with their reference and claim: %v", rows)
				}
				if _, err := deleteRows(t, m, marketer, "references", "id=eq."+ref["id"].(string)); pgCode(err) != "23503" {
					t.Fatalf("delete of a cited reference: %v", err)
				}
				if n, err := deleteRows(t, m, marketer, "claim_references", "id=eq."+cr["id"].(string)); err != nil || n != 1 {
					t.Fatalf("unlink: %v %v", n, err)
				}
				lastEntry(t, m, m.orgs["own"], "claim_reference_linked")
				lastEntry(t, m, m.orgs["own"], "claim_reference_unlinked")
			})
		}
	}
}

func TestContentRolesOnClaimsModulesReferences(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			writers := map[string]bool{fairbalance.RoleOwner: true, fairbalance.RoleAdmin: true, fairbalance.RoleMarketer: true}
			for _, role := range fairbalance.Roles {
				c := m.members["own"][role]
				for table, row := range map[string]map[string]any{
					"claims":     {"text": "Claim by " + role},
					"modules":    {"kind": "copy", "title": "Module by " + role},
					"references": {"title": "Reference by " + role},
				} {
					got, err := insert(t, m, c, table, row)
					if writers[role] != (err == nil) {
						t.Fatalf("%s inserting into %s: %v", role, table, err)
					}
					if err != nil {
						continue
					}
					_, err = patchRows(t, m, m.members["own"][fairbalance.RoleViewer], table, "id=eq."+got["id"].(string), map[string]any{"title": "x"})
					if table != "claims" && !denied(err) {
						t.Fatalf("a viewer updated %s: %v", table, err)
					}
					if rows, _ := patchRows(t, m, m.members["other"][fairbalance.RoleAdmin], table, "id=eq."+got["id"].(string), map[string]any{"status": "draft"}); len(rows) != 0 {
						t.Fatalf("another organisation updated %s", table)
					}
				}
			}
			admin := m.members["own"][fairbalance.RoleAdmin]
			_, err := insert(t, m, admin, "modules", map[string]any{"kind": "banner", "title": "x"})
			wantCode(t, "module kind", err, "23514")
			_, err = insert(t, m, admin, "claims", map[string]any{"text": strings.Repeat("x", 2001)})
			wantCode(t, "claim length", err, "23514")
			_, err = insert(t, m, admin, "claims", map[string]any{"text": "x", "status": "live"})
			wantCode(t, "claim status", err, "23514")
			// A product in use is not deleted.
			p := mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Used"})
			mustInsert(t, m, admin, "claims", map[string]any{"text": "x", "product_id": p["id"]})
			if _, err := deleteRows(t, m, admin, "products", "id=eq."+p["id"].(string)); pgCode(err) != "23503" {
				t.Fatalf("delete of a product in use: %v", err)
			}
			free := mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Free"})
			if rows, err := patchRows(t, m, admin, "products", "id=eq."+free["id"].(string), map[string]any{"brand_name": "used"}); pgCode(err) != "23505" {
				t.Fatalf("rename onto another brand: %v %v", rows, err)
			}
			if n, err := deleteRows(t, m, admin, "products", "id=eq."+free["id"].(string)); err != nil || n != 1 {
				t.Fatalf("delete of a free product: %v %v", n, err)
			}
			lastEntry(t, m, m.orgs["own"], "product_deleted")
			lastEntry(t, m, m.orgs["own"], "reference_created")
			lastEntry(t, m, m.orgs["own"], "claim_created")
		})
	}
}

func TestContentJobCodesConcurrent(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			own := m.members["own"]
			const n = 8
			codes := make([]string, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := own[[]string{fairbalance.RoleOwner, fairbalance.RoleAdmin, fairbalance.RoleMarketer}[i%3]]
					a, err := callErr(m, c, "create_asset", map[string]any{"title": fmt.Sprint("Asset ", i), "type": "banner", "audience": "patient", "channel": "web", "market": "UK", "content_html": "<p>x</p>"})
					errs[i] = err
					if err == nil {
						codes[i], _ = a["job_code"].(string)
					}
				}()
			}
			wg.Wait()
			seen := map[string]bool{}
			for i := range n {
				if errs[i] != nil || seen[codes[i]] || !strings.HasPrefix(codes[i], "FB-UK-000") {
					t.Fatalf("asset %d: %q %v (codes %v)", i, codes[i], errs[i], codes)
				}
				seen[codes[i]] = true
			}
		})
	}
}

// A refused row names every refused field with its message (for forms
// that show them all at once); the message is the first field's.
func TestContentRefusalNamesEveryField(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			admin := m.members["own"][fairbalance.RoleAdmin]
			_, err := insert(t, m, admin, "products", map[string]any{"brand_name": " ", "established_name": strings.Repeat("x", 201), "launch_date": "soon"})
			e := wantCode(t, "product with three bad fields", err, "23514")
			want := map[string]string{
				"brand_name":       "The brand name is required.",
				"established_name": "The established name must be 0 to 200 characters long.",
				"launch_date":      "The launch date must be a date written YYYY-MM-DD.",
			}
			if e.Message != want["brand_name"] || e.Constraint != "products_brand_name_check" || fmt.Sprint(e.Fields) != fmt.Sprint(want) {
				t.Fatalf("got %q (%s) fields %v, want fields %v", e.Message, e.Constraint, e.Fields, want)
			}
			_, err = insert(t, m, admin, "claims", map[string]any{"text": "A claim", "product_id": "00000000-0000-4000-8000-000000000099"})
			if e := wantCode(t, "claim of a missing product", err, "23503"); e.Fields["product_id"] != "The product does not exist in your organisation." {
				t.Fatalf("fields %v", e.Fields)
			}
		})
	}
}
