package service_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auditseal"
	"fairbalance/pdftext"
	"fairbalance/recordpdf"
	"fairbalance/samplepdf"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The exports of issue 16: the review record of a round and the Form 2253
// data of an approved asset, built from the database and checked against
// it, printed and read back, and refused to whom the design refuses them.

// isiLine is the product's ISI as a PDF version prints it (the gate wants it).
const isiLine = "IMPORTANT SAFETY INFORMATION: Zelvora can cause liver problems."

// detailAid is a PDF of pages pages, the last carrying the ISI; word marks
// the version on every page, and extra paragraphs follow on page 1.
func detailAid(t testing.TB, word string, pages int, extra ...string) []byte {
	t.Helper()
	ps := make([]samplepdf.Page, pages)
	for i := range ps {
		ps[i] = samplepdf.Page{Heading: fmt.Sprintf("Zelvora %s page %d", word, i+1),
			Paragraphs: []string{fmt.Sprintf("Page %d of the %s edition: Zelvora lowers LDL-C by half in adults.", i+1, word)}}
	}
	ps[0].Paragraphs = append(ps[0].Paragraphs, extra...)
	ps[pages-1].Paragraphs = append(ps[pages-1].Paragraphs, isiLine)
	b, err := samplepdf.Generate("Zelvora detail aid "+word, ps)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordBench is a review bench whose audit trail is sealed, as serve
// seals it, with the signing key.
type recordBench struct {
	*reviewEnv
	sealer *auditseal.Sealer
}

func newRecordEnv(t *testing.T, backend string) *recordBench {
	t.Helper()
	e := newReviewEnv(t, backend)
	e.data.Records.Now = func() time.Time { return e.clock }
	sealer, err := auditseal.New(e.ctx, auditseal.Config{Chains: e.db.AuditView(), Key: e.keys.AuditKey, Now: func() time.Time { return e.clock },
		Logs: []auditseal.Log{auditseal.NewFileLog(filepath.Join(t.TempDir(), auditseal.FileName))}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	e.data.Config.Sealer = sealer
	return &recordBench{reviewEnv: e, sealer: sealer}
}

// pdfAsset creates a detail aid of the product from an uploaded PDF.
func (e *recordBench) pdfAsset(t *testing.T, title string, pdf []byte) map[string]any {
	t.Helper()
	path := upload(t, e.matrixEnv, e.storage, e.own[fairbalance.RoleMarketer], "asset-files", "detail-aid-v1.pdf", pdf)
	return e.must(t, e.own[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": title, "type": "detail_aid", "audience": "hcp",
		"channel": "Field force", "market": "US", "product_id": e.product["id"], "file_path": path, "file_name": "detail-aid-v1.pdf"})
}

// twoRounds takes an asset through round 1 (three annotations — a claim
// on page 2 with a reply, a region on page 1, a sentence that version 2
// drops — and medical requests a change pointing at the claim, the others
// approve) and round 2 on a new 4-page version (the change confirmed,
// every step approving); it returns both rounds' ids.
func (e *recordBench) twoRounds(t *testing.T, assetID string) (r1, r2 string) {
	t.Helper()
	marketer := e.own[fairbalance.RoleMarketer]
	med, legal, reg := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal], e.own[fairbalance.RoleReviewerRegulatory]
	round, steps := e.submit(t, assetID)
	r1 = round["id"].(string)
	v1 := round["version_id"].(string)
	e.clock = e.clock.Add(30 * time.Minute)
	claim := e.must(t, med, "create_annotation", map[string]any{"version_id": v1, "category": "claim_needs_reference",
		"body": "Which study shows half? Cite it here.", "target": map[string]any{"type": "text", "exact": "Page 2 of the first edition: Zelvora lowers LDL-C by half"}})
	e.must(t, marketer, "reply_annotation", map[string]any{"annotation_id": claim["id"], "body": "The LDL-C study; version 2 cites it."})
	e.must(t, legal, "create_annotation", map[string]any{"version_id": v1, "category": "legal", "body": "The logo needs the trademark symbol.",
		"target": map[string]any{"type": "region", "page": 1, "x": 0.1, "y": 0.05, "width": 0.5, "height": 0.08}})
	e.must(t, reg, "create_annotation", map[string]any{"version_id": v1, "category": "regulatory", "body": "Unsupported: remove or substantiate.",
		"target": map[string]any{"type": "text", "exact": "Trusted by thousands of cardiologists."}})
	e.clock = e.clock.Add(30 * time.Minute)
	e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "changes_requested", "change_requests",
		[]any{map[string]any{"text": "Cite the LDL-C study on page 2.", "annotation_id": claim["id"]}})
	e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved")
	e.mustDecide(t, reg, steps["reviewer_regulatory"]["id"].(string), "approved")

	e.clock = e.clock.Add(2 * time.Hour)
	path := upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "detail-aid-v2.pdf", detailAid(t, "second", 4))
	e.must(t, marketer, "add_asset_version", map[string]any{"asset_id": assetID, "file_path": path, "file_name": "detail-aid-v2.pdf", "change_note": "Study cited"})
	crs := readRows(t, e.matrixEnv, marketer, "change_requests", "select=id&asset_id=eq."+assetID)
	for _, cr := range crs {
		e.must(t, marketer, "mark_change_done", map[string]any{"change_request_id": cr["id"], "note": "Cited on page 2"})
	}
	e.clock = e.clock.Add(time.Hour)
	round, steps = e.submit(t, assetID)
	r2 = round["id"].(string)
	e.clock = e.clock.Add(time.Hour)
	for _, cr := range crs {
		e.must(t, med, "confirm_change", map[string]any{"change_request_id": cr["id"]})
	}
	e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")
	e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved_with_changes")
	e.mustDecide(t, reg, steps["reviewer_regulatory"]["id"].(string), "approved")
	return r1, r2
}

// recordJSON is the record as the JSON export serialises it, read back.
func recordJSON(t *testing.T, rec *fairbalance.ReviewRecord) (map[string]any, *fairbalance.ReviewRecord) {
	t.Helper()
	raw, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	var back fairbalance.ReviewRecord
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return m, &back
}

// keysOf are the public keys a record publishes, as a verifier reads them.
func keysOf(t *testing.T, rec *fairbalance.ReviewRecord) map[string]ed25519.PublicKey {
	t.Helper()
	keys := map[string]ed25519.PublicKey{}
	for _, k := range rec.Keys {
		pub, err := base64.StdEncoding.DecodeString(k.PublicKey)
		if err != nil || k.Algorithm != "Ed25519" || len(pub) != ed25519.PublicKeySize || fairbalance.AuditKeyID(pub) != k.KeyID {
			t.Fatalf("key %+v: %v", k, err)
		}
		keys[k.KeyID] = pub
	}
	return keys
}

func sameTime(a, b any) bool {
	ta, err1 := time.Parse(time.RFC3339Nano, fmt.Sprint(a))
	tb, err2 := time.Parse(time.RFC3339Nano, fmt.Sprint(b))
	return err1 == nil && err2 == nil && ta.Equal(tb)
}

func TestReviewRecordExport(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newRecordEnv(t, backend)
			marketer, viewer, legal := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleViewer], e.own[fairbalance.RoleReviewerLegal]
			admin := e.own[fairbalance.RoleAdmin]
			if _, err := patchRows(t, e.matrixEnv, admin, "products", "id=eq."+e.product["id"].(string), map[string]any{"established_name": "rosulitide"}); err != nil {
				t.Fatal(err)
			}
			a := e.pdfAsset(t, "Zelvora launch detail aid", detailAid(t, "first", 3, "Trusted by thousands of cardiologists."))
			assetID := a["id"].(string)
			r1, r2 := e.twoRounds(t, assetID)
			if err := e.sealer.Seal(context.Background()); err != nil {
				t.Fatal(err)
			}
			e.clock = e.clock.Add(time.Minute)

			before := e.auditCount(t, fairbalance.ActionReviewRecordExported)
			exp, err := e.data.Records.ReviewRecord(e.ctx, marketer, r2, service.FormatPDF)
			if err != nil {
				t.Fatal(err)
			}
			defer exp.File.Close()
			rec := exp.Record

			// Against the database: asset, round, version.
			asset := e.row(t, "assets", assetID)
			round := e.row(t, "reviews", r2)
			version := e.row(t, "asset_versions", round["version_id"].(string))
			if rec.Format != fairbalance.ReviewRecordFormat || rec.Organisation.ID != e.orgs["own"] || rec.Organisation.Name != "own" ||
				rec.GeneratedBy.ID != marketer.UserID || rec.GeneratedBy.Name != "marketer" || !rec.GeneratedAt.Equal(e.clock) {
				t.Fatalf("header: %+v", rec)
			}
			ra := rec.Asset
			if ra.ID != assetID || ra.Title != asset["title"] || ra.JobCode != asset["job_code"] || ra.Type != "detail_aid" || ra.Status != "approved" ||
				ra.Audience != "hcp" || ra.Channel != "Field force" || ra.Market != "US" || ra.Owner == nil || ra.Owner.ID != asset["owner_id"] ||
				ra.Product == nil || ra.Product.BrandName != "Zelvora" || ra.Product.EstablishedName != "rosulitide" ||
				ra.ExpiresAt == nil || *ra.ExpiresAt != asset["expires_at"] || ra.ApprovedVersionID == nil || *ra.ApprovedVersionID != version["id"] {
				t.Fatalf("asset: %+v (db %v)", ra, asset)
			}
			rr := rec.Round
			if rr.ID != r2 || rr.Number != 2 || rr.Status != "approved" || rr.SubmittedBy.ID != marketer.UserID || rr.TemplateName != round["template_name"] ||
				!sameTime(rr.SubmittedAt.Format(time.RFC3339Nano), round["submitted_at"]) || rr.ClosedAt == nil || !sameTime(rr.ClosedAt.Format(time.RFC3339Nano), round["closed_at"]) {
				t.Fatalf("round: %+v (db %v)", rr, round)
			}
			rv := rec.Version
			if rv.ID != version["id"] || rv.Number != 2 || rv.Kind != "file" || rv.SHA256 != version["sha256"] || rv.PageCount != 4 ||
				rv.FileName == nil || *rv.FileName != "detail-aid-v2.pdf" || rv.Text != nil || rv.ContentHTML != nil {
				t.Fatalf("version: %+v", rv)
			}

			// Steps and signatures: each as recorded, and the JSON's verify.
			sigRows := readRows(t, e.matrixEnv, viewer, "signatures", "select=*&review_id=eq."+r2)
			if len(rec.Steps) != 3 || len(sigRows) != 3 {
				t.Fatalf("%d steps, %d signatures", len(rec.Steps), len(sigRows))
			}
			for _, s := range rec.Steps {
				if s.Signature == nil || s.Check == nil || !s.Check.Valid || !s.Check.SealIntact || !s.Check.BoundToStep || !s.Check.RenditionMatches ||
					s.DecidedBy == nil || s.DecidedBy.ID != s.Signature.SignerID || s.Signature.RenditionSHA256 != rv.SHA256 {
					t.Fatalf("step %s: %+v %+v", s.Role, s, s.Check)
				}
				i := slices.IndexFunc(sigRows, func(r map[string]any) bool { return r["id"] == s.Signature.ID })
				if i < 0 {
					t.Fatalf("signature %s not in the database", s.Signature.ID)
				}
				db := sigRows[i]
				if db["seal"] != s.Signature.Seal || db["sig"] != s.Signature.Sig || db["key_id"] != s.Signature.KeyID || db["signer_name"] != s.Signature.SignerName ||
					db["meaning"] != string(s.Signature.Meaning) || db["step_id"] != s.ID || !sameTime(db["signed_at"], s.Signature.SignedAt.Format(time.RFC3339Nano)) {
					t.Fatalf("signature %s: %+v, db %v", s.Role, s.Signature, db)
				}
			}
			m, back := recordJSON(t, rec)
			keys := keysOf(t, back)
			for _, k := range []string{"format", "generated_at", "organisation", "asset", "round", "version", "annotations", "steps", "change_requests", "audit", "keys"} {
				if _, ok := m[k]; !ok {
					t.Fatalf("the JSON has no %q: %v", k, m)
				}
			}
			for _, s := range back.Steps {
				if err := s.Signature.VerifySeal(keys); err != nil {
					t.Fatalf("the JSON's %s signature does not verify: %v", s.Role, err)
				}
				forged := *s.Signature
				forged.SignerName = "Someone Else"
				if err := forged.VerifySeal(keys); err == nil {
					t.Fatal("a signature with another printed name verified")
				}
			}

			// The annotations, as version_annotations lists them.
			listed := e.annotations(t, viewer, rv.ID)
			if len(rec.Annotations) != 3 || len(listed) != 3 {
				t.Fatalf("%d annotations, %d listed", len(rec.Annotations), len(listed))
			}
			status := map[string]string{}
			for i, an := range rec.Annotations {
				l := listed[i]
				if an.ID != l["id"] || an.ThreadID != l["thread_id"] || string(an.AnchorStatus) != l["anchor_status"] || an.Body != l["body"] ||
					an.CarriedFrom == nil || *an.CarriedFrom != l["carried_from"] || an.Author.ID != l["created_by"] || len(an.Replies) != len(l["replies"].([]any)) {
					t.Fatalf("annotation %d: %+v, listed %v", i, an, l)
				}
				status[string(an.Category)] = string(an.AnchorStatus)
			}
			if status["claim_needs_reference"] != "moved" || status["legal"] != "anchored" || status["regulatory"] != "orphaned" {
				t.Fatalf("anchor statuses: %v", status)
			}
			claim := rec.Annotations[slices.IndexFunc(rec.Annotations, func(a fairbalance.RecordAnnotation) bool { return a.Category == "claim_needs_reference" })]
			if claim.Page != 2 || claim.Replies[0].Author.ID != marketer.UserID || claim.Replies[0].Body != "The LDL-C study; version 2 cites it." {
				t.Fatalf("the claim: %+v", claim)
			}

			// The checklist: the change raised in round 1, confirmed in round 2.
			if len(rec.ChangeRequests) != 1 {
				t.Fatalf("change requests: %+v", rec.ChangeRequests)
			}
			cr := rec.ChangeRequests[0]
			if cr.Place != fairbalance.ChangeInChecklist || cr.Status != "confirmed" || cr.RaisedInRound != 1 || cr.ConfirmedInRound != 2 ||
				cr.Text != "Cite the LDL-C study on page 2." || cr.DoneNote != "Cited on page 2" || cr.DoneBy == nil || cr.DoneBy.ID != marketer.UserID ||
				cr.ConfirmedBy == nil || cr.ConfirmedBy.ID != e.own[fairbalance.RoleReviewerMedical].UserID || cr.Role != "reviewer_medical" ||
				cr.ThreadID == nil || *cr.ThreadID != claim.ThreadID {
				t.Fatalf("checklist: %+v", cr)
			}

			// The audit entries: the round's, as stored, their hashes intact.
			var actions []string
			stored := map[int64]fairbalance.AuditEntry{}
			all, err := e.db.View().ListAudit(e.ctx, fairbalance.AuditFilter{OrgID: e.orgs["own"], Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range all {
				stored[x.ID] = x
			}
			for i, x := range back.Audit.Entries {
				db, ok := stored[x.Seq]
				if !ok || db.Hash != x.Hash || !hashOK(x) || !x.HashValid || (i > 0 && back.Audit.Entries[i-1].Seq >= x.Seq) {
					t.Fatalf("entry %d: %+v", x.Seq, x)
				}
				if x.Action == fairbalance.ActionStepChangesRequested || x.ObjectType == "review_steps" && !slices.ContainsFunc(rec.Steps, func(s fairbalance.RecordStep) bool { return s.ID == x.ObjectID }) ||
					x.ObjectType == "reviews" && x.ObjectID != r2 || x.ObjectType == "assets" && !strings.Contains(string(x.Meta), r2) {
					t.Fatalf("an entry of another round in round 2's record: %+v", x)
				}
				actions = append(actions, x.Action)
			}
			want := map[string]int{fairbalance.ActionAssetSubmitted: 1, fairbalance.ActionStepActivated: 3, fairbalance.ActionStepApproved: 2,
				fairbalance.ActionStepApprovedWithChanges: 1, fairbalance.ActionReviewClosed: 1, fairbalance.ActionAssetApproved: 1,
				fairbalance.ActionChangeRequestRaised: 1, fairbalance.ActionChangeRequestDone: 1, fairbalance.ActionChangeRequestConfirmed: 1,
				fairbalance.ActionAssetVersionCreated: 1, fairbalance.ActionAnnotationsCarried: 1, fairbalance.ActionAnnotationCreated: 3,
				fairbalance.ActionAnnotationReplied: 1}
			for action, n := range want {
				if got := countOf(actions, action); got != n {
					t.Fatalf("%d %s entries, want %d: %v", got, action, n, actions)
				}
			}
			cp := back.Audit.Checkpoint
			if cp == nil || !cp.SignatureValid || !cp.ChainMatches || !cp.CoversEntries || cp.Verify(keys) != nil || cp.Seq < back.Audit.Entries[len(back.Audit.Entries)-1].Seq {
				t.Fatalf("checkpoint: %+v", cp)
			}
			if x := back.Audit.Export; x == nil || x.Action != fairbalance.ActionReviewRecordExported || x.ObjectID != r2 || !hashOK(*x) {
				t.Fatalf("export entry: %+v", x)
			}
			if e.auditCount(t, fairbalance.ActionReviewRecordExported) != before+1 {
				t.Fatal("the export was not recorded")
			}
			last := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionReviewRecordExported)
			if last.ActorID != marketer.UserID || !strings.Contains(string(last.Meta), `"format":"pdf"`) || last.ObjectType != "reviews" {
				t.Fatalf("export entry: %+v", last)
			}

			// The PDF: version 2's four pages, then the record's, which
			// print every manifestation.
			if exp.File == nil || exp.FileProblem != "" {
				t.Fatalf("no file: %q", exp.FileProblem)
			}
			doc, err := recordpdf.ReviewRecord(rec, exp.File, exp.FileProblem)
			if err != nil {
				t.Fatal(err)
			}
			text, err := pdftext.Extract(bytes.NewReader(doc), int64(len(doc)))
			if err != nil {
				t.Fatal(err)
			}
			pageTexts := version["page_texts"].([]any)
			if len(text.Pages) <= 4 {
				t.Fatalf("%d pages", len(text.Pages))
			}
			for i, p := range text.Pages {
				if i < 4 {
					if p != pageTexts[i] {
						t.Fatalf("page %d is not the version's: %q", i+1, p)
					}
					continue
				}
				if !strings.Contains(p, "REVIEW RECORD") || !strings.Contains(p, fmt.Sprintf("Page %d of %d", i+1, len(text.Pages))) {
					t.Fatalf("page %d is not a record page: %q", i+1, p)
				}
			}
			recordText := strings.Join(text.Pages[4:], "\n")
			for _, s := range rec.Steps {
				for _, want := range []string{s.Signature.SignerName, s.Signature.SignedAt.UTC().Format("2006-01-02 15:04:05"), s.Signature.Seal} {
					if !strings.Contains(recordText, want) {
						t.Fatalf("the record does not print %q of the %s signature", want, s.Role)
					}
				}
			}
			for _, want := range []string{"Approval", rv.SHA256, ra.JobCode, "Cite the LDL-C study on page 2.", "Pages 1 to 4 are version 2",
				"Which study shows half? Cite it here.", "The LDL-C study; version 2 cites it.", "ORPHANED", "Trusted by thousands of cardiologists.",
				"Region on page 1", "Points at annotation A"} {
				if !strings.Contains(recordText, want) {
					t.Fatalf("the record does not print %q", want)
				}
			}

			// Round 1, as JSON, by a reviewer: the change it raised.
			exp1, err := e.data.Records.ReviewRecord(e.ctx, legal, r1, service.FormatJSON)
			if err != nil {
				t.Fatal(err)
			}
			if exp1.File != nil {
				t.Fatal("a JSON export opened the file")
			}
			rec1 := exp1.Record
			if rec1.Round.Number != 1 || rec1.Round.Status != "changes_requested" || rec1.Version.Number != 1 || len(rec1.ChangeRequests) != 1 ||
				rec1.ChangeRequests[0].Place != fairbalance.ChangeRaisedHere || rec1.Steps[0].Signature.Meaning != "review" || !rec1.Steps[0].Check.Valid {
				t.Fatalf("round 1: %+v", rec1)
			}
			if last := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionReviewRecordExported); !strings.Contains(string(last.Meta), `"format":"json"`) {
				t.Fatalf("json export entry: %+v", last)
			}

			// A signature altered in the database shows as not valid in the
			// next record, and its seal no longer verifies from the JSON.
			sigID := rec.Steps[1].Signature.ID
			e.exec(t, []string{"DROP TRIGGER signatures_no_update", "UPDATE signatures SET signer_name = 'Dr. Impostor' WHERE id = '" + sigID + "'"},
				[]string{"ALTER TABLE signatures DISABLE TRIGGER signatures_no_update", "UPDATE signatures SET signer_name = 'Dr. Impostor' WHERE id = '" + sigID + "'"})
			exp2, err := e.data.Records.ReviewRecord(e.ctx, e.own[fairbalance.RoleOwner], r2, service.FormatJSON)
			if err != nil {
				t.Fatal(err)
			}
			s := exp2.Record.Steps[1]
			if s.Check.Valid || s.Check.SealIntact || !s.Check.BoundToStep || !s.Check.RenditionMatches || !strings.Contains(s.Check.Reason, "altered") {
				t.Fatalf("altered signature: %+v", s.Check)
			}
			_, back2 := recordJSON(t, exp2.Record)
			if err := back2.Steps[1].Signature.VerifySeal(keysOf(t, back2)); err == nil {
				t.Fatal("an altered signature verified from the JSON")
			}
		})
	}
}

func countOf(list []string, v string) int {
	n := 0
	for _, x := range list {
		if x == v {
			n++
		}
	}
	return n
}

// hashOK recomputes a listed entry's hash from its fields, as a verifier would.
func hashOK(x fairbalance.RecordAuditEntry) bool {
	e := x.Entry()
	return e.ComputeHash() == x.Hash
}

// exportKind is what an export answered: "ok", or the refusal's kind and code.
func exportKind(err error) string {
	if err == nil {
		return "ok"
	}
	if e := fairbalance.AsError(err); e != nil && e.Kind != fairbalance.KindInternal {
		return string(e.Kind) + "/" + e.Code
	}
	return "internal: " + err.Error()
}

// Who exports (product design, section 2: every role but viewers; the
// read-only demo too, unrecorded), and what anyone else is answered.
func TestRecordExportPermissions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newRecordEnv(t, backend)
			a := e.asset(t, "Approved e-mail")
			e.approveAll(t, a["id"].(string))
			draft := e.asset(t, "Draft e-mail")
			review := readRows(t, e.matrixEnv, e.own[fairbalance.RoleViewer], "reviews", "select=id&asset_id=eq."+a["id"].(string))[0]["id"].(string)

			type export func(c fairbalance.Caller, id string) error
			exports := map[string]struct {
				run export
				id  string
			}{
				"record.pdf": {func(c fairbalance.Caller, id string) error {
					exp, err := e.data.Records.ReviewRecord(e.ctx, c, id, service.FormatPDF)
					if exp != nil && exp.File != nil {
						exp.File.Close()
					}
					return err
				}, review},
				"record.json": {func(c fairbalance.Caller, id string) error {
					_, err := e.data.Records.ReviewRecord(e.ctx, c, id, service.FormatJSON)
					return err
				}, review},
				"form-2253": {func(c fairbalance.Caller, id string) error {
					_, err := e.data.Records.Form2253(e.ctx, c, id, service.FormatJSON)
					return err
				}, a["id"].(string)},
			}
			for name, x := range exports {
				for _, org := range []string{"own", "other"} {
					for _, role := range fairbalance.Roles {
						want := "ok"
						switch {
						case org == "other":
							want = "not_found/not_found"
						case role == fairbalance.RoleViewer:
							want = "forbidden/forbidden"
						}
						if got := exportKind(x.run(e.members[org][role], x.id)); got != want {
							t.Errorf("%s as %s of %s: %s, want %s", name, role, org, got, want)
						}
					}
				}
				for who, c := range map[string]fairbalance.Caller{"anon": {Role: "anon"}, "no organisation": {Role: "authenticated", UserID: e.own[fairbalance.RoleAdmin].UserID}} {
					want := map[string]string{"anon": "unauthorized/no_authorization", "no organisation": "forbidden/forbidden"}[who]
					if got := exportKind(x.run(c, x.id)); got != want {
						t.Errorf("%s as %s: %s, want %s", name, who, got, want)
					}
				}
				if got := exportKind(x.run(fairbalance.Caller{Role: "service_role"}, x.id)); got != "ok" {
					t.Errorf("%s as the service role: %s", name, got)
				}
				for id, want := range map[string]string{"not-an-id": "invalid/invalid_id", "00000000-0000-4000-8000-00000000abcd": "not_found/not_found", "": "invalid/invalid_id"} {
					if got := exportKind(x.run(e.own[fairbalance.RoleAdmin], id)); got != want {
						t.Errorf("%s of %q: %s, want %s", name, id, got, want)
					}
				}
				// The read-only demo exports, and records nothing.
				demo := e.own[fairbalance.RoleAdmin]
				demo.Demo = true
				n := e.auditLength(t)
				if got := exportKind(x.run(demo, x.id)); got != "ok" || e.auditLength(t) != n {
					t.Errorf("%s in the demo: %s, %d entries written", name, got, e.auditLength(t)-n)
				}
				demo.Member = fairbalance.RoleViewer
				if got := exportKind(x.run(demo, x.id)); got != "forbidden/forbidden" {
					t.Errorf("%s as the demo's viewer: %s", name, got)
				}
			}
			// Form 2253 only for an approved asset.
			if _, err := e.data.Records.Form2253(e.ctx, e.own[fairbalance.RoleMarketer], draft["id"].(string), service.FormatPDF); exportKind(err) != "conflict/not_approved" {
				t.Fatalf("Form 2253 of a draft: %s", exportKind(err))
			}
		})
	}
}

// The Form 2253 data of an approved composed asset, and its record.
func TestForm2253AndComposedRecord(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newRecordEnv(t, backend)
			reg := e.own[fairbalance.RoleReviewerRegulatory]
			if _, err := patchRows(t, e.matrixEnv, e.own[fairbalance.RoleAdmin], "products", "id=eq."+e.product["id"].(string),
				map[string]any{"established_name": "rosulitide", "pi_reference": "Zelvora PI, rev. 01/2026"}); err != nil {
				t.Fatal(err)
			}
			a := e.asset(t, "Patient e-mail")
			e.patch(t, "assets", a["id"].(string), map[string]any{"audience": "patient"})
			e.approveAll(t, a["id"].(string))
			asset := e.row(t, "assets", a["id"].(string))
			round := readRows(t, e.matrixEnv, reg, "reviews", "select=*&asset_id=eq."+a["id"].(string))[0]
			version := e.row(t, "asset_versions", a["current_version_id"].(string))

			before := e.auditCount(t, fairbalance.ActionForm2253Exported)
			f, err := e.data.Records.Form2253(e.ctx, reg, a["id"].(string), service.FormatPDF)
			if err != nil {
				t.Fatal(err)
			}
			m := f.Material
			closed, _ := time.Parse(time.RFC3339Nano, round["closed_at"].(string))
			if f.Format != fairbalance.Form2253Format || f.Applicant != "own" || f.Product.ProprietaryName != "Zelvora" || f.Product.EstablishedName != "rosulitide" ||
				f.Product.PIReference != "Zelvora PI, rev. 01/2026" || m.Type != "email" || m.TypeLabel != "Email" || m.Audience != fairbalance.AudienceConsumer ||
				m.DisseminationDate != closed.UTC().Format(time.DateOnly) || m.DisseminationBasis != fairbalance.DisseminationApproval ||
				m.MaterialID != asset["job_code"] || m.VersionID != version["id"] || m.VersionNumber != 1 || m.SHA256 != version["sha256"] ||
				m.ReviewID != round["id"] || m.ApprovedInRound != 1 || !m.ApprovedAt.Equal(closed) || m.ExpiresAt == nil || *m.ExpiresAt != asset["expires_at"] ||
				len(f.ToComplete) == 0 || f.GeneratedBy.ID != reg.UserID {
				t.Fatalf("form 2253: %+v", f)
			}
			if e.auditCount(t, fairbalance.ActionForm2253Exported) != before+1 {
				t.Fatal("the export was not recorded")
			}
			doc, err := recordpdf.Form2253(f)
			if err != nil {
				t.Fatal(err)
			}
			text, err := pdftext.Extract(bytes.NewReader(doc), int64(len(doc)))
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(text.Pages, "\n")
			for _, want := range []string{"PROPRIETARY NAME", "Zelvora", "ESTABLISHED NAME", "rosulitide", "MATERIAL ID CODE", m.MaterialID, m.DisseminationDate, "Email", m.SHA256, "To complete", "own"} {
				if !strings.Contains(all, want) {
					t.Fatalf("the form does not print %q:\n%s", want, all)
				}
			}

			// The record of a composed version carries its text and HTML.
			exp, err := e.data.Records.ReviewRecord(e.ctx, reg, round["id"].(string), service.FormatPDF)
			if err != nil {
				t.Fatal(err)
			}
			rv := exp.Record.Version
			if exp.File != nil || rv.Kind != "authored" || rv.Text == nil || *rv.Text != version["plain_text"] || rv.ContentHTML == nil || *rv.ContentHTML != version["content_html"] {
				t.Fatalf("composed version: %+v", rv)
			}
			rdoc, err := recordpdf.ReviewRecord(exp.Record, nil, exp.FileProblem)
			if err != nil {
				t.Fatal(err)
			}
			rtext, err := pdftext.Extract(bytes.NewReader(rdoc), int64(len(rdoc)))
			if err != nil {
				t.Fatal(err)
			}
			if all := strings.Join(rtext.Pages, "\n"); !strings.Contains(all, "Zelvora lowers LDL-C by half.") || !strings.Contains(all, "TEXT AS REVIEWED") {
				t.Fatalf("the composed record does not print its text:\n%s", all)
			}
		})
	}
}
