package service

import (
	"bytes"
	"context"
	htmltemplate "html/template"
	"net/url"
	texttemplate "text/template"

	"fairbalance"
)

// mailKind is one of the identity service's e-mails.
type mailKind struct {
	name    string
	subject string
	intro   string // what happened, one sentence
	action  string // the button label; "" for code-only mails
	outro   string
}

var (
	mailConfirmation = mailKind{"confirmation", "Confirm your Fairbalance account", "Thanks for signing up for Fairbalance. Confirm your e-mail address to activate your account.", "Confirm e-mail address", "If you did not sign up, you can ignore this e-mail."}
	mailInvite       = mailKind{"invite", "You have been invited to Fairbalance", "You have been invited to join a Fairbalance workspace.", "Accept the invitation", "If you were not expecting this invitation, you can ignore this e-mail."}
	mailMagicLink    = mailKind{"magiclink", "Your Fairbalance sign-in link", "Use this link to sign in to Fairbalance.", "Sign in", "If you did not ask to sign in, you can ignore this e-mail."}
	mailRecovery     = mailKind{"recovery", "Reset your Fairbalance password", "We received a request to reset the password of your Fairbalance account. The link is valid for 24 hours.", "Reset password", "If you did not ask for a password reset, you can ignore this e-mail; your password stays as it is."}
	mailChangeNew    = mailKind{"email_change", "Confirm your new e-mail address", "Confirm that this address should become the e-mail address of your Fairbalance account.", "Confirm new address", "If you did not ask for this change, you can ignore this e-mail."}
	mailChangeOld    = mailKind{"email_change_current", "Confirm the change of your e-mail address", "Someone asked to change the e-mail address of your Fairbalance account. Confirm the change from this address too.", "Confirm the change", "If you did not ask for this change, change your password and contact your administrator."}
	mailReauth       = mailKind{"reauthentication", "Your Fairbalance verification code", "Enter this code in Fairbalance to confirm that it is you.", "", "If you did not ask for a code, change your password and contact your administrator."}
)

var mailText = texttemplate.Must(texttemplate.New("t").Parse(`{{.Kind.intro}}
{{if .Link}}
{{.Kind.action}}: {{.Link}}
{{end}}
{{if .Code}}Or enter this code: {{.Code}}
{{end}}
{{.Kind.outro}}

— Fairbalance
`))

var mailHTML = htmltemplate.Must(htmltemplate.New("h").Parse(`<!doctype html>
<html lang="en"><body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px;padding:32px">
<tr><td style="font-size:18px;font-weight:600;padding-bottom:16px">Fairbalance</td></tr>
<tr><td style="font-size:15px;line-height:1.6;padding-bottom:24px">{{.Kind.intro}}</td></tr>
{{if .Link}}<tr><td style="padding-bottom:24px"><a href="{{.Link}}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">{{.Kind.action}}</a></td></tr>{{end}}
{{if .Code}}<tr><td style="font-size:15px;padding-bottom:24px">Or enter this code: <strong style="font-size:20px;letter-spacing:4px">{{.Code}}</strong></td></tr>{{end}}
<tr><td style="font-size:13px;color:#52606d;line-height:1.5">{{.Kind.outro}}</td></tr>
</table></td></tr></table></body></html>
`))

// verifyLink is the e-mail link for a one-time token hash.
func (s *Identity) verifyLink(tokenHash, typ, redirectTo string) string {
	return s.cfg.SiteURL + "/auth/v1/verify?token=" + url.QueryEscape(tokenHash) + "&type=" + url.QueryEscape(typ) +
		"&redirect_to=" + url.QueryEscape(s.redirect(redirectTo))
}

// renderMail renders an e-mail of kind k with an optional link and code.
func renderMail(k mailKind, link, code string) (text, html string, err error) {
	d := struct {
		Kind map[string]string
		Link string
		Code string
	}{map[string]string{"intro": k.intro, "action": k.action, "outro": k.outro}, link, code}
	var t, h bytes.Buffer
	if err := mailText.Execute(&t, d); err != nil {
		return "", "", err
	}
	if err := mailHTML.Execute(&h, d); err != nil {
		return "", "", err
	}
	return t.String(), h.String(), nil
}

// enqueue renders an identity e-mail and puts it in the outbox inside tx.
func (s *Identity) enqueue(ctx context.Context, tx fairbalance.Tx, to string, k mailKind, link, code string) error {
	text, html, err := renderMail(k, link, code)
	if err != nil {
		return err
	}
	now := s.Now()
	return tx.EnqueueMail(ctx, &fairbalance.MailMessage{
		To: to, Subject: k.subject, Text: text, HTML: html, Kind: k.name,
		Status: "pending", CreatedAt: now, NextAttemptAt: now,
	})
}
