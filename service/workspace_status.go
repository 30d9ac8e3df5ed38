package service

import (
	"context"
	"fmt"
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

// verifyOnce verifies orgID's chain; callers arriving while a run for the
// same organisation is in progress wait for it and share its outcome, so
// asking repeatedly never stacks up full scans.
func (d *Registry) verifyOnce(ctx context.Context, store fairbalance.AuditStore, orgID string) (fairbalance.AuditVerification, error) {
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
			run.v, run.err = store.VerifyAudit(context.WithoutCancel(ctx), orgID)
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
// (outside any write transaction) and then, except for demo sessions,
// records the outcome as an entry of that chain (audit_chain_verified, or
// audit_chain_verification_failed) in a transaction of its own. The result
// is {ok, checked, first_broken_id, head_id, head_hash, reason, verified_at}:
// checked is the number of entries read; first_broken_id and reason are
// null when ok; head_id is the last entry as the chain head records it
// (the recording entry comes after it).
func (d *Registry) verifyChain(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller) (any, error) {
	v, err := d.verifyOnce(ctx, tx, c.OrgID)
	if err != nil {
		return nil, err
	}
	at := d.Now()
	out := map[string]any{"ok": v.OK, "checked": v.Entries, "first_broken_id": nil, "head_id": v.HeadID, "head_hash": v.HeadHash, "reason": nil, "verified_at": at}
	if !v.OK {
		out["first_broken_id"], out["reason"] = v.BrokenAt, v.Reason
	}
	if c.Demo {
		return out, nil
	}
	action := fairbalance.ActionAuditChainVerified
	if !v.OK {
		action = fairbalance.ActionAuditChainBroken
	}
	meta := map[string]any{"ok": v.OK, "checked": v.Entries, "head_id": v.HeadID, "head_hash": v.HeadHash, "first_broken_id": out["first_broken_id"], "reason": out["reason"]}
	err = d.store.Tx(ctx, func(tx fairbalance.Tx) error {
		return appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: action, ObjectType: "audit_chain", ObjectID: c.OrgID, Meta: mustRaw(meta), CreatedAt: at})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// OutboxDiagnosticsLimit is how many e-mails diagnostics() lists.
const OutboxDiagnosticsLimit = 20

// diagnostics is diagnostics(): {version, database, migration, storage,
// mail_sender, realtime} for every signed-in caller, and for owners and
// admins also outbox, their organisation's last e-mails as {id, to,
// subject, kind, status, attempts, created_at, sent_at, last_error}.
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
	msgs, err := tx.OrgMail(ctx, c.OrgID, OutboxDiagnosticsLimit)
	if err != nil {
		return nil, err
	}
	box := make([]map[string]any, 0, len(msgs))
	for _, m := range msgs {
		var sent any
		if m.SentAt != nil {
			sent = m.SentAt.UTC()
		}
		box = append(box, map[string]any{"id": m.ID, "to": m.To, "subject": m.Subject, "kind": m.Kind, "status": m.Status,
			"attempts": m.Attempts, "created_at": m.CreatedAt, "sent_at": sent, "last_error": m.LastError})
	}
	out["outbox"] = box
	return out, nil
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

func day(t time.Time) string { return t.UTC().Format("2 January 2006") }

// pilotStatus ticks the pilot checklist from the organisation's data. The
// steps of capabilities not built yet are never done.
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

	add("first_product", "Add the first product", false, "Available when products are built")
	add("first_asset", "Create the first asset", false, "Available when the content hub is built")
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
