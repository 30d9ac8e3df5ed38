package service

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"fairbalance"
)

// verification is one run of an organisation's chain verification, shared
// by the callers that ask while it runs.
type verification struct {
	done chan struct{}
	v    fairbalance.AuditVerification
	err  error
}

// verifyOnce verifies orgID's chain against seals; callers arriving while
// a run for the same organisation is in progress wait for it and share its
// outcome, so asking repeatedly never stacks up full scans.
func (d *Registry) verifyOnce(ctx context.Context, store fairbalance.AuditStore, orgID string, seals []fairbalance.AuditSeal) (fairbalance.AuditVerification, error) {
	d.verifyMu.Lock()
	if d.verifying == nil {
		d.verifying = map[string]*verification{}
	}
	run, ok := d.verifying[orgID]
	if !ok {
		run = &verification{done: make(chan struct{})}
		d.verifying[orgID] = run
		go func() {
			// The run outlives a caller that gives up: others may wait for it.
			run.v, run.err = store.VerifyAudit(context.WithoutCancel(ctx), orgID, seals...)
			d.verifyMu.Lock()
			delete(d.verifying, orgID)
			d.verifyMu.Unlock()
			close(run.done)
		}()
	}
	d.verifyMu.Unlock()
	select {
	case <-run.done:
		return run.v, run.err
	case <-ctx.Done():
		return fairbalance.AuditVerification{}, ctx.Err()
	}
}

// verifyChain verifies the caller's organisation's chain on a snapshot
// (outside any write transaction) — against its last checkpoint too, when
// the trail is sealed — and then, except for demo sessions, records the
// outcome as an entry of that chain (audit_chain_verified, or
// audit_chain_verification_failed) in a transaction of its own. The result
// is {ok, checked, first_broken_id, head_id, head_hash, reason, verified_at,
// checkpoint}: checked is the number of entries read; first_broken_id and
// reason are null when ok; head_id is the last entry as the chain head
// records it (the recording entry comes after it); checkpoint is the last
// checkpoint, {at, seq, hash, key_id, matches}, or null when the chain was
// never sealed (matches: its signature verifies and entry seq has exactly
// its hash).
func (d *Registry) verifyChain(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller) (any, error) {
	cp, sigErr := d.lastCheckpoint(c.OrgID)
	var seals []fairbalance.AuditSeal
	if cp != nil && sigErr == nil {
		seals = []fairbalance.AuditSeal{cp.Seal()}
	}
	v, err := d.verifyOnce(ctx, tx, c.OrgID, seals)
	if err != nil {
		return nil, err
	}
	at := d.Now()
	if sigErr != nil && v.OK {
		// The chain may be fine, but what vouches for it was changed.
		v.OK, v.Reason = false, fmt.Sprintf("checkpoint signature invalid: the checkpoint of %s for entry %d %s",
			cp.At.UTC().Format(time.RFC3339), cp.Seq, strings.TrimPrefix(sigErr.Error(), "the checkpoint's "))
	}
	out := map[string]any{"ok": v.OK, "checked": v.Entries, "first_broken_id": nil, "head_id": v.HeadID, "head_hash": v.HeadHash, "reason": nil, "verified_at": at, "checkpoint": nil}
	if !v.OK {
		if v.BrokenAt != 0 {
			out["first_broken_id"] = v.BrokenAt
		}
		out["reason"] = v.Reason
	}
	if cp != nil {
		out["checkpoint"] = checkpointJSON(cp, map[string]any{"matches": sigErr == nil && v.SealedSeq == cp.Seq})
	}
	if c.Demo {
		return out, nil
	}
	action := fairbalance.ActionAuditChainVerified
	if !v.OK {
		action = fairbalance.ActionAuditChainBroken
	}
	meta := map[string]any{"ok": v.OK, "checked": v.Entries, "head_id": v.HeadID, "head_hash": v.HeadHash, "first_broken_id": out["first_broken_id"], "reason": out["reason"], "checkpoint": out["checkpoint"]}
	err = d.store.Tx(ctx, func(tx fairbalance.Tx) error {
		return appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: action, ObjectType: "audit_chain", ObjectID: c.OrgID, Meta: mustRaw(meta), CreatedAt: at})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// lastCheckpoint is orgID's last checkpoint (nil when sealing is off or
// the chain was never sealed) and why its signature does not verify.
func (d *Registry) lastCheckpoint(orgID string) (*fairbalance.AuditCheckpoint, error) {
	s := d.Config.Sealer
	if s == nil {
		return nil, nil
	}
	cp, ok := s.LastCheckpoint(orgID)
	if !ok {
		return nil, nil
	}
	return &cp, s.VerifyCheckpoint(&cp)
}

// checkpointJSON is a checkpoint as the functions answer it: {at, seq,
// hash, key_id} and the extra fields.
func checkpointJSON(cp *fairbalance.AuditCheckpoint, extra map[string]any) map[string]any {
	out := map[string]any{"at": cp.At.UTC(), "seq": cp.Seq, "hash": cp.Hash, "key_id": cp.KeyID}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// sealingState is "off" (no sealer), "failing" (the last pass could not
// write its checkpoints everywhere) or "on".
func sealingState(s fairbalance.AuditSealer) (string, fairbalance.AuditSealStatus) {
	if s == nil {
		return "off", fairbalance.AuditSealStatus{}
	}
	st := s.SealStatus()
	if st.Error != "" {
		return "failing", st
	}
	return "on", st
}

// auditCheckpoint is audit_checkpoint(): how the caller's organisation's
// chain is sealed, {sealing, interval_seconds, checkpoint, refused}:
// sealing is "on", "off" or "failing"; checkpoint the chain's last
// checkpoint {at, seq, hash, key_id, signature_ok} or null when it was
// never sealed; refused says why the server stopped sealing the chain (it
// no longer matches its last checkpoint), or is null.
func (d *Registry) auditCheckpoint(c fairbalance.Caller) (any, error) {
	state, st := sealingState(d.Config.Sealer)
	out := map[string]any{"sealing": state, "interval_seconds": int64(st.Interval / time.Second), "checkpoint": nil, "refused": nil}
	cp, sigErr := d.lastCheckpoint(c.OrgID)
	if cp != nil {
		out["checkpoint"] = checkpointJSON(cp, map[string]any{"signature_ok": sigErr == nil})
	}
	if r, ok := st.Refused[c.OrgID]; ok {
		out["refused"] = r
	}
	return out, nil
}

// OutboxDiagnosticsLimit is how many e-mails diagnostics() lists.
const OutboxDiagnosticsLimit = 20

// diagnostics is diagnostics(): {version, database, migration, storage,
// mail_sender, realtime} for every signed-in caller, and for owners and
// admins also outbox, their organisation's last e-mails as {id, to,
// subject, kind, status, attempts, created_at, sent_at, last_error, links}
// (links: those the e-mail holds when mail_sender is "log", since nothing
// is delivered then; never an owner's to another member), and
// audit_sealing, {status ("on", "off" or "failing"), key_id,
// interval_seconds, places, last_run_at, last_sealed_at, last_error,
// last_error_at, refused (why the organisation's chain is no longer
// sealed)}.
func (d *Registry) diagnostics(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller) (any, error) {
	cfg := d.cfg()
	level, err := d.store.MigrationLevel(ctx)
	if err != nil {
		return nil, err
	}
	storage := cfg.Storage
	if storage == "" {
		storage = "not configured"
	}
	out := map[string]any{
		"version":     cfg.Version,
		"database":    d.store.Backend(),
		"migration":   level,
		"storage":     storage,
		"mail_sender": cfg.MailSender,
		"realtime":    "not configured",
	}
	if !c.IsAdmin() {
		return out, nil
	}
	// The sealing of the audit trail. Its error names no organisation (it
	// may name a path); of the refusals only the caller's own is shown.
	state, st := sealingState(cfg.Sealer)
	sealing := map[string]any{"status": state, "key_id": nil, "interval_seconds": nil, "places": []string{},
		"last_run_at": nullTime(st.LastRun), "last_sealed_at": nullTime(st.LastSealed), "last_error": nil, "last_error_at": nullTime(st.ErrorAt), "refused": nil}
	if cfg.Sealer != nil {
		sealing["key_id"], sealing["interval_seconds"], sealing["places"] = st.KeyID, int64(st.Interval/time.Second), st.Places
	}
	if st.Error != "" {
		sealing["last_error"] = st.Error
	}
	if r, ok := st.Refused[c.OrgID]; ok {
		sealing["refused"] = r
	}
	out["audit_sealing"] = sealing
	msgs, err := tx.OrgMail(ctx, c.OrgID, OutboxDiagnosticsLimit)
	if err != nil {
		return nil, err
	}
	// Without SMTP nothing is delivered: the links are shown so that an
	// administrator can pass them on; never an owner's to anyone else
	// (a recovery link is the account).
	withheld := map[string]bool{}
	if c.Member != fairbalance.RoleOwner {
		members, err := tx.OrgMembers(ctx, c.OrgID)
		if err != nil {
			return nil, err
		}
		for _, p := range members {
			if p.Role != fairbalance.RoleOwner {
				continue
			}
			u, err := tx.UserByID(ctx, p.ID)
			if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
				return nil, err
			}
			if u != nil {
				withheld[strings.ToLower(u.Email)] = true
			}
		}
	}
	box := make([]map[string]any, 0, len(msgs))
	for _, m := range msgs {
		var sent any
		if m.SentAt != nil {
			sent = m.SentAt.UTC()
		}
		links := []string{}
		if cfg.MailSender == "log" && !withheld[strings.ToLower(m.To)] {
			links = mailLinks(m.Text)
		}
		box = append(box, map[string]any{"id": m.ID, "to": m.To, "subject": m.Subject, "kind": m.Kind, "status": m.Status,
			"attempts": m.Attempts, "created_at": m.CreatedAt, "sent_at": sent, "last_error": m.LastError, "links": links})
	}
	out["outbox"] = box
	return out, nil
}

// linkRE finds the web addresses of a plain-text e-mail we wrote: each
// link stands alone, up to white space or a closing bracket.
var linkRE = regexp.MustCompile(`https?://[^\s<>"'()\[\]]+`)

// mailLinks lists the distinct links of an e-mail's text, in order.
func mailLinks(text string) []string {
	out := []string{}
	for _, l := range linkRE.FindAllString(text, -1) {
		l = strings.TrimRight(l, ".,;:!?")
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// PilotStep is one step of the pilot checklist.
type PilotStep struct {
	Key    string `json:"key"`
	Title  string `json:"title"`
	Done   bool   `json:"done"`
	Detail string `json:"detail"`
}

// PilotStatus is pilot_status()'s answer.
type PilotStatus struct {
	Steps     []PilotStep `json:"steps"`
	DoneCount int         `json:"done_count"`
	Total     int         `json:"total"`
}

// nullTime is t in UTC, or nil when zero.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

func day(t time.Time) string { return t.UTC().Format("2 January 2006") }

// pilotStatus ticks the pilot checklist from the organisation's data. The
// steps of capabilities not built yet are never done, and say so in their
// detail ("Available when … is built").
func (d *Registry) pilotStatus(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller) (any, error) {
	org, err := tx.OrgByID(ctx, c.OrgID)
	if err != nil {
		return nil, err
	}
	f, err := tx.PilotFacts(ctx, c.OrgID)
	if err != nil {
		return nil, err
	}
	ws, err := tx.WorkspaceSettings(ctx)
	if err != nil {
		return nil, err
	}
	verified, err := tx.ListAudit(ctx, fairbalance.AuditFilter{OrgID: c.OrgID, Action: fairbalance.ActionAuditChainVerified, Limit: 1})
	if err != nil {
		return nil, err
	}
	var steps []PilotStep
	add := func(key, title string, done bool, detail string) {
		steps = append(steps, PilotStep{Key: key, Title: title, Done: done, Detail: detail})
	}

	add("org_created", "Create the organisation", true, fmt.Sprintf("%s, created %s", org.Name, day(org.CreatedAt)))

	others := max(f.Members-1, 0)
	add("members_invited", "Invite at least two colleagues", f.Invited >= 2 || others >= 2,
		fmt.Sprintf("%d invited, %d %s besides the creator", f.Invited, others, plural(others, "member", "members")))

	var missing []string
	for _, r := range []string{fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory} {
		if f.Roles[r] == 0 {
			missing = append(missing, roleLabels[r])
		}
	}
	detail := "Medical, legal and regulatory reviewers have joined"
	if len(missing) > 0 {
		detail = "Still missing: " + strings.Join(missing, ", ")
	}
	add("reviewers_joined", "A medical, a legal and a regulatory reviewer have joined", len(missing) == 0, detail)

	add("admin_mfa", "Every administrator uses two-factor authentication", f.Admins > 0 && f.AdminsWithMFA == f.Admins,
		fmt.Sprintf("%d of %d %s use two-factor authentication", f.AdminsWithMFA, f.Admins, plural(f.Admins, "administrator", "administrators")))

	detail = "Open Settings → Security and save the workspace settings once"
	if ws.UpdatedBy != "" {
		detail = "Last changed " + day(ws.UpdatedAt)
	}
	add("security_reviewed", "Review the workspace security settings", ws.UpdatedBy != "", detail)

	detail = "Run the chain verification on the Audit Log screen"
	if len(verified) > 0 {
		detail = "Verified on " + day(verified[0].CreatedAt)
	}
	add("audit_verified", "Verify the audit trail", len(verified) > 0, detail)

	detail = "No product yet: add one with its safety information under Settings"
	if f.Products > 0 {
		detail = fmt.Sprintf("%d %s", f.Products, plural(f.Products, "product", "products"))
	}
	add("first_product", "Add the first product", f.Products > 0, detail)

	detail = "No asset yet: compose or upload one in the Content Hub"
	if f.Assets > 0 {
		detail = fmt.Sprintf("%d %s", f.Assets, plural(f.Assets, "asset", "assets"))
	}
	add("first_asset", "Create the first asset", f.Assets > 0, detail)
	add("first_review", "Submit the first review", false, "Available when the review workflow is built")
	add("first_esign_approval", "Approve with an electronic signature", false, "Available when e-signatures are built")

	out := PilotStatus{Steps: steps, Total: len(steps)}
	for _, s := range steps {
		if s.Done {
			out.DoneCount++
		}
	}
	return out, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
