package service_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"testing"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// A version submitted for review never changes and is never deleted, and
// neither is its file (issue 15: the round and its signatures hold the
// version's hash): every write path of the data API and of storage, for
// the service role and the members, on a version never submitted and on
// a submitted one. A refused write changes nothing: the row, the file's
// bytes and the audit trail stay as they were.
func TestSubmittedVersionOnEveryWrite(t *testing.T) {
	const (
		allowed      = "allowed"
		denied       = "forbidden/42501"
		frozen       = "conflict/PT409"
		fileInUse    = "conflict/InvalidRequest: in use"
		fileFrozen   = "conflict/InvalidRequest: submitted"
		serverPaths  = "invalid/InvalidRequest: server paths"
		accessDenied = "forbidden/AccessDenied"
	)
	svc := fairbalance.Caller{Role: "service_role"}
	type fixture struct {
		asset, version, path string
		// spare is a file of the product bucket that nothing uses.
		spare string
	}
	type op struct {
		name     string
		authored bool // the version is authored (with a module), not a file
		// mixed: the asset's first version was submitted, then withdrawn,
		// and the version written to is its second, never submitted (run
		// as the submitted case only).
		mixed bool
		verb  string
		act   func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error
		// want is the outcome per caller ("service" or a role) for a version
		// never submitted (draft) and for a submitted one.
		want func(who string, submitted bool) string
	}
	members := func(who string, submitted bool, service, author, other string) string {
		switch who {
		case "service":
			return service
		case fairbalance.RoleOwner, fairbalance.RoleAdmin, fairbalance.RoleMarketer:
			return author
		}
		return other
	}
	dataOp := func(who string, submitted bool) string {
		switch {
		case who != "service":
			return denied
		case submitted:
			return frozen
		}
		return allowed
	}
	ops := []op{
		{name: "DELETE the version", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := deleteRows(t, e.matrixEnv, c, "asset_versions", "id=eq."+f.version)
			return err
		}, want: dataOp},
		{name: "DELETE the asset's versions", mixed: true, act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			// The second version alone would go; the first holds them both.
			_, err := deleteRows(t, e.matrixEnv, c, "asset_versions", "asset_id=eq."+f.asset)
			return err
		}, want: dataOp},
		{name: "PATCH the asset's versions", mixed: true, act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := patchRows(t, e.matrixEnv, c, "asset_versions", "asset_id=eq."+f.asset, map[string]any{"change_note": "Rewritten"})
			return err
		}, want: dataOp},
		{name: "PATCH the version", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := patchRows(t, e.matrixEnv, c, "asset_versions", "id=eq."+f.version, map[string]any{"change_note": "Rewritten by " + c.Role + c.Member})
			return err
		}, want: dataOp},
		{name: "PATCH the version's file", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := patchRows(t, e.matrixEnv, c, "asset_versions", "id=eq."+f.version, map[string]any{"file_path": f.asset[:8] + "/elsewhere.pdf", "sha256": "00"})
			return err
		}, want: dataOp},
		{name: "upsert (merge) of the version", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			row := readRows(t, e.matrixEnv, svc, "asset_versions", "select=*&id=eq."+f.version)[0]
			row["change_note"] = "Merged by " + c.Role + c.Member
			// The bench's organisation and member ids are not UUIDs; the row
			// exists, so what a new one would get does not matter.
			delete(row, "org_id")
			delete(row, "created_by")
			return upsertRow(t, e.data.Engine, e.matrixEnv, c, "asset_versions", "merge-duplicates", row)
		}, want: dataOp},
		{name: "DELETE the asset", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := deleteRows(t, e.matrixEnv, c, "assets", "id=eq."+f.asset)
			return err
		}, want: dataOp},
		{name: "DELETE the version's modules", authored: true, act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := deleteRows(t, e.matrixEnv, c, "version_modules", "version_id=eq."+f.version)
			return err
		}, want: dataOp},
		{name: "remove the file", verb: "removed", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			// With a file nobody uses: all or nothing.
			_, err := e.storage.Remove(e.ctx, c, "asset-files", []string{f.spare, f.path})
			if err != nil {
				if _, ierr := e.storage.Info(e.ctx, svc, "asset-files", f.spare); ierr != nil {
					t.Errorf("a refused removal removed the other file: %v", ierr)
				}
			}
			return err
		}, want: func(who string, submitted bool) string {
			if submitted {
				return members(who, submitted, fileFrozen, fileFrozen, accessDenied)
			}
			return members(who, submitted, fileInUse, fileInUse, accessDenied)
		}},
		{name: "replace the file", verb: "replaced", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := e.storage.Upload(e.ctx, c, service.UploadInput{Bucket: "asset-files", Name: f.path, Upsert: true, Body: bytes.NewReader(testPDF(t, "Other bytes"))})
			return err
		}, want: func(who string, submitted bool) string {
			if submitted {
				return members(who, submitted, fileFrozen, serverPaths, serverPaths)
			}
			return members(who, submitted, fileInUse, serverPaths, serverPaths)
		}},
		{name: "move the file", verb: "moved", act: func(t *testing.T, e *reviewEnv, c fairbalance.Caller, f fixture) error {
			_, err := e.storage.Move(e.ctx, c, "asset-files", f.path, "asset-files", f.path+".moved")
			return err
		}, want: func(who string, submitted bool) string {
			if submitted {
				return members(who, submitted, fileFrozen, serverPaths, serverPaths)
			}
			return members(who, submitted, fileInUse, serverPaths, serverPaths)
		}},
	}
	outcome := func(err error) string {
		if err == nil {
			return allowed
		}
		e := fairbalance.AsError(err)
		if e == nil {
			return "internal: " + err.Error()
		}
		k := string(e.Kind) + "/" + e.Code
		switch {
		case e.Code == service.CodeInvalidRequest && e.Message == service.MsgServerPaths:
			return k + ": server paths"
		case e.Code == service.CodeInvalidRequest && len(e.Message) > 40 && e.Message[:40] == "This file belongs to a version submitted":
			return k + ": submitted"
		case e.Code == service.CodeInvalidRequest && len(e.Message) > 40 && e.Message[:40] == "This file belongs to an asset version or":
			return k + ": in use"
		}
		return k
	}
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer := e.own[fairbalance.RoleMarketer]
			n := 0
			// arrange creates an asset with one version, as the marketer, and
			// submits it if submitted; when mixed it then withdraws the round
			// and adds a second version, never submitted, which is the one
			// written to.
			arrange := func(t *testing.T, authored, submitted, mixed bool) fixture {
				t.Helper()
				n++
				args := map[string]any{"title": fmt.Sprintf("Frozen %d", n), "type": "other", "audience": "hcp", "channel": "Email", "market": "US", "product_id": e.product["id"]}
				var pdf []byte
				content := func(number int) {
					if authored {
						args["content_html"] = readyHTML + fmt.Sprintf(`<p><span data-module-id="%s" data-module-kind="isi" data-module-title="Zelvora ISI">ISI</span></p>`, e.isi["id"])
						return
					}
					pdf = testPDF(t, fmt.Sprintf("Frozen %d, version %d", n, number))
					args["file_path"], args["file_name"] = upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "deck.pdf", pdf), "deck.pdf"
				}
				content(1)
				a := e.must(t, marketer, "create_asset", args)
				id := a["id"].(string)
				if submitted {
					r, _ := e.submit(t, id)
					if mixed {
						e.must(t, marketer, "withdraw_review", map[string]any{"review_id": r["id"]})
						args = map[string]any{"asset_id": id, "change_note": "Second"}
						content(2)
						e.must(t, marketer, "add_asset_version", args)
					}
				}
				v := readRows(t, e.matrixEnv, svc, "asset_versions", "select=*&order=number.desc&limit=1&asset_id=eq."+id)[0]
				if (v["submitted_at"] != nil) != (submitted && !mixed) {
					t.Fatalf("version %v: submitted_at %v", v["number"], v["submitted_at"])
				}
				f := fixture{asset: id, version: v["id"].(string),
					spare: upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "spare.pdf", testPDF(t, fmt.Sprintf("Spare %d", n)))}
				if !authored {
					sum := sha256.Sum256(pdf)
					f.path = v["file_path"].(string)
					if v["sha256"] != hex.EncodeToString(sum[:]) {
						t.Fatalf("version sha256 %v, want %x", v["sha256"], sum)
					}
				} else if len(readRows(t, e.matrixEnv, svc, "version_modules", "select=*&version_id=eq."+f.version)) != 1 {
					t.Fatal("the authored version holds no module")
				}
				return f
			}
			// state is everything a refused write must leave as it was.
			state := func(t *testing.T, f fixture) string {
				t.Helper()
				s := fmt.Sprint(readRows(t, e.matrixEnv, svc, "asset_versions", "select=*&order=number&asset_id=eq."+f.asset),
					readRows(t, e.matrixEnv, svc, "version_modules", "select=*&order=module_id&asset_id=eq."+f.asset),
					readRows(t, e.matrixEnv, svc, "reviews", "select=id,status&asset_id=eq."+f.asset),
					readRows(t, e.matrixEnv, svc, "assets", "select=id,status&id=eq."+f.asset), e.auditLength(t))
				if f.path != "" {
					_, blob, err := e.storage.Open(e.ctx, svc, "asset-files", f.path)
					if err != nil {
						return s + " file: " + err.Error()
					}
					b, _ := io.ReadAll(blob)
					blob.Close()
					sum := sha256.Sum256(b)
					s += " file " + hex.EncodeToString(sum[:])
				}
				return s
			}
			callers := []string{"service", fairbalance.RoleOwner, fairbalance.RoleMarketer, fairbalance.RoleReviewerMedical, fairbalance.RoleViewer}
			for _, o := range ops {
				for _, submitted := range []bool{false, true} {
					if o.mixed && !submitted {
						continue
					}
					for _, who := range callers {
						c := svc
						if who != "service" {
							c = e.own[who]
						}
						f := arrange(t, o.authored, submitted, o.mixed)
						before := state(t, f)
						err := o.act(t, e, c, f)
						got, want := outcome(err), o.want(who, submitted)
						what := fmt.Sprintf("%s %s of a version", who, o.name)
						switch {
						case o.mixed:
							what += " never submitted, after one that was"
						case submitted:
							what += " submitted for review"
						default:
							what += " never submitted"
						}
						if got != want {
							t.Errorf("%s: %s, want %s (%v)", what, got, want, err)
							continue
						}
						if got != allowed {
							if after := state(t, f); after != before {
								t.Errorf("%s: refused, yet it changed:\n%s\n%s", what, before, after)
							}
						}
						// Whoever hears it is told why.
						switch pe := fairbalance.AsError(err); got {
						case frozen:
							msg := fmt.Sprintf(service.MsgSubmittedVersion, 1)
							if o.name == "DELETE the asset" {
								msg = service.MsgSubmittedAsset
							}
							if pe.Message != msg {
								t.Errorf("%s: %q, want %q", what, pe.Message, msg)
							}
						case fileFrozen:
							if msg := fmt.Sprintf(service.MsgSubmittedFile, o.verb); pe.Message != msg {
								t.Errorf("%s: %q, want %q", what, pe.Message, msg)
							}
						}
					}
				}
			}
		})
	}
}
