package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// The review workflow's notifications by e-mail. Every notification is
// written in the transaction of the move it tells about; when the
// recipient's notification preferences allow it (fairbalance's
// EmailPreference of its kind), its e-mail is put in the outbox in that
// same transaction — the job queue's delivery job with it — and the
// notification's emailed_at is set. A notification skipped as a duplicate
// (its dedupe key taken: a sweep run again) sends nothing. Demo members
// and members without an address, deactivated or banned get no e-mail.

// addNotice adds notification n and, when it was added and its recipient
// wants it by e-mail, its e-mail. It reports whether n was added (false:
// its DedupeKey was taken).
func (rv *Reviews) addNotice(ctx context.Context, tx fairbalance.Tx, n *fairbalance.Notification) (bool, error) {
	if n.ID == "" {
		n.ID = auth.NewUUID()
	}
	msg, err := rv.noticeMail(ctx, tx, n)
	if err != nil {
		return false, err
	}
	if msg != nil {
		at := n.CreatedAt.UTC()
		n.EmailedAt = &at
	}
	added, err := addNotification(ctx, tx, n)
	if err != nil || !added || msg == nil {
		return added, err
	}
	return true, tx.EnqueueMail(ctx, msg)
}

// noticeMail is the e-mail of n, or nil when its recipient is not to get
// one.
func (rv *Reviews) noticeMail(ctx context.Context, tx fairbalance.Tx, n *fairbalance.Notification) (*fairbalance.MailMessage, error) {
	pref := n.Kind.EmailPreference()
	if pref == "" || n.OrgID == fairbalance.DemoOrgID {
		return nil, nil
	}
	on, err := wantsEmail(ctx, tx, n.UserID, pref)
	if err != nil || !on {
		return nil, err
	}
	u, err := tx.UserByID(ctx, n.UserID)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if u.Email == "" || (u.BannedUntil != nil && u.BannedUntil.After(n.CreatedAt)) {
		return nil, nil
	}
	if p, err := tx.ProfileByID(ctx, n.UserID); err == nil && p.DeactivatedAt != nil {
		return nil, nil
	} else if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return nil, err
	}
	k := noticeMailKind(n)
	link := rv.reg.cfg().SiteURL + "/"
	if n.AssetID != nil {
		link = rv.reg.cfg().SiteURL + "/assets/" + *n.AssetID
	}
	text, html, err := renderMail(k, link, "")
	if err != nil {
		return nil, err
	}
	// Due at once by the wall clock, which the outbox goes by (a sweep's
	// time is the job queue's clock).
	sent := time.Now().UTC()
	return &fairbalance.MailMessage{To: u.Email, Subject: k.subject, Text: text, HTML: html, Kind: k.name, Status: "pending",
		CreatedAt: sent, NextAttemptAt: sent, OrgID: n.OrgID}, nil
}

// wantsEmail reads userID's switch pref; without saved preferences the
// default applies.
func wantsEmail(ctx context.Context, tx fairbalance.Tx, userID, pref string) (bool, error) {
	rows, err := readDBRows(ctx, tx, "notification_preferences", condEq("user_id", userID), 1, selCol(pref, fairbalance.TypeBoolean))
	if err != nil || len(rows) == 0 {
		return fairbalance.EmailPreferenceDefault, err
	}
	on, ok := rows[0][pref].(bool)
	return !ok || on, nil
}

// noticeMailKind words the e-mail of n: its title as the subject, its
// title and body as the text, a button to the asset.
func noticeMailKind(n *fairbalance.Notification) mailKind {
	intro := strings.TrimSpace(n.Title)
	if intro != "" && !strings.ContainsAny(intro[len(intro)-1:], ".!?") {
		intro += "."
	}
	if body := strings.TrimSpace(n.Body); body != "" {
		intro += " " + body
	}
	button := "Open Fairbalance"
	if n.AssetID != nil {
		button = "Open the asset"
	}
	return mailKind{
		name:    "notification_" + string(n.Kind),
		subject: oneLine(n.Title, 150),
		intro:   intro,
		action:  button,
		outro:   "You receive this e-mail because of your notification preferences; change them in Fairbalance under Settings, Notifications.",
	}
}
