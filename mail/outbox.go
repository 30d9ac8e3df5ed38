package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"fairbalance"
)

// Outbox delivery parameters.
const (
	// MaxAttempts is the number of failed attempts after which a message
	// is marked "failed" and no longer retried.
	MaxAttempts = 8
	// BatchSize is the number of due messages taken from the store at once.
	BatchSize = 20
	// PollInterval is how often Run looks for due messages when not
	// woken by Notify.
	PollInterval = 2 * time.Second

	firstRetryDelay = 30 * time.Second
	maxRetryDelay   = time.Hour
	// maxErrorLen bounds MailMessage.LastError, in bytes.
	maxErrorLen = 1000
	// recordTimeout bounds recording one outcome, which is done even when
	// the context of the delivery has been cancelled.
	recordTimeout = 10 * time.Second
)

// Message statuses written by the Outbox.
const (
	StatusPending = "pending"
	StatusSent    = "sent"
	StatusLogged  = "logged"
	StatusFailed  = "failed"
)

// RetryDelay is the back-off after a message's failed attempt number
// attempts (1 for the first failure): 30 s, 1 min, 2 min, 4 min and so on,
// doubling, at most one hour.
func RetryDelay(attempts int) time.Duration {
	d := firstRetryDelay
	for i := 1; i < attempts && d < maxRetryDelay; i++ {
		d *= 2
	}
	return min(d, maxRetryDelay)
}

// Outbox delivers the pending messages of a MailStore through a Sender and
// records each outcome in the store.
//
// Create it with NewOutbox, start Run in its own goroutine and call Notify
// after every committed transaction that enqueued mail. Its methods are
// safe for concurrent use; delivery passes never overlap within one Outbox.
type Outbox struct {
	store  fairbalance.MailStore
	sender Sender
	log    *slog.Logger

	wake chan struct{}
	mu   sync.Mutex // serialises delivery passes

	// Replaced by tests only.
	now      func() time.Time
	interval time.Duration
}

// NewOutbox returns an Outbox that delivers the messages of store through
// sender and logs delivery failures to log. A nil sender means
// NewLogSender(log); a nil log means slog.Default().
func NewOutbox(store fairbalance.MailStore, sender Sender, log *slog.Logger) *Outbox {
	if log == nil {
		log = slog.Default()
	}
	if sender == nil {
		sender = NewLogSender(log)
	}
	return &Outbox{
		store:    store,
		sender:   sender,
		log:      log,
		wake:     make(chan struct{}, 1),
		now:      time.Now,
		interval: PollInterval,
	}
}

// Notify wakes Run for a delivery pass as soon as possible. It never
// blocks; wake-ups that arrive while one is already pending are merged.
// Call it after the transaction that enqueued mail has committed (before,
// Run could look for the message before it is visible).
func (o *Outbox) Notify() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Run delivers due messages until ctx is done: right away, then whenever
// Notify is called and at least every PollInterval. A pass takes batches
// of BatchSize until fewer are due. Store errors and panics are logged and
// never end the loop. Run returns once ctx is done and the current pass has
// stopped; a message interrupted by the cancellation stays pending.
func (o *Outbox) Run(ctx context.Context) {
	t := time.NewTicker(o.interval)
	defer t.Stop()
	for {
		o.pass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-o.wake:
		case <-t.C:
		}
	}
}

// pass runs DeliverDue until a batch is not full, an error occurs or ctx
// is done.
func (o *Outbox) pass(ctx context.Context) {
	for ctx.Err() == nil {
		taken, err := o.safeDeliver(ctx)
		if err != nil {
			if ctx.Err() == nil {
				o.log.ErrorContext(ctx, "mail outbox: delivery pass failed", slog.Any("error", err))
			}
			return
		}
		if taken < BatchSize {
			return
		}
	}
}

// safeDeliver is one deliverBatch whose panics become errors.
func (o *Outbox) safeDeliver(ctx context.Context) (taken int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	taken, _, err = o.deliverBatch(ctx)
	return taken, err
}

// DeliverDue makes one attempt at each message that is due now, up to
// BatchSize of them, oldest first, and returns how many were delivered
// (marked "sent" or "logged").
//
// A message the sender refuses, or whose Send panics, stays "pending" with
// Attempts increased, LastError set and its next attempt RetryDelay(Attempts)
// later; at MaxAttempts failed attempts it becomes "failed". A delivered
// message gets SentAt and an empty LastError; Attempts counts failures only.
// The error reports store failures (listing or recording; the remaining
// messages of the batch are still tried) and is not about refused messages.
// When ctx is cancelled DeliverDue stops and leaves the messages not yet
// sent pending, without counting an attempt.
func (o *Outbox) DeliverDue(ctx context.Context) (int, error) {
	_, delivered, err := o.deliverBatch(ctx)
	return delivered, err
}

// DeliverMessage makes one attempt at the message id when it is pending
// and due, as DeliverDue does for each message it takes, and says when the
// message needs its next attempt: the zero time once nothing more is to be
// done (delivered, failed for good, no longer in the outbox), else the time
// the message's next attempt is due (after a refusal, or because it was
// not due yet, or because ctx was cancelled during the attempt). The error
// reports store failures only; a message the sender refuses is recorded
// as DeliverDue records it.
//
// The job queue calls it, once per message and never twice at a time for
// one message (its jobs are locked while they run), so that several
// instances on one database never send a message twice.
func (o *Outbox) DeliverMessage(ctx context.Context, id int64) (next time.Time, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	m, err := o.store.MailByID(ctx, id)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("mail outbox: message %d: %w", id, err)
	}
	if m.Status != StatusPending {
		return time.Time{}, nil
	}
	if m.NextAttemptAt.After(o.now()) {
		return m.NextAttemptAt, nil
	}
	if _, err := o.deliverOne(ctx, m); err != nil {
		return time.Time{}, err
	}
	if m.Status != StatusPending {
		return time.Time{}, nil
	}
	return m.NextAttemptAt, nil
}

// DueMessages lists the ids of up to limit pending messages whose next
// attempt is due at now, oldest first.
func (o *Outbox) DueMessages(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	due, err := o.store.DueMail(ctx, now, limit)
	if err != nil {
		return nil, fmt.Errorf("mail outbox: due messages: %w", err)
	}
	ids := make([]int64, len(due))
	for i, m := range due {
		ids[i] = m.ID
	}
	return ids, nil
}

func (o *Outbox) deliverBatch(ctx context.Context) (taken, delivered int, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	due, err := o.store.DueMail(ctx, o.now(), BatchSize)
	if err != nil {
		return 0, 0, fmt.Errorf("mail outbox: due messages: %w", err)
	}
	var errs []error
	for _, m := range due {
		if ctx.Err() != nil {
			break
		}
		taken++
		ok, err := o.deliverOne(ctx, m)
		if ok {
			delivered++
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return taken, delivered, errors.Join(errs...)
}

// deliverOne sends m and records the outcome. ok reports delivery; err a
// failure to record the outcome (or a panic outside Send).
func (o *Outbox) deliverOne(ctx context.Context, m *fairbalance.MailMessage) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			ok, err = false, fmt.Errorf("mail outbox: message %d: panic: %v", m.ID, r)
			o.log.ErrorContext(ctx, "mail outbox: panic", slog.Int64("id", m.ID), slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	sendErr := o.send(ctx, m)
	if sendErr != nil && ctx.Err() != nil {
		// Shutting down: not the message's fault, try again next time.
		return false, nil
	}
	now := o.now()
	if sendErr == nil {
		m.Status = StatusSent
		if IsLogOnly(o.sender) {
			m.Status = StatusLogged
		}
		m.SentAt = &now
		m.LastError = ""
	} else {
		m.Attempts++
		m.LastError = truncate(sendErr.Error(), maxErrorLen)
		if m.Attempts >= MaxAttempts {
			m.Status = StatusFailed
			o.log.ErrorContext(ctx, "mail outbox: message failed permanently",
				slog.Int64("id", m.ID), slog.String("to", m.To), slog.String("kind", m.Kind),
				slog.Int("attempts", m.Attempts), slog.String("error", m.LastError))
		} else {
			m.Status = StatusPending
			m.NextAttemptAt = now.Add(RetryDelay(m.Attempts))
			o.log.WarnContext(ctx, "mail outbox: delivery failed, will retry",
				slog.Int64("id", m.ID), slog.String("to", m.To), slog.String("kind", m.Kind),
				slog.Int("attempts", m.Attempts), slog.Time("next_attempt_at", m.NextAttemptAt),
				slog.String("error", m.LastError))
		}
	}
	// Record even if ctx was cancelled meanwhile: the message was handed over.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := o.store.UpdateMail(rctx, m); err != nil {
		return sendErr == nil, fmt.Errorf("mail outbox: record message %d as %s: %w", m.ID, m.Status, err)
	}
	return sendErr == nil, nil
}

// send calls the sender, turning a panic into an error.
func (o *Outbox) send(ctx context.Context, m *fairbalance.MailMessage) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in mail sender: %v", r)
			o.log.ErrorContext(ctx, "mail outbox: sender panicked", slog.Int64("id", m.ID), slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	return o.sender.Send(ctx, m)
}

// truncate makes s valid UTF-8 and cuts it to at most n bytes, marking a
// cut with an ellipsis.
func truncate(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	s = s[:n-len(ellipsis)]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + ellipsis
}
