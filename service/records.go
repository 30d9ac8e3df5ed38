package service

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// Records exports what a company hands an inspector (issue 16): the record
// of a review round (fairbalance.ReviewRecord) and the Form 2253 data of an
// approved asset (fairbalance.Form2253). Exports read; each one is audited
// (review.record_exported, asset.form_2253_exported) in the transaction
// that reads what it exports, so the trail says who took which copy. Every
// member but a viewer exports (product design, section 2), the read-only
// demo included, whose exports are not recorded (it writes nothing).
type Records struct {
	reg *Registry
	// Now is the clock.
	Now func() time.Time
}

// The export formats, as the audit entries name them.
const (
	FormatPDF  = "pdf"
	FormatJSON = "json"
)

// RecordExport is a review record and, for the PDF of a file version, the
// version's stored file.
type RecordExport struct {
	Record *fairbalance.ReviewRecord
	// File is the version's file (a PDF or an image) when the PDF was
	// asked for and the file can be read, positioned at its start; the
	// caller closes it. Nil for a composed version. FileProblem says why a
	// file version has none.
	File        fairbalance.Blob
	FileProblem string
}

// The refusals of the exports, in the shape of the /api surface: a stable
// code and a message fit to show.
var (
	errExportAnon     = &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "no_authorization", Message: "Sign in to export records."}
	errExportViewer   = &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "forbidden", Message: "Viewers cannot export review records or Form 2253 data."}
	errReviewNotFound = &fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "not_found", Message: "Review not found."}
	errAssetNotFound  = &fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "not_found", Message: "Asset not found."}
)

func badID(what string) error {
	return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "invalid_id", Message: "The " + what + " id is not a valid id."}
}

// refuseSignedOut refuses callers who are not members of an organisation
// (401 signed out, 403 without an organisation).
func refuseSignedOut(c fairbalance.Caller) error {
	switch {
	case c.Service():
		return nil
	case c.Anon():
		return errExportAnon
	case !c.InOrg():
		return &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "forbidden", Message: "Join an organisation to export its records."}
	}
	return nil
}

// refuseViewer refuses viewers (403), once the object was found in their
// organisation: another organisation's object is not found, whoever asks.
func refuseViewer(c fairbalance.Caller) error {
	if !c.Service() && c.Member == fairbalance.RoleViewer {
		return errExportViewer
	}
	return nil
}

func (r *Records) now() time.Time { return r.Now().UTC().Truncate(time.Microsecond) }

// ReviewRecord builds the record of review round reviewID for c, and
// records the export in format (FormatPDF or FormatJSON). For FormatPDF
// of a file version it opens the version's file, which the caller closes.
// Errors: no_authorization (401: signed out), forbidden (403: a member
// without an organisation), invalid_id (400), not_found (404: no such
// round in the caller's organisation), forbidden (403: a viewer).
func (r *Records) ReviewRecord(ctx context.Context, c fairbalance.Caller, reviewID, format string) (*RecordExport, error) {
	if err := refuseSignedOut(c); err != nil {
		return nil, err
	}
	if !auth.IsUUID(reviewID) {
		return nil, badID("review")
	}
	var rec *fairbalance.ReviewRecord
	var version *fairbalance.Version
	var b *recordBuilder
	err := r.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		b = &recordBuilder{r: r, ctx: ctx, tx: tx, c: c, names: map[string]string{}, reasons: map[string][]string{}}
		var err error
		if rec, version, err = b.build(strings.ToLower(reviewID)); err != nil {
			return err
		}
		if c.Demo {
			return nil
		}
		e := &fairbalance.AuditEntry{Action: fairbalance.ActionReviewRecordExported, ObjectType: "reviews", ObjectID: rec.Round.ID,
			Meta: mustRaw(map[string]any{"format": format, "asset_id": rec.Asset.ID, "job_code": rec.Asset.JobCode, "round": rec.Round.Number,
				"version_id": rec.Version.ID, "version_number": rec.Version.Number, "sha256": rec.Version.SHA256}),
			IP: ClientFrom(ctx).IP, UserAgent: ClientFrom(ctx).UserAgent, CreatedAt: rec.GeneratedAt}
		if err := appendAudit(ctx, tx, c, e); err != nil {
			return err
		}
		exported := fairbalance.NewRecordAuditEntry(*e, rec.GeneratedBy.Name)
		rec.Audit.Export = &exported
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The rendition is hashed after the transaction: reading a large file
	// must not hold the database's writer.
	out := &RecordExport{Record: rec}
	sum, file, problem, err := r.rendition(ctx, version, format == FormatPDF)
	if err != nil {
		return nil, err
	}
	out.File, out.FileProblem = file, problem
	for i := range rec.Steps {
		s := &rec.Steps[i]
		if s.Signature == nil || s.Check == nil {
			continue
		}
		v := &SignatureVerification{SealIntact: s.Check.SealIntact, BoundToStep: s.Check.BoundToStep}
		finishVerification(v, b.reasons[s.ID], s.Signature, sum)
		*s.Check = fairbalance.SignatureCheck{Valid: v.Valid, Reason: v.Reason, SealIntact: v.SealIntact, BoundToStep: v.BoundToStep, RenditionMatches: v.RenditionMatches}
	}
	return out, nil
}

// rendition hashes a version's rendition as it is now ("" when it can no
// longer be read) and, when keep is set and the version is a file, returns
// the file rewound, or why there is none.
func (r *Records) rendition(ctx context.Context, v *fairbalance.Version, keep bool) (sum string, file fairbalance.Blob, problem string, err error) {
	if v.Kind == fairbalance.VersionAuthored {
		if v.ContentHTML == nil {
			return "", nil, "", nil
		}
		h := sha256.Sum256([]byte(*v.ContentHTML))
		return hex.EncodeToString(h[:]), nil, "", nil
	}
	const gone = "The version's file can no longer be read."
	if v.FileBucket == nil || v.FilePath == nil || r.reg.storage == nil {
		return "", nil, gone, nil
	}
	o, err := r.reg.store.View().ObjectByName(ctx, *v.FileBucket, *v.FilePath)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return "", nil, gone, nil
	}
	if err != nil {
		return "", nil, "", err
	}
	blob, err := r.reg.storage.Blob(ctx, o)
	if err != nil {
		if fairbalance.AsError(err) != nil {
			return "", nil, gone, nil
		}
		return "", nil, "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(blob, 0, blob.Size())); err != nil {
		blob.Close()
		return "", nil, "", err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	if !keep {
		return sum, nil, "", blob.Close()
	}
	if sum != v.SHA256 {
		blob.Close()
		return sum, nil, "The version's file no longer matches its SHA-256; it is not included.", nil
	}
	if _, err := blob.Seek(0, io.SeekStart); err != nil {
		blob.Close()
		return "", nil, "", err
	}
	return sum, blob, "", nil
}

// recordBuilder reads one round's record in one transaction.
type recordBuilder struct {
	r     *Records
	ctx   context.Context
	tx    fairbalance.Tx
	c     fairbalance.Caller
	names map[string]string
	// reasons are, by step, why its signature's seal or binding fails.
	reasons map[string][]string
}

var systemActors = map[string]string{SystemActor: "System", "service_role": "Service role", "": "System"}

// name is the printed name of a member ("" for an account that is gone).
func (b *recordBuilder) name(id string) string {
	if n, ok := systemActors[id]; ok {
		return n
	}
	if n, ok := b.names[id]; ok {
		return n
	}
	n, err := memberName(b.ctx, b.tx, id)
	if err != nil {
		n = ""
	}
	b.names[id] = n
	return n
}

func (b *recordBuilder) person(id string) fairbalance.RecordPerson {
	return fairbalance.RecordPerson{ID: id, Name: b.name(id)}
}

func (b *recordBuilder) personPtr(id *string) *fairbalance.RecordPerson {
	if id == nil {
		return nil
	}
	p := b.person(*id)
	return &p
}

func (b *recordBuilder) build(reviewID string) (*fairbalance.ReviewRecord, *fairbalance.Version, error) {
	ctx, tx := b.ctx, b.tx
	review, _, err := rowOf[fairbalance.Review](ctx, tx, b.c, ReviewsTable(), reviewID)
	if err != nil {
		return nil, nil, err
	}
	if review == nil {
		return nil, nil, errReviewNotFound
	}
	if err := refuseViewer(b.c); err != nil {
		return nil, nil, err
	}
	sys := fairbalance.Caller{Role: "service_role"}
	asset, _, err := mustRowOf[fairbalance.Asset](ctx, tx, sys, AssetsTable(), review.AssetID, "Asset")
	if err != nil {
		return nil, nil, err
	}
	version, _, err := mustRowOf[fairbalance.Version](ctx, tx, sys, AssetVersionsTable(), review.VersionID, "Version")
	if err != nil {
		return nil, nil, err
	}
	org, err := tx.OrgByID(ctx, review.OrgID)
	if err != nil {
		return nil, nil, err
	}
	rec := &fairbalance.ReviewRecord{
		Format: fairbalance.ReviewRecordFormat, GeneratedAt: b.r.now(), GeneratedBy: b.person(b.c.UserID),
		Organisation: fairbalance.RecordOrg{ID: org.ID, Name: org.Name},
		Round: fairbalance.RecordRound{ID: review.ID, Number: review.Round, Status: review.Status, TemplateID: review.TemplateID,
			TemplateName: review.TemplateName, SubmittedBy: b.person(review.SubmittedBy), SubmittedAt: review.SubmittedAt.UTC(), ClosedAt: utcPtr(review.ClosedAt)},
		Annotations: []fairbalance.RecordAnnotation{}, Steps: []fairbalance.RecordStep{}, ChangeRequests: []fairbalance.RecordChangeRequest{},
		Audit: fairbalance.RecordAudit{Entries: []fairbalance.RecordAuditEntry{}}, Keys: []fairbalance.RecordKey{},
	}
	if b.c.Service() {
		rec.GeneratedBy = fairbalance.RecordPerson{ID: "service_role", Name: systemActors["service_role"]}
	}
	if rec.Asset, err = b.asset(asset); err != nil {
		return nil, nil, err
	}
	rec.Version = b.version(version)

	steps, err := b.steps(review)
	if err != nil {
		return nil, nil, err
	}
	rec.Steps = steps
	changes, err := b.changes(review)
	if err != nil {
		return nil, nil, err
	}
	rec.ChangeRequests = changes
	annotations, threadRows, replies, err := b.annotations(version)
	if err != nil {
		return nil, nil, err
	}
	rec.Annotations = annotations
	if rec.Compliance, err = b.compliance(version); err != nil {
		return nil, nil, err
	}

	// The round's entries are those of its objects: the round, its steps,
	// its change requests, the version (made, annotations carried onto
	// it), and every row and reply of the threads on the version.
	objects := map[string][]string{"reviews": {review.ID}, "asset_versions": {version.ID}, "annotations": threadRows, "annotation_replies": replies}
	for _, f := range rec.Compliance.Findings {
		objects["compliance_findings"] = append(objects["compliance_findings"], f.ID)
	}
	for _, s := range rec.Steps {
		objects["review_steps"] = append(objects["review_steps"], s.ID)
	}
	for _, cr := range rec.ChangeRequests {
		objects["change_requests"] = append(objects["change_requests"], cr.ID)
	}
	if rec.Audit, err = b.audit(review, objects); err != nil {
		return nil, nil, err
	}
	if pub := b.publicKey(); pub != nil {
		rec.Keys = append(rec.Keys, fairbalance.RecordKey{KeyID: fairbalance.AuditKeyID(pub), Algorithm: "Ed25519", PublicKey: base64.StdEncoding.EncodeToString(pub)})
	}
	return rec, version, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (b *recordBuilder) publicKey() ed25519.PublicKey {
	if key := b.r.reg.cfg().SignatureKey; len(key) == ed25519.PrivateKeySize {
		return key.Public().(ed25519.PublicKey)
	}
	return nil
}

func (b *recordBuilder) asset(a *fairbalance.Asset) (fairbalance.RecordAsset, error) {
	out := fairbalance.RecordAsset{ID: a.ID, Title: a.Title, Type: a.Type, Audience: a.Audience, Channel: a.Channel, Market: a.Market,
		JobCode: a.JobCode, Owner: b.personPtr(a.OwnerID), Status: a.Status, ExpiresAt: a.ExpiresAt, ApprovedVersionID: a.ApprovedVersionID}
	if a.ProductID != nil {
		p, _, err := rowOf[fairbalance.Product](b.ctx, b.tx, fairbalance.Caller{Role: "service_role"}, ProductsTable(), *a.ProductID)
		if err != nil {
			return out, err
		}
		if p != nil {
			out.Product = &fairbalance.RecordProduct{ID: p.ID, BrandName: p.BrandName, EstablishedName: p.EstablishedName, PIReference: p.PIReference}
		}
	}
	return out, nil
}

func (b *recordBuilder) version(v *fairbalance.Version) fairbalance.RecordVersion {
	out := fairbalance.RecordVersion{ID: v.ID, Number: v.Number, Kind: v.Kind, FileName: v.FileName, MimeType: v.MimeType, FileSize: v.FileSize,
		PageCount: v.PageCount, SHA256: v.SHA256, ChangeNote: v.ChangeNote, CreatedBy: b.person(v.CreatedBy), CreatedAt: v.CreatedAt.UTC()}
	if v.Kind == fairbalance.VersionAuthored {
		out.ContentHTML = v.ContentHTML
		text := v.PlainText
		out.Text = &text
	}
	return out
}

// steps are the round's steps with their decisions and signatures (seal
// and binding checked; the rendition is checked by the caller).
func (b *recordBuilder) steps(review *fairbalance.Review) ([]fairbalance.RecordStep, error) {
	steps, _, err := stepsOf(b.ctx, b.tx, review.ID)
	if err != nil {
		return nil, err
	}
	sigs, _, err := rowsOf[fairbalance.Signature](b.ctx, b.tx, SignaturesTable(), condEq("review_id", review.ID))
	if err != nil {
		return nil, err
	}
	byID := map[string]*fairbalance.Signature{}
	for i := range sigs {
		byID[sigs[i].ID] = &sigs[i]
	}
	out := make([]fairbalance.RecordStep, 0, len(steps))
	for _, s := range steps {
		rs := fairbalance.RecordStep{ID: s.ID, Position: s.Position, Role: s.Role, Required: s.Required, StepOrder: s.StepOrder, Status: s.Status,
			DueAt: utcPtr(s.DueAt), DecidedBy: b.personPtr(s.DecidedBy), DecidedAt: utcPtr(s.DecidedAt), Comment: s.Comment}
		if s.SignatureID != nil {
			if sig := byID[*s.SignatureID]; sig != nil {
				sig.SignedAt = sig.SignedAt.UTC()
				v, reasons, err := b.r.reg.Reviews.verifyRecord(b.ctx, b.tx, sig)
				if err != nil {
					return nil, err
				}
				rs.Signature = sig
				rs.Check = &fairbalance.SignatureCheck{SealIntact: v.SealIntact, BoundToStep: v.BoundToStep}
				b.reasons[s.ID] = reasons
			}
		}
		out = append(out, rs)
	}
	return out, nil
}

// changes are the round's checklist — requests raised in an earlier round
// and not confirmed before this one was submitted — then those it raised.
func (b *recordBuilder) changes(review *fairbalance.Review) ([]fairbalance.RecordChangeRequest, error) {
	rounds, _, err := rowsOf[fairbalance.Review](b.ctx, b.tx, ReviewsTable(), condEq("asset_id", review.AssetID))
	if err != nil {
		return nil, err
	}
	number := map[string]int{}
	for _, r := range rounds {
		number[r.ID] = r.Round
	}
	crs, _, err := rowsOf[fairbalance.ChangeRequest](b.ctx, b.tx, ChangeRequestsTable(), condEq("asset_id", review.AssetID),
		fairbalance.OrderTerm{Column: "created_at"}, fairbalance.OrderTerm{Column: "text"})
	if err != nil {
		return nil, err
	}
	var checklist, raised []fairbalance.RecordChangeRequest
	for _, cr := range crs {
		raisedIn := number[cr.ReviewID]
		confirmedIn := 0
		if cr.ConfirmedReviewID != nil {
			confirmedIn = number[*cr.ConfirmedReviewID]
		}
		place := ""
		switch {
		case cr.ReviewID == review.ID:
			place = fairbalance.ChangeRaisedHere
		case raisedIn < review.Round && (confirmedIn == 0 || confirmedIn >= review.Round):
			place = fairbalance.ChangeInChecklist
		default:
			continue
		}
		item := fairbalance.RecordChangeRequest{ID: cr.ID, Place: place, Text: cr.Text, Role: cr.Role, Status: cr.Status,
			RaisedBy: b.person(cr.RaisedBy), RaisedInRound: raisedIn, RaisedAt: cr.CreatedAt.UTC(), DoneBy: b.personPtr(cr.DoneBy),
			DoneAt: utcPtr(cr.DoneAt), DoneNote: cr.DoneNote, ConfirmedBy: b.personPtr(cr.ConfirmedBy), ConfirmedAt: utcPtr(cr.ConfirmedAt),
			ConfirmedInRound: confirmedIn, AnnotationID: cr.AnnotationID, ThreadID: cr.ThreadID}
		if place == fairbalance.ChangeRaisedHere {
			raised = append(raised, item)
		} else {
			checklist = append(checklist, item)
		}
	}
	return append(checklist, raised...), nil
}

// compliance is the version's check: its findings (as version_findings
// lists them) and their dismissals.
func (b *recordBuilder) compliance(v *fairbalance.Version) (fairbalance.RecordCompliance, error) {
	out := fairbalance.RecordCompliance{Findings: []fairbalance.RecordFinding{}, Dismissals: []fairbalance.RecordDismissal{}}
	found, err := b.r.reg.Compliance.ForVersion(b.ctx, b.tx, v.ID)
	if err != nil {
		return out, err
	}
	out.CheckedAt = utcPtr(found.CheckedAt)
	for _, f := range found.Findings {
		out.Findings = append(out.Findings, fairbalance.RecordFinding{ID: f.ID, Rule: f.Rule, RuleVersion: f.RuleVersion, Severity: f.Severity,
			State: f.State, Start: f.Start, End: f.End, Quote: f.Quote, Message: f.Message, Page: max(f.SortPage, 1), FirstVersionID: f.FirstVersionID})
		if f.State == fairbalance.FindingDismissed && f.DismissedBy != nil && f.DismissedAt != nil {
			reason := ""
			if f.DismissReason != nil {
				reason = *f.DismissReason
			}
			out.Dismissals = append(out.Dismissals, fairbalance.RecordDismissal{FindingID: f.ID, Rule: f.Rule, Quote: f.Quote,
				By: b.person(*f.DismissedBy), At: f.DismissedAt.UTC(), Reason: reason})
		}
	}
	return out, nil
}

// annotations are every annotation on the version (as version_annotations
// lists them: reading order, each with its thread's replies), the ids of
// every row of their threads (on this and earlier versions) and of their
// replies.
func (b *recordBuilder) annotations(v *fairbalance.Version) ([]fairbalance.RecordAnnotation, []string, []string, error) {
	views, err := b.r.reg.Annotations.ForVersion(b.ctx, b.tx, fairbalance.Caller{Role: "service_role"}, v.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	out := make([]fairbalance.RecordAnnotation, 0, len(views))
	var threads, refs []any
	var replies []string
	for _, a := range views {
		page := a.SortPage
		if a.AnchorStatus == fairbalance.AnchorOrphaned {
			page = 0
		}
		ra := fairbalance.RecordAnnotation{ID: a.ID, ThreadID: a.ThreadID, Category: a.Category, Body: a.Body, State: a.State,
			AnchorStatus: a.AnchorStatus, Target: a.Target, Page: page, ReferenceID: a.ReferenceID, ReferencePage: a.ReferencePage,
			ReferenceQuote: a.ReferenceQuote, Author: b.person(a.CreatedBy), CreatedAt: a.CreatedAt.UTC(), ResolvedBy: b.personPtr(a.ResolvedBy),
			ResolvedAt: utcPtr(a.ResolvedAt), CarriedFrom: a.CarriedFrom, Replies: make([]fairbalance.RecordReply, 0, len(a.Replies))}
		for _, r := range a.Replies {
			ra.Replies = append(ra.Replies, fairbalance.RecordReply{ID: r.ID, AnnotationID: r.AnnotationID, Body: r.Body,
				Author: b.person(r.CreatedBy), CreatedAt: r.CreatedAt.UTC()})
			replies = append(replies, r.ID)
		}
		threads = append(threads, a.ThreadID)
		if a.ReferenceID != nil {
			refs = append(refs, *a.ReferenceID)
		}
		out = append(out, ra)
	}
	if len(refs) > 0 {
		rows, err := readDBRows(b.ctx, b.tx, "content_references", condIn("id", refs), 0,
			selCol("id", fairbalance.TypeText), selCol("title", fairbalance.TypeText), selCol("citation", fairbalance.TypeText))
		if err != nil {
			return nil, nil, nil, err
		}
		for i := range out {
			for _, r := range rows {
				if out[i].ReferenceID != nil && str(r, "id") == *out[i].ReferenceID {
					out[i].ReferenceTitle, out[i].ReferenceCitation = str(r, "title"), str(r, "citation")
				}
			}
		}
	}
	var rows []string
	if len(threads) > 0 {
		found, err := readDBRows(b.ctx, b.tx, "annotations", and(condEq("asset_id", v.AssetID), condIn("thread_id", threads)), 0, selCol("id", fairbalance.TypeText))
		if err != nil {
			return nil, nil, nil, err
		}
		for _, r := range found {
			rows = append(rows, str(r, "id"))
		}
	}
	return out, rows, replies, nil
}

// audit reads the round's audit entries — those of its objects (by type),
// and the asset's that name the round — oldest first, and the checkpoint
// that seals the chain.
func (b *recordBuilder) audit(review *fairbalance.Review, objects map[string][]string) (fairbalance.RecordAudit, error) {
	out := fairbalance.RecordAudit{Entries: []fairbalance.RecordAuditEntry{}}
	seen := map[int64]bool{}
	var entries []fairbalance.AuditEntry
	add := func(e fairbalance.AuditEntry) {
		if !seen[e.ID] {
			seen[e.ID] = true
			entries = append(entries, e)
		}
	}
	types := make([]string, 0, len(objects))
	for t := range objects {
		types = append(types, t)
	}
	slices.Sort(types)
	for _, t := range types {
		ids := objects[t]
		for len(ids) > 0 {
			n := min(len(ids), fairbalance.MaxAuditObjects)
			err := b.listAll(fairbalance.AuditFilter{OrgID: review.OrgID, ObjectType: t, ObjectIDs: ids[:n]}, func(e fairbalance.AuditEntry) bool { return true }, add)
			if err != nil {
				return out, err
			}
			ids = ids[n:]
		}
	}
	// The asset's entries that belong to the round name it in their meta
	// (asset_submitted, asset_approved, …); a first version was made with
	// its asset (asset_created).
	mine := func(e fairbalance.AuditEntry) bool {
		var m struct {
			ReviewID string `json:"review_id"`
		}
		if json.Unmarshal(e.Meta, &m) == nil && m.ReviewID == review.ID {
			return true
		}
		var made struct {
			Version struct {
				ID string `json:"id"`
			} `json:"version"`
		}
		return e.Action == fairbalance.ActionAssetCreated && json.Unmarshal(e.After, &made) == nil && made.Version.ID == review.VersionID
	}
	if err := b.listAll(fairbalance.AuditFilter{OrgID: review.OrgID, ObjectType: "assets", ObjectID: review.AssetID}, mine, add); err != nil {
		return out, err
	}
	slices.SortFunc(entries, func(x, y fairbalance.AuditEntry) int { return int(x.ID - y.ID) })
	var last int64
	for _, e := range entries {
		out.Entries = append(out.Entries, fairbalance.NewRecordAuditEntry(e, b.name(e.ActorID)))
		last = max(last, e.ID)
	}
	cp, sigErr := b.r.reg.lastCheckpoint(review.OrgID)
	if cp != nil {
		rc := &fairbalance.RecordCheckpoint{AuditCheckpoint: *cp, SignatureValid: sigErr == nil, CoversEntries: cp.Seq >= last}
		hash, err := b.tx.AuditHashAt(b.ctx, review.OrgID, cp.Seq)
		switch {
		case err == nil:
			rc.ChainMatches = hash == cp.Hash
		case !errors.Is(err, fairbalance.ErrNotFound):
			return out, err
		}
		out.Checkpoint = rc
	}
	return out, nil
}

// listAll reads every entry matching f, page by page, handing those keep
// accepts to add.
func (b *recordBuilder) listAll(f fairbalance.AuditFilter, keep func(fairbalance.AuditEntry) bool, add func(fairbalance.AuditEntry)) error {
	f.Limit = fairbalance.MaxAuditPage
	for {
		page, err := b.tx.ListAudit(b.ctx, f)
		if err != nil {
			return err
		}
		for _, e := range page {
			if keep(e) {
				add(e)
			}
		}
		if len(page) < f.Limit {
			return nil
		}
		f.Before = page[len(page)-1].ID
	}
}

// Form2253 builds the Form 2253 data of approved asset assetID for c and
// records the export in format. Errors as ReviewRecord's, and
// not_approved (409: the asset is not approved now).
func (r *Records) Form2253(ctx context.Context, c fairbalance.Caller, assetID, format string) (*fairbalance.Form2253, error) {
	if err := refuseSignedOut(c); err != nil {
		return nil, err
	}
	if !auth.IsUUID(assetID) {
		return nil, badID("asset")
	}
	var out *fairbalance.Form2253
	err := r.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		b := &recordBuilder{r: r, ctx: ctx, tx: tx, c: c, names: map[string]string{}}
		var err error
		if out, err = b.form2253(strings.ToLower(assetID)); err != nil || c.Demo {
			return err
		}
		m := out.Material
		return appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: fairbalance.ActionForm2253Exported, ObjectType: "assets", ObjectID: m.AssetID,
			Meta: mustRaw(map[string]any{"format": format, "job_code": m.MaterialID, "review_id": m.ReviewID, "version_id": m.VersionID,
				"version_number": m.VersionNumber, "sha256": m.SHA256}),
			IP: ClientFrom(ctx).IP, UserAgent: ClientFrom(ctx).UserAgent, CreatedAt: out.GeneratedAt})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (b *recordBuilder) form2253(assetID string) (*fairbalance.Form2253, error) {
	ctx, tx := b.ctx, b.tx
	a, _, err := rowOf[fairbalance.Asset](ctx, tx, b.c, AssetsTable(), assetID)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, errAssetNotFound
	}
	if err := refuseViewer(b.c); err != nil {
		return nil, err
	}
	if a.Status != fairbalance.AssetApproved || a.ApprovedVersionID == nil {
		return nil, &fairbalance.Error{Kind: fairbalance.KindConflict, Code: "not_approved",
			Message: "Form 2253 data is prepared for approved assets only; this asset is " + strings.ReplaceAll(string(a.Status), "_", " ") + "."}
	}
	sys := fairbalance.Caller{Role: "service_role"}
	v, _, err := mustRowOf[fairbalance.Version](ctx, tx, sys, AssetVersionsTable(), *a.ApprovedVersionID, "Version")
	if err != nil {
		return nil, err
	}
	rounds, _, err := rowsOf[fairbalance.Review](ctx, tx, ReviewsTable(), and(condEq("asset_id", a.ID), condEq("version_id", v.ID),
		condEq("status", string(fairbalance.ReviewApproved))), fairbalance.OrderTerm{Column: "round", Desc: true})
	if err != nil {
		return nil, err
	}
	if len(rounds) == 0 || rounds[0].ClosedAt == nil {
		return nil, &fairbalance.Error{Kind: fairbalance.KindConflict, Code: "not_approved", Message: "The asset's approving review round cannot be found."}
	}
	round := rounds[0]
	org, err := tx.OrgByID(ctx, a.OrgID)
	if err != nil {
		return nil, err
	}
	out := &fairbalance.Form2253{Format: fairbalance.Form2253Format, GeneratedAt: b.r.now(), GeneratedBy: b.person(b.c.UserID), Applicant: org.Name,
		ToComplete: slices.Clone(fairbalance.Form2253Items)}
	if b.c.Service() {
		out.GeneratedBy = fairbalance.RecordPerson{ID: "service_role", Name: systemActors["service_role"]}
	}
	if a.ProductID != nil {
		p, _, err := rowOf[fairbalance.Product](ctx, tx, sys, ProductsTable(), *a.ProductID)
		if err != nil {
			return nil, err
		}
		if p != nil {
			out.Product = fairbalance.Form2253Product{ID: p.ID, ProprietaryName: p.BrandName, EstablishedName: p.EstablishedName, PIReference: p.PIReference}
		}
	}
	approved := round.ClosedAt.UTC()
	desc := a.Title
	if a.Channel != "" {
		desc += " (" + a.Channel + ")"
	}
	out.Material = fairbalance.Form2253Material{Type: a.Type, TypeLabel: fairbalance.Form2253MaterialType(a.Type), Audience: fairbalance.Form2253Audience(a.Audience),
		DisseminationDate: approved.Format(time.DateOnly), DisseminationBasis: fairbalance.DisseminationApproval, MaterialID: a.JobCode, Description: desc,
		AssetID: a.ID, Title: a.Title, Channel: a.Channel, Market: a.Market, VersionID: v.ID, VersionNumber: v.Number, SHA256: v.SHA256,
		FileName: v.FileName, PageCount: v.PageCount, ApprovedAt: approved, ApprovedInRound: round.Round, ReviewID: round.ID, ExpiresAt: a.ExpiresAt}
	return out, nil
}
