package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"fairbalance"
)

// The storage API as storage-js speaks it.

var testPDF = []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")

// storageErr checks the storage error shape: HTTP 400 with the real status
// as a string in statusCode.
func storageErr(t *testing.T, r *response, status, code string) {
	t.Helper()
	if r.Status != http.StatusBadRequest {
		t.Fatalf("HTTP %d, want 400: %s", r.Status, r.Body)
	}
	m := r.JSON()
	if m["statusCode"] != status || m["code"] != code || m["error"] == "" || m["message"] == "" {
		t.Fatalf("error %s, want statusCode %s code %s", r.Body, status, code)
	}
}

// orgMember seeds an organisation with a member of role and returns the
// organisation's id and the member's access token.
func (h *harness) orgMember(email, orgID, role string) string {
	h.t.Helper()
	uid := h.seedUser(email, true)
	now := time.Now().UTC()
	err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
		if _, err := tx.OrgByID(h.ctx, orgID); err != nil {
			if err := tx.CreateOrg(h.ctx, &fairbalance.Org{ID: orgID, Name: orgID, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return tx.CreateProfile(h.ctx, &fairbalance.Profile{ID: uid, OrgID: orgID, Role: role, CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return h.signIn(email, testPassword).AccessToken
}

func upload(h *harness, tok, method, path string, body []byte, opts ...reqOpt) *response {
	h.t.Helper()
	return h.do(method, "/storage/v1/object/"+path, body, append([]reqOpt{bearer(tok), header("Content-Type", "application/pdf")}, opts...)...)
}

func multipartBody(t testing.TB, body []byte) ([]byte, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.WriteField("cacheControl", "120")
	_ = w.WriteField("metadata", `{"k":"v"}`)
	part, err := w.CreateFormFile("", "blob")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(body)
	_ = w.Close()
	return b.Bytes(), w.FormDataContentType()
}

func TestStorageAPI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h = h.in(t)
		admin := h.orgMember("admin@a.example", "org-a", "admin")
		viewer := h.orgMember("viewer@a.example", "org-a", "viewer")
		stranger := h.orgMember("admin@b.example", "org-b", "admin")

		h.do("POST", "/storage/v1/bucket", map[string]any{"id": "docs", "name": "docs", "file_size_limit": "2MB", "allowed_mime_types": []string{"application/pdf", "text/html", "text/xml"}}, bearer(admin)).OK(200)
		storageErr(t, h.do("POST", "/storage/v1/bucket", map[string]any{"id": "docs"}, bearer(stranger)), "409", "Duplicate")
		storageErr(t, h.do("GET", "/storage/v1/bucket/docs", nil, bearer(stranger)), "404", "NoSuchBucket")
		var buckets []map[string]any
		h.do("GET", "/storage/v1/bucket", nil, bearer(viewer)).OK(200).Decode(&buckets)
		if len(buckets) != 1 || buckets[0]["id"] != "docs" || buckets[0]["file_size_limit"] != float64(2<<20) || buckets[0]["type"] != "STANDARD" {
			t.Fatalf("buckets = %v", buckets)
		}

		// Raw and multipart uploads; the general 1 MiB body cap does not apply.
		big := append(append([]byte{}, testPDF...), bytes.Repeat([]byte("x"), 1500<<10)...)
		r := upload(h, admin, "POST", "docs/folder/a b.pdf", big, header("x-upsert", "false")).OK(200).JSON()
		if r["Key"] != "docs/folder/a b.pdf" || r["Id"] == "" {
			t.Fatalf("upload = %v", r)
		}
		storageErr(t, upload(h, admin, "POST", "docs/folder/a b.pdf", testPDF), "409", "Duplicate")
		upload(h, admin, "POST", "docs/folder/a b.pdf", testPDF, header("x-upsert", "true")).OK(200)
		mb, ct := multipartBody(t, testPDF)
		upload(h, admin, "PUT", "docs/m.pdf", mb, header("Content-Type", ct)).OK(200)
		info := h.do("GET", "/storage/v1/object/info/docs/m.pdf", nil, bearer(viewer)).OK(200).JSON()
		if info["cache_control"] != "max-age=120" || info["content_type"] != "application/pdf" || fmt.Sprint(info["metadata"]) != "map[k:v]" {
			t.Fatalf("info = %v", info)
		}

		// Refusals: another organisation, a viewer, a type outside the list,
		// the size limit.
		storageErr(t, upload(h, stranger, "POST", "docs/x.pdf", testPDF), "404", "NoSuchBucket")
		storageErr(t, h.do("GET", "/storage/v1/object/docs/m.pdf", nil, bearer(stranger)), "404", "NoSuchBucket")
		storageErr(t, upload(h, viewer, "POST", "docs/v.pdf", testPDF), "403", "AccessDenied")
		storageErr(t, upload(h, admin, "POST", "docs/p.png", []byte("\x89PNG\r\n\x1a\n0000")), "415", "InvalidMimeType")
		storageErr(t, upload(h, admin, "POST", "docs/huge.pdf", append(append([]byte{}, testPDF...), make([]byte, 2<<20)...)), "413", "EntityTooLarge")
		storageErr(t, h.do("GET", "/storage/v1/object/docs/nope.pdf", nil, bearer(viewer)), "404", "NoSuchKey")
		storageErr(t, h.do("GET", "/storage/v1/bucket", nil, bearer("not-a-jwt")), "403", "AccessDenied")

		// Downloads: whole, ranges, conditional.
		d := h.do("GET", "/storage/v1/object/docs/folder/a%20b.pdf", nil, bearer(viewer)).OK(200)
		if !bytes.Equal(d.Body, testPDF) || d.Header.Get("Content-Type") != "application/pdf" || d.Header.Get("Content-Disposition") != "" || d.Header.Get("ETag") == "" {
			t.Fatalf("download: %v %q", d.Header, d.Body)
		}
		rg := h.do("GET", "/storage/v1/object/authenticated/docs/folder/a%20b.pdf", nil, bearer(viewer), header("Range", "bytes=1-3")).OK(206)
		if string(rg.Body) != "PDF" {
			t.Fatalf("range = %q", rg.Body)
		}
		h.do("GET", "/storage/v1/object/docs/folder/a%20b.pdf", nil, bearer(viewer), header("If-None-Match", d.Header.Get("ETag"))).OK(304)
		h.do("HEAD", "/storage/v1/object/docs/m.pdf", nil, bearer(viewer)).OK(200)
		if cd := h.do("GET", "/storage/v1/object/docs/m.pdf?download=r.pdf", nil, bearer(viewer)).OK(200).Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
			t.Fatalf("?download: %q", cd)
		}

		// HTML and SVG are never served inline.
		for name, body := range map[string]string{"p.html": "<html><script>alert(1)</script></html>", "i.svg": `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`} {
			upload(h, admin, "POST", "docs/"+name, []byte(body), header("Content-Type", "text/plain")).OK(200)
			g := h.do("GET", "/storage/v1/object/docs/"+name, nil, bearer(viewer)).OK(200)
			if !strings.HasPrefix(g.Header.Get("Content-Disposition"), "attachment") || g.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("%s served with %v", name, g.Header)
			}
		}

		// Listing: immediate children with folders.
		var list []map[string]any
		h.do("POST", "/storage/v1/object/list/docs", map[string]any{"prefix": "", "limit": 100, "offset": 0, "sortBy": map[string]string{"column": "name", "order": "asc"}}, bearer(viewer)).OK(200).Decode(&list)
		names := []string{}
		for _, e := range list {
			names = append(names, e["name"].(string))
		}
		if strings.Join(names, ",") != "folder,i.svg,m.pdf,p.html" || list[0]["id"] != nil || list[2]["metadata"].(map[string]any)["size"] != float64(len(testPDF)) {
			t.Fatalf("list = %v", list)
		}

		// Signed URLs: one, many, expiry, wrong object.
		var signed map[string]string
		h.do("POST", "/storage/v1/object/sign/docs/m.pdf", map[string]any{"expiresIn": 60}, bearer(viewer)).OK(200).Decode(&signed)
		if !bytes.Equal(h.do("GET", "/storage/v1"+signed["signedURL"], nil, key("")).OK(200).Body, testPDF) {
			t.Fatal("signed download")
		}
		tok := signed["signedURL"][strings.Index(signed["signedURL"], "token=")+6:]
		storageErr(t, h.do("GET", "/storage/v1/object/sign/docs/i.svg?token="+tok, nil, key("")), "400", "InvalidSignature")
		var many []map[string]any
		h.do("POST", "/storage/v1/object/sign/docs", map[string]any{"expiresIn": 60, "paths": []string{"m.pdf", "gone.pdf"}}, bearer(viewer)).OK(200).Decode(&many)
		if len(many) != 2 || many[0]["error"] != nil || many[1]["error"] == nil || many[1]["signedURL"] != nil {
			t.Fatalf("sign many = %v", many)
		}
		storageErr(t, h.do("POST", "/storage/v1/object/sign/docs/m.pdf", map[string]any{"expiresIn": 60}, bearer(stranger)), "404", "NoSuchBucket")

		// Signed upload URL.
		var su map[string]string
		h.do("POST", "/storage/v1/object/upload/sign/docs/up.pdf", map[string]any{}, bearer(admin)).OK(200).Decode(&su)
		if !strings.HasPrefix(su["url"], "/object/upload/sign/docs/up.pdf?token=") || su["token"] == "" {
			t.Fatalf("signed upload = %v", su)
		}
		if k := h.do("PUT", "/storage/v1"+su["url"], testPDF, key(""), header("Content-Type", "application/pdf")).OK(200).JSON()["Key"]; k != "docs/up.pdf" {
			t.Fatalf("signed upload key %v", k)
		}
		storageErr(t, h.do("PUT", "/storage/v1/object/upload/sign/docs/other.pdf?token="+su["token"], testPDF, key("")), "400", "InvalidSignature")

		// Move and copy, then remove; the bucket can then be deleted.
		h.do("POST", "/storage/v1/object/move", map[string]any{"bucketId": "docs", "sourceKey": "m.pdf", "destinationKey": "moved/m.pdf"}, bearer(admin)).OK(200)
		if c := h.do("POST", "/storage/v1/object/copy", map[string]any{"bucketId": "docs", "sourceKey": "moved/m.pdf", "destinationKey": "copy.pdf"}, bearer(admin)).OK(200).JSON(); c["Key"] != "docs/copy.pdf" {
			t.Fatalf("copy = %v", c)
		}
		storageErr(t, h.do("DELETE", "/storage/v1/bucket/docs", map[string]any{}, bearer(admin)), "409", "ResourceNotEmpty")
		if r := h.do("POST", "/storage/v1/bucket/docs/empty", map[string]any{}, bearer(admin)); r.Status != 403 {
			t.Fatalf("a member emptied a bucket: %d %s", r.Status, r.Body)
		}
		var gone []map[string]any
		h.do("DELETE", "/storage/v1/object/docs", map[string]any{"prefixes": []string{"copy.pdf", "nope"}}, bearer(admin)).OK(200).Decode(&gone)
		if len(gone) != 1 || gone[0]["name"] != "copy.pdf" {
			t.Fatalf("removed %v", gone)
		}
		h.admin("POST", "/storage/v1/bucket/docs/empty", map[string]any{}).OK(200)
		h.do("DELETE", "/storage/v1/bucket/docs", map[string]any{}, bearer(admin)).OK(200)

		// Public buckets serve without a token; private ones do not.
		h.admin("POST", "/storage/v1/bucket", map[string]any{"id": "pub", "public": true, "org_id": "org-a"}).OK(200)
		h.admin("POST", "/storage/v1/bucket", map[string]any{"id": "priv", "org_id": "org-a"}).OK(200)
		upload(h, admin, "POST", "pub/p.pdf", testPDF).OK(200)
		upload(h, admin, "POST", "priv/p.pdf", testPDF).OK(200)
		h.do("GET", "/storage/v1/object/public/pub/p.pdf", nil, key("")).OK(200)
		storageErr(t, h.do("GET", "/storage/v1/object/public/priv/p.pdf", nil, key("")), "404", "NoSuchBucket")

		ents, err := h.db.View().ListAudit(h.ctx, fairbalance.AuditFilter{OrgID: "org-a", Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, e := range ents {
			counts[e.Action]++
		}
		if counts[fairbalance.ActionObjectCreated] != 7 || counts[fairbalance.ActionObjectMoved] != 1 || counts[fairbalance.ActionObjectCopied] != 1 || counts[fairbalance.ActionBucketDeleted] != 1 {
			t.Fatalf("audit actions %v", counts)
		}
	})
}

// An upload streams: a 64 MiB body through the handler in constant
// memory is measured by hand (see the report); here, that a body cut
// short leaves nothing behind.
func TestStorageUploadCutShort(t *testing.T) {
	h := newHarness(t, "sqlite")
	admin := h.orgMember("admin@a.example", "org-a", "admin")
	h.do("POST", "/storage/v1/bucket", map[string]any{"id": "docs"}, bearer(admin)).OK(200)
	pr, pw := io.Pipe()
	go func() {
		pw.Write(testPDF)
		pw.CloseWithError(fmt.Errorf("client went away"))
	}()
	req, _ := http.NewRequest("POST", h.srv.URL+"/storage/v1/object/docs/cut.pdf", pr)
	req.Header.Set("apikey", h.anon)
	req.Header.Set("Authorization", "Bearer "+admin)
	req.Header.Set("Content-Type", "application/pdf")
	if res, err := h.client.Do(req); err == nil {
		res.Body.Close()
	}
	storageErr(t, h.do("GET", "/storage/v1/object/docs/cut.pdf", nil, bearer(admin)), "404", "NoSuchKey")
	var l []json.RawMessage
	h.do("POST", "/storage/v1/object/list/docs", map[string]any{}, bearer(admin)).OK(200).Decode(&l)
	if len(l) != 0 {
		t.Fatalf("list after a cut upload: %s", l)
	}
}

// prepare_upload's declared size is the most its signed upload carries: a
// larger body, raw or multipart, a byte or megabytes over, is refused with
// storage's 413 in the storage shape and leaves neither a blob nor a row;
// the declared size itself, or less, is stored.
func TestStorageSignedUploadDeclaredSize(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h = h.in(t)
		marketer := h.orgMember("marketer@a.example", "org-a", "marketer")
		prepare := func(size int) (path, signedURL string) {
			var out map[string]any
			h.do("POST", "/rest/v1/rpc/prepare_upload", map[string]any{"bucket": "asset-files", "file_name": "deck.pdf", "content_type": "application/pdf", "size": size},
				bearer(marketer)).OK(200).Decode(&out)
			return out["path"].(string), out["signed_url"].(string)
		}
		info := func(path string) *response {
			return h.do("GET", "/storage/v1/object/info/asset-files/"+path, nil, bearer(marketer))
		}
		over := append(append([]byte{}, testPDF...), ' ')
		mb, ct := multipartBody(t, over)
		huge := append(append([]byte{}, testPDF...), make([]byte, 3<<20)...)
		for _, c := range []struct {
			what string
			body []byte
			opts []reqOpt
		}{
			{"one byte over", over, nil},
			{"one byte over, multipart", mb, []reqOpt{header("Content-Type", ct)}},
			{"megabytes over", huge, nil},
		} {
			path, signed := prepare(len(testPDF))
			r := h.do("PUT", signed, c.body, append([]reqOpt{header("Content-Type", "application/pdf")}, c.opts...)...)
			storageErr(t, r, "413", "EntityTooLarge")
			if msg := r.JSON()["message"]; !strings.Contains(fmt.Sprint(msg), "declared") {
				t.Fatalf("%s: message %q", c.what, msg)
			}
			storageErr(t, info(path), "404", "NoSuchKey")
			if k := h.blobs.Keys(t); len(k) != 0 {
				t.Fatalf("%s: blobs left %v", c.what, k)
			}
			if tmp := h.blobs.Temporaries(t); len(tmp) != 0 {
				t.Fatalf("%s: temporaries left %v", c.what, tmp)
			}
		}
		ents, err := h.db.View().ListAudit(h.ctx, fairbalance.AuditFilter{OrgID: "org-a", Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Action == fairbalance.ActionObjectCreated {
				t.Fatalf("a refused upload was audited: %+v", e)
			}
		}

		path, signed := prepare(len(testPDF))
		h.do("PUT", signed, testPDF, header("Content-Type", "application/pdf")).OK(200)
		if got := info(path).OK(200).JSON(); got["size"] != float64(len(testPDF)) {
			t.Fatalf("info %v", got)
		}
		path, signed = prepare(len(testPDF) + 100)
		h.do("PUT", signed, testPDF, header("Content-Type", "application/pdf")).OK(200)
		info(path).OK(200)
		if k := h.blobs.Keys(t); len(k) != 2 {
			t.Fatalf("blobs %v", k)
		}
	})
}
