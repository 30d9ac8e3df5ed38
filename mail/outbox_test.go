package mail_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/mail"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"
)

func TestRetryDelay(t *testing.T) {
	want := map[int]time.Duration{
		0:  30 * time.Second,
		1:  30 * time.Second,
		2:  time.Minute,
		3:  2 * time.Minute,
		4:  4 * time.Minute,
		5:  8 * time.Minute,
		6:  16 * time.Minute,
		7:  32 * time.Minute,
		8:  time.Hour,
		9:  time.Hour,
		50: time.Hour,
	}
	for n, d := range want {
		if got := mail.RetryDelay(n); got != d {
			t.Errorf("RetryDelay(%d) = %v, want %v", n, got, d)
		}
	}
}

func TestLogSenderMarksLogged(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clk := newClock()
		log, logs := newLogger()
		sender := mail.NewLogSender(log)
		if !mail.IsLogOnly(sender) {
			t.Fatal("the log sender does not say that it only logs")
		}
		o := mail.NewOutbox(db, sender, log)
		mail.SetClock(o, clk.Now)
		to := address("logged")
		enqueue(t, db, newMessage(to, clk.Now()))

		n, err := o.DeliverDue(ctx)
		if err != nil || n != 1 {
			t.Fatalf("DeliverDue = %d, %v; want 1, nil", n, err)
		}
		m := stored(t, db, to)
		if m.Status != mail.StatusLogged || m.SentAt == nil || !m.SentAt.Equal(clk.Now()) || m.Attempts != 0 || m.LastError != "" {
			t.Errorf("after logging: status %q, sent at %v, attempts %d, error %q; want logged at %v",
				m.Status, m.SentAt, m.Attempts, m.LastError, clk.Now())
		}
		out := logs.String()
		for _, want := range []string{to, "Confirm your e-mail address", "confirmation", "https://fairbalance.example/auth/v1/verify?token=abc123&type=signup"} {
			if !strings.Contains(out, want) {
				t.Errorf("log lacks %q:\n%s", want, out)
			}
		}

		clk.Advance(24 * time.Hour)
		if n, err := o.DeliverDue(ctx); err != nil || n != 0 {
			t.Errorf("second DeliverDue = %d, %v; want 0, nil", n, err)
		}
	})
}

func TestDeliverDueSkipsMessagesNotDue(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clk := newClock()
		o := mail.NewOutbox(db, mail.NewLogSender(discard()), discard())
		mail.SetClock(o, clk.Now)
		to := address("later")
		m := newMessage(to, clk.Now())
		m.NextAttemptAt = clk.Now().Add(time.Minute)
		enqueue(t, db, m)

		if n, err := o.DeliverDue(ctx); err != nil || n != 0 {
			t.Fatalf("DeliverDue before due = %d, %v; want 0, nil", n, err)
		}
		if got := stored(t, db, to).Status; got != mail.StatusPending {
			t.Fatalf("status %q before due, want pending", got)
		}
		clk.Advance(time.Minute)
		if n, err := o.DeliverDue(ctx); err != nil || n != 1 {
			t.Fatalf("DeliverDue when due = %d, %v; want 1, nil", n, err)
		}
	})
}

// flakySender fails for some recipients, panics for others and otherwise
// succeeds, like a real transport.
type flakySender struct {
	panicFor string
	calls    atomic.Int32
}

func (s *flakySender) Send(_ context.Context, m *fairbalance.MailMessage) error {
	s.calls.Add(1)
	if m.To == s.panicFor {
		panic("sender bug")
	}
	return nil
}

func TestPanicInOneMessageDoesNotStopTheOthers(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clk := newClock()
		bad, good := address("panics"), address("fine")
		sender := &flakySender{panicFor: bad}
		o := mail.NewOutbox(db, sender, discard())
		mail.SetClock(o, clk.Now)
		enqueue(t, db, newMessage(bad, clk.Now()))
		enqueue(t, db, newMessage(good, clk.Now()))

		n, err := o.DeliverDue(ctx)
		if err != nil || n != 1 {
			t.Fatalf("DeliverDue = %d, %v; want 1, nil", n, err)
		}
		if m := stored(t, db, good); m.Status != mail.StatusSent {
			t.Errorf("the message after the panic: status %q, want sent", m.Status)
		}
		m := stored(t, db, bad)
		if m.Status != mail.StatusPending || m.Attempts != 1 || !strings.Contains(m.LastError, "panic") ||
			!m.NextAttemptAt.Equal(clk.Now().Add(30*time.Second)) {
			t.Errorf("the panicking message: status %q, attempts %d, error %q, next %v; want a retry in 30 s",
				m.Status, m.Attempts, m.LastError, m.NextAttemptAt)
		}
	})
}

func TestRunDeliversMoreThanOneBatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var tos []string
		for range mail.BatchSize + 5 {
			to := address("batch")
			tos = append(tos, to)
			enqueue(t, db, newMessage(to, time.Now()))
		}
		o := mail.NewOutbox(db, mail.NewLogSender(discard()), discard())
		mail.SetPollInterval(o, time.Hour) // only the first pass of Run
		done := make(chan struct{})
		go func() { defer close(done); o.Run(ctx) }()
		eventually(t, "every message is logged", func() bool {
			for _, to := range tos {
				if stored(t, db, to).Status != mail.StatusLogged {
					return false
				}
			}
			return true
		})
		cancel()
		<-done
	})
}

func TestNotifyWakesRun(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		o := mail.NewOutbox(db, mail.NewLogSender(discard()), discard())
		// No timer in this test: only Notify can start a second pass.
		mail.SetPollInterval(o, time.Hour)

		first := address("first")
		enqueue(t, db, newMessage(first, time.Now()))
		done := make(chan struct{})
		go func() { defer close(done); o.Run(ctx) }()
		eventually(t, "Run's first pass delivers the first message", func() bool {
			return stored(t, db, first).Status == mail.StatusLogged
		})

		// That pass listed the due messages before the first was marked,
		// so it cannot have seen this one.
		second := address("second")
		enqueue(t, db, newMessage(second, time.Now()))
		o.Notify()
		o.Notify() // merged, never blocks
		eventually(t, "Notify makes Run deliver the second message", func() bool {
			return stored(t, db, second).Status == mail.StatusLogged
		})

		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Fatal("Run did not return after its context was cancelled")
		}
	})
}

func TestRunSurvivesStoreErrors(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	db.Close() // every query fails from now on
	log, logs := newLogger()
	o := mail.NewOutbox(db, nil, log)
	if n, err := o.DeliverDue(context.Background()); err == nil || n != 0 {
		t.Fatalf("DeliverDue on a closed store = %d, %v; want an error", n, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mail.SetPollInterval(o, time.Hour)
	done := make(chan struct{})
	go func() { defer close(done); o.Run(ctx) }()
	eventually(t, "Run goes on after failed passes", func() bool {
		o.Notify()
		return strings.Count(logs.String(), "delivery pass failed") >= 3
	})
	select {
	case <-done:
		t.Fatal("Run returned before its context was cancelled")
	default:
	}
	cancel()
	<-done
}

func TestDeliverDueStopsWhenCancelled(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		clk := newClock()
		to := address("cancelled")
		enqueue(t, db, newMessage(to, clk.Now()))
		ctx, cancel := context.WithCancel(context.Background())
		sender := senderFunc(func(ctx context.Context, m *fairbalance.MailMessage) error {
			cancel() // the process is shutting down while sending
			return ctx.Err()
		})
		o := mail.NewOutbox(db, sender, discard())
		mail.SetClock(o, clk.Now)
		if n, _ := o.DeliverDue(ctx); n != 0 {
			t.Fatalf("DeliverDue = %d, want 0", n)
		}
		m := stored(t, db, to)
		if m.Status != mail.StatusPending || m.Attempts != 0 || !m.NextAttemptAt.Equal(clk.Now()) {
			t.Errorf("after an interrupted send: status %q, attempts %d, next %v; want unchanged and due",
				m.Status, m.Attempts, m.NextAttemptAt)
		}
	})
}

type senderFunc func(ctx context.Context, m *fairbalance.MailMessage) error

func (f senderFunc) Send(ctx context.Context, m *fairbalance.MailMessage) error { return f(ctx, m) }

func TestNewSender(t *testing.T) {
	s, err := mail.NewSender("  ", nil)
	if err != nil || !mail.IsLogOnly(s) {
		t.Errorf("NewSender(blank) = %T, %v; want the log sender", s, err)
	}
	s, err = mail.NewSender("smtp://mail.example.test", nil)
	if err != nil || mail.IsLogOnly(s) {
		t.Errorf("NewSender(smtp URL) = %T, %v; want an SMTP sender", s, err)
	}
	if _, err := mail.NewSender("http://mail.example.test", nil); err == nil {
		t.Error("NewSender accepted an http URL")
	}
	if mail.IsLogOnly(senderFunc(nil)) {
		t.Error("IsLogOnly is true for a plain Sender")
	}
}
