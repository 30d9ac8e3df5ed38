// Package mail delivers the e-mails of the outbox.
//
// Services never talk to a mail server. They enqueue a
// [fairbalance.MailMessage] in the same transaction as the change it reports
// (see fairbalance.IdentityStore.EnqueueMail). The [Outbox] then hands every
// due message to a [Sender] and records the outcome in the store: "sent"
// when an SMTP server accepted it, "logged" when the sender only wrote it to
// the log, and, after [MaxAttempts] failed attempts spaced by [RetryDelay],
// "failed".
//
// The server drives the Outbox from its durable job queue (package jobs):
// each message gets a delivery job in the transaction that enqueues it, and
// the job calls [Outbox.DeliverMessage], so that several instances on one
// database never send a message twice. [Outbox.Run] with [Outbox.Notify] is
// the stand-alone loop, for one process per database.
//
// Delivery is at least once: a message whose outcome could not be recorded
// (the process stopped, the database was unreachable) is sent again later.
package mail

import (
	"context"
	"log/slog"
	"strings"

	"fairbalance"
)

// Sender hands one message to a mail transport.
//
// Send returns nil once the transport has taken responsibility for the
// message; any error means it was not delivered and may be retried. The
// error text is stored in the outbox and shown to administrators, so it
// must not contain secrets such as credentials. Send must honour ctx and be
// safe for concurrent use.
type Sender interface {
	Send(ctx context.Context, m *fairbalance.MailMessage) error
}

// LogOnlySender is implemented by a Sender that does not deliver mail but
// only writes it to the log. The Outbox marks a message handed successfully
// to such a sender "logged" instead of "sent".
type LogOnlySender interface {
	Sender
	// LogsOnly reports whether the sender only logs messages.
	LogsOnly() bool
}

// IsLogOnly reports whether s only writes messages to the log instead of
// delivering them (see [LogOnlySender]).
func IsLogOnly(s Sender) bool {
	l, ok := s.(LogOnlySender)
	return ok && l.LogsOnly()
}

// NewLogSender returns the default Sender, for installations without SMTP:
// it writes every message to log at level Info, with its recipient,
// subject, kind and full plain-text body (so that an operator can read
// confirmation links from the log), and never fails. The HTML part is not
// logged. A nil log means slog.Default(). The sender is a [LogOnlySender],
// so the Outbox marks its messages "logged".
func NewLogSender(log *slog.Logger) Sender {
	if log == nil {
		log = slog.Default()
	}
	return &logSender{log: log}
}

type logSender struct{ log *slog.Logger }

func (s *logSender) LogsOnly() bool { return true }

func (s *logSender) Send(ctx context.Context, m *fairbalance.MailMessage) error {
	s.log.InfoContext(ctx, "mail not sent (no SMTP configured), logged instead",
		slog.Int64("id", m.ID),
		slog.String("to", m.To),
		slog.String("subject", m.Subject),
		slog.String("kind", m.Kind),
		slog.String("text", m.Text),
	)
	return nil
}

// NewSender returns the Sender for a configured SMTP URL: [NewLogSender]
// when rawURL is empty or blank, and [NewSMTPSender] otherwise.
func NewSender(rawURL string, log *slog.Logger) (Sender, error) {
	if strings.TrimSpace(rawURL) == "" {
		return NewLogSender(log), nil
	}
	return NewSMTPSender(strings.TrimSpace(rawURL))
}
