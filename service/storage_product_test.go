package service_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore/blobtest"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// contentWriters are the roles that write content, and so the files of
// the product buckets (product.md section 2).
var contentWriters = map[string]bool{fairbalance.RoleOwner: true, fairbalance.RoleAdmin: true, fairbalance.RoleMarketer: true}

// The product buckets' write matrix: every member role of the
// organisation, a demo session, another organisation and the service role
// × preparing, uploading (with a token in their name, as one issued before
// a role change would be), removing, moving and copying a file. Writers
// of content write; reviewers and viewers only read.
func TestProductBucketWriteMatrix(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m, s, h := newContentBlobsEnv(t, backend, "disk")
			ctx := m.ctx
			own := m.members["own"]
			marketer, viewer := own[fairbalance.RoleMarketer], own[fairbalance.RoleViewer]
			violations := 0
			check := func(what string, ok bool) {
				t.Helper()
				if !ok {
					violations++
					t.Errorf("violation: %s", what)
				}
			}
			accessDenied := func(err error) bool {
				e := fairbalance.AsError(err)
				return e != nil && e.Code == service.CodeAccessDenied
			}
			present := func(bucket, path string) bool {
				_, err := s.Info(ctx, viewer, bucket, path)
				return err == nil
			}
			demo := marketer
			demo.Demo = true
			callers := map[string]fairbalance.Caller{"demo marketer": demo, "other organisation's admin": m.members["other"][fairbalance.RoleAdmin]}
			for _, role := range fairbalance.Roles {
				callers[role] = own[role]
			}
			for _, bucket := range []string{"asset-files", "reference-files"} {
				for who, c := range callers {
					// Writers of content write the files of their own
					// organisation (another organisation's admin writes its
					// own, and never sees these).
					writer := contentWriters[c.Member] && !c.Demo
					what := func(action string) string { return fmt.Sprintf("%s: %s %s", bucket, who, action) }

					_, err := callErr(m, c, "prepare_upload", map[string]any{"bucket": bucket, "file_name": "f.pdf", "content_type": "application/pdf", "size": float64(len(pdfBytes))})
					check(what("prepares an upload: ")+fmt.Sprint(err), (err == nil) == writer)

					blobs := len(h.Keys(t))
					path := c.OrgID + "/" + auth.NewUUID() + ".pdf"
					tok, err := s.SignServerUpload(bucket, path, c.UserID, c.SessionID, int64(len(pdfBytes)))
					if err != nil {
						t.Fatal(err)
					}
					// (A token names a member; the upload is theirs as their
					// profile is now, so a demo session's is the member's.)
					_, err = s.UploadSigned(ctx, tok, service.UploadInput{Bucket: bucket, Name: path, Body: bytes.NewReader(pdfBytes)})
					_, missing := s.Info(ctx, fairbalance.Caller{Role: "service_role"}, bucket, path)
					if contentWriters[c.Member] {
						check(what("uploads: ")+fmt.Sprint(err), err == nil && missing == nil && len(h.Keys(t)) == blobs+1)
					} else {
						check(what("uploads: ")+fmt.Sprint(err), accessDenied(err) && missing != nil && len(h.Keys(t)) == blobs)
					}

					spare := upload(t, m, s, marketer, bucket, "spare.pdf", pdfBytes)
					blobs = len(h.Keys(t))
					gone, err := s.Remove(ctx, c, bucket, []string{spare})
					switch {
					case writer && c.OrgID == m.orgs["own"]:
						check(what("removes a file: ")+fmt.Sprint(err), err == nil && len(gone) == 1 && !present(bucket, spare) && len(h.Keys(t)) == blobs-1)
					case c.OrgID != m.orgs["own"]:
						// Another organisation's files are invisible to it.
						check(what("removes a file: ")+fmt.Sprint(err), len(gone) == 0 && present(bucket, spare))
					default:
						check(what("removes a file: ")+fmt.Sprint(err), accessDenied(err) && len(gone) == 0 && present(bucket, spare) && len(h.Keys(t)) == blobs)
						_, err = s.Remove(ctx, c, bucket, []string{own[fairbalance.RoleOwner].OrgID + "/missing.pdf"})
						check(what("removes a missing file: ")+fmt.Sprint(err), accessDenied(err))
					}
					if present(bucket, spare) {
						for action, fn := range map[string]func() (*fairbalance.StoredObject, error){
							"moves": func() (*fairbalance.StoredObject, error) {
								return s.Move(ctx, c, bucket, spare, bucket, m.orgs["own"]+"/moved.pdf")
							},
							"copies": func() (*fairbalance.StoredObject, error) {
								return s.Copy(ctx, c, bucket, spare, bucket, m.orgs["own"]+"/copied.pdf")
							},
						} {
							_, err := fn()
							check(what(action+" a file: ")+fmt.Sprint(err), err != nil && present(bucket, spare))
						}
					}
				}
			}
			// The service role (demo resets) removes any organisation's file.
			spare := upload(t, m, s, marketer, "asset-files", "spare.pdf", pdfBytes)
			if gone, err := s.Remove(ctx, fairbalance.Caller{Role: "service_role"}, "asset-files", []string{spare}); err != nil || len(gone) != 1 {
				t.Fatalf("service role removal: %v %v", gone, err)
			}
			// A marketer made reviewer after preparing an upload can no longer
			// complete it.
			prep, err := callErr(m, marketer, "prepare_upload", map[string]any{"bucket": "asset-files", "file_name": "f.pdf", "content_type": "application/pdf", "size": float64(len(pdfBytes))})
			if err != nil {
				t.Fatal(err)
			}
			err = m.db.Tx(ctx, func(tx fairbalance.Tx) error {
				p, err := tx.ProfileByID(ctx, marketer.UserID)
				if err != nil {
					return err
				}
				p.Role = fairbalance.RoleReviewerLegal
				return tx.UpdateProfile(ctx, p)
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.UploadSigned(ctx, prep["token"].(string), service.UploadInput{Bucket: "asset-files", Name: prep["path"].(string), Body: bytes.NewReader(pdfBytes)})
			check("a demoted marketer completes a prepared upload: "+fmt.Sprint(err), accessDenied(err) && !present("asset-files", prep["path"].(string)))
			if violations > 0 {
				t.Fatalf("%d violations", violations)
			}
		})
	}
}

// prepare_upload's declared size is the most its signed upload stores: a
// body a byte over, or parts over (S3's multipart), is refused as too
// large and leaves no blob, temporary, row or audit entry; the declared
// size, or less, is stored.
func TestPrepareUploadDeclaredSize(t *testing.T) {
	for _, backend := range storetest.Backends() {
		for _, blobs := range blobtest.Backends() {
			t.Run(backend+"/"+blobs, func(t *testing.T) {
				m, s, h := newContentBlobsEnv(t, backend, blobs)
				ctx := m.ctx
				marketer := m.members["own"][fairbalance.RoleMarketer]
				audit := func() int64 {
					n, err := m.db.View().AuditLength(ctx, m.orgs["own"])
					if err != nil {
						t.Fatal(err)
					}
					return n
				}
				put := func(declared int, body []byte) (string, error) {
					t.Helper()
					prep, err := callErr(m, marketer, "prepare_upload", map[string]any{"bucket": "reference-files", "file_name": "study.pdf", "content_type": "application/pdf", "size": float64(declared)})
					if err != nil {
						t.Fatal(err)
					}
					path := prep["path"].(string)
					_, err = s.UploadSigned(ctx, prep["token"].(string), service.UploadInput{Bucket: "reference-files", Name: path, Body: bytes.NewReader(body)})
					return path, err
				}
				start := audit()
				huge := append(append([]byte{}, pdfBytes...), make([]byte, 6<<20)...)
				for what, c := range map[string]struct {
					declared int
					body     []byte
				}{
					"a byte over":   {len(pdfBytes), append(append([]byte{}, pdfBytes...), ' ')},
					"parts over":    {1 << 20, huge},
					"a part over":   {5 << 20, huge},
					"past the head": {len(pdfBytes), append(append([]byte{}, pdfBytes...), make([]byte, 600)...)},
				} {
					path, err := put(c.declared, c.body)
					if e := fairbalance.AsError(err); e == nil || e.Kind != fairbalance.KindTooLarge || e.Code != service.CodeEntityTooLarge || !strings.Contains(e.Message, "declared") {
						t.Fatalf("%s: %v", what, err)
					}
					if _, err := s.Info(ctx, marketer, "reference-files", path); err == nil {
						t.Fatalf("%s: the object exists", what)
					}
					if k := h.Keys(t); len(k) != 0 {
						t.Fatalf("%s: blobs left %v", what, k)
					}
					if tmp := h.Temporaries(t); len(tmp) != 0 {
						t.Fatalf("%s: temporaries left %v", what, tmp)
					}
				}
				if n := audit(); n != start {
					t.Fatalf("%d audit entries for refused uploads", n-start)
				}
				for _, declared := range []int{len(pdfBytes), len(pdfBytes) + 1000} {
					path, err := put(declared, pdfBytes)
					if err != nil {
						t.Fatalf("declared %d: %v", declared, err)
					}
					if o, err := s.Info(ctx, marketer, "reference-files", path); err != nil || o.Size != int64(len(pdfBytes)) {
						t.Fatalf("declared %d: %+v %v", declared, o, err)
					}
				}
				// Tokens of prepare_upload always carry a size.
				if _, err := s.SignServerUpload("reference-files", marketer.OrgID+"/"+auth.NewUUID()+".pdf", marketer.UserID, "", 0); err == nil {
					t.Fatal("a server upload token without a size")
				}
			})
		}
	}
}
