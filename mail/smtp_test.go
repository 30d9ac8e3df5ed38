package mail_test

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"fairbalance/mail"
	"fairbalance/sqlstore"

	"github.com/emersion/go-smtp"
)

// parsed is a received message taken apart.
type parsed struct {
	Header netmail.Header
	Parts  map[string]string // media type → decoded body, CRLF as LF
}

func parseMessage(t *testing.T, data []byte) parsed {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("received message: %v\n%s", err, data)
	}
	p := parsed{Header: msg.Header, Parts: map[string]string{}}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type: %v", err)
	}
	if mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q, want multipart/alternative\n%s", mt, data)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("MIME part: %v", err)
		}
		pt, pparams, err := mime.ParseMediaType(part.Header.Get("Content-Type"))
		if err != nil {
			t.Fatalf("part Content-Type: %v", err)
		}
		if !strings.EqualFold(pparams["charset"], "utf-8") {
			t.Errorf("part %s has charset %q, want UTF-8", pt, pparams["charset"])
		}
		body, err := io.ReadAll(part)
		if err != nil {
			t.Fatal(err)
		}
		p.Parts[pt] = strings.ReplaceAll(string(body), "\r\n", "\n")
	}
	return p
}

func (p parsed) decoded(t *testing.T, name string) string {
	t.Helper()
	v, err := new(mime.WordDecoder).DecodeHeader(p.Header.Get(name))
	if err != nil {
		t.Fatalf("header %s: %v", name, err)
	}
	return v
}

func TestSMTPDelivery(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		srv := startSMTP(t, smtpOptions{})
		sender, err := mail.NewSMTPSender("smtp://127.0.0.1:" + srv.Port + "?from=Fairbalance%20Review%20%3Cnoreply@fairbalance.example%3E")
		if err != nil {
			t.Fatal(err)
		}
		if mail.IsLogOnly(sender) {
			t.Fatal("the SMTP sender says it only logs")
		}
		clk := newClock()
		o := mail.NewOutbox(db, sender, discard())
		mail.SetClock(o, clk.Now)
		to := address("smtp")
		m := newMessage(to, clk.Now())
		m.Subject = "Bestätigen Sie Ihre E-Mail-Adresse"
		m.Text = "Grüß Gott,\n\nbitte bestätigen: https://fairbalance.example/auth/v1/verify?token=" + strings.Repeat("x", 90) + "&type=signup\n"
		enqueue(t, db, m)

		n, err := o.DeliverDue(ctx)
		if err != nil || n != 1 {
			t.Fatalf("DeliverDue = %d, %v; want 1, nil (last error %q)", n, err, stored(t, db, to).LastError)
		}
		got := stored(t, db, to)
		if got.Status != mail.StatusSent || got.SentAt == nil || !got.SentAt.Equal(clk.Now()) || got.Attempts != 0 {
			t.Errorf("after sending: status %q, sent at %v, attempts %d", got.Status, got.SentAt, got.Attempts)
		}

		rs := srv.Received()
		if len(rs) != 1 {
			t.Fatalf("server received %d messages, want 1", len(rs))
		}
		r := rs[0]
		if len(r.To) != 1 || r.To[0] != to {
			t.Errorf("envelope recipients %q, want [%s]", r.To, to)
		}
		if r.From != "noreply@fairbalance.example" {
			t.Errorf("envelope sender %q", r.From)
		}
		p := parseMessage(t, r.Data)
		if got := p.decoded(t, "Subject"); got != m.Subject {
			t.Errorf("Subject %q, want %q", got, m.Subject)
		}
		if to2, err := p.Header.AddressList("To"); err != nil || len(to2) != 1 || to2[0].Address != to {
			t.Errorf("To header %q (%v), want %s", p.Header.Get("To"), err, to)
		}
		if from, err := p.Header.AddressList("From"); err != nil || len(from) != 1 ||
			from[0].Name != "Fairbalance Review" || from[0].Address != "noreply@fairbalance.example" {
			t.Errorf("From header %q (%v)", p.Header.Get("From"), err)
		}
		if d, err := p.Header.Date(); err != nil || d.Sub(time.Now()).Abs() > time.Hour {
			t.Errorf("Date header %q (%v)", p.Header.Get("Date"), err)
		}
		if id := p.Header.Get("Message-Id"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@fairbalance.example>") {
			t.Errorf("Message-ID %q", id)
		}
		if v := p.Header.Get("Mime-Version"); v != "1.0" {
			t.Errorf("MIME-Version %q", v)
		}
		if v := p.Header.Get("Auto-Submitted"); v != "auto-generated" {
			t.Errorf("Auto-Submitted %q", v)
		}
		if got := strings.TrimRight(p.Parts["text/plain"], "\n"); got != strings.TrimRight(m.Text, "\n") {
			t.Errorf("text part %q, want %q", got, m.Text)
		}
		if got := strings.TrimRight(p.Parts["text/html"], "\n"); got != m.HTML {
			t.Errorf("HTML part %q, want %q", got, m.HTML)
		}
	})
}

func TestSMTPAuthAndDefaultFrom(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		const password = "p@ss:w/rd s3cret"
		srv := startSMTP(t, smtpOptions{user: "relay-user", pass: password})
		clk := newClock()

		// A wrong password: a failed attempt whose error has no secret.
		wrong, err := mail.NewSMTPSender("smtp://relay-user:wrong-s3cret-value@127.0.0.1:" + srv.Port)
		if err != nil {
			t.Fatal(err)
		}
		o := mail.NewOutbox(db, wrong, discard())
		mail.SetClock(o, clk.Now)
		to := address("auth")
		enqueue(t, db, newMessage(to, clk.Now()))
		if n, err := o.DeliverDue(ctx); err != nil || n != 0 {
			t.Fatalf("DeliverDue with a wrong password = %d, %v; want 0, nil", n, err)
		}
		m := stored(t, db, to)
		if m.Status != mail.StatusPending || m.Attempts != 1 || m.LastError == "" {
			t.Errorf("after a refused login: status %q, attempts %d, error %q", m.Status, m.Attempts, m.LastError)
		}
		if strings.Contains(m.LastError, "wrong-s3cret-value") {
			t.Errorf("the stored error reveals the password: %q", m.LastError)
		}

		// The right one, percent-encoded in the URL.
		right, err := mail.NewSMTPSender("smtp://relay-user:" + strings.NewReplacer("@", "%40", ":", "%3A", "/", "%2F", " ", "%20").Replace(password) + "@127.0.0.1:" + srv.Port)
		if err != nil {
			t.Fatal(err)
		}
		o = mail.NewOutbox(db, right, discard())
		clk.Advance(mail.RetryDelay(1))
		mail.SetClock(o, clk.Now)
		if n, err := o.DeliverDue(ctx); err != nil || n != 1 {
			t.Fatalf("DeliverDue with the right password = %d, %v; want 1, nil (%s)", n, err, stored(t, db, to).LastError)
		}
		m = stored(t, db, to)
		if m.Status != mail.StatusSent || m.Attempts != 1 || m.LastError != "" {
			t.Errorf("after sending: status %q, attempts %d, error %q", m.Status, m.Attempts, m.LastError)
		}
		rs := srv.Received()
		if len(rs) != 1 || rs[0].User != "relay-user" {
			t.Fatalf("received %+v, want one message after AUTH as relay-user", rs)
		}
		p := parseMessage(t, rs[0].Data)
		if from, err := p.Header.AddressList("From"); err != nil || len(from) != 1 ||
			from[0].Name != "Fairbalance" || from[0].Address != "no-reply@127.0.0.1" {
			t.Errorf("default From %q (%v), want Fairbalance <no-reply@127.0.0.1>", p.Header.Get("From"), err)
		}
	})
}

func TestSMTPStartTLS(t *testing.T) {
	serverTLS, roots := selfSignedTLS(t)
	srv := startSMTP(t, smtpOptions{startTLS: serverTLS, user: "u", pass: "secret"})
	sender, err := mail.NewSMTPSender("smtp://u:secret@127.0.0.1:" + srv.Port)
	if err != nil {
		t.Fatal(err)
	}

	// The system roots do not know the test certificate.
	to := address("starttls")
	if err := sender.Send(context.Background(), newMessage(to, time.Now())); err == nil {
		t.Fatal("Send trusted an unknown certificate")
	}

	mail.SetRootCAs(sender, roots)
	if err := sender.Send(context.Background(), newMessage(to, time.Now())); err != nil {
		t.Fatal(err)
	}
	rs := srv.Received()
	if len(rs) != 1 || !rs[0].TLS || rs[0].User != "u" || rs[0].To[0] != to {
		t.Fatalf("received %+v, want one message over STARTTLS", rs)
	}
}

func TestSMTPImplicitTLS(t *testing.T) {
	serverTLS, roots := selfSignedTLS(t)
	srv := startSMTP(t, smtpOptions{implicitTLS: serverTLS})
	sender, err := mail.NewSMTPSender("smtps://127.0.0.1:" + srv.Port + "?from=ops@fairbalance.example")
	if err != nil {
		t.Fatal(err)
	}
	mail.SetRootCAs(sender, roots)
	to := address("smtps")
	if err := sender.Send(context.Background(), newMessage(to, time.Now())); err != nil {
		t.Fatal(err)
	}
	rs := srv.Received()
	if len(rs) != 1 || !rs[0].TLS || rs[0].From != "ops@fairbalance.example" {
		t.Fatalf("received %+v, want one message over TLS", rs)
	}
}

func TestSMTPRetryWithBackoffThenSuccess(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		srv := startSMTP(t, smtpOptions{})
		srv.refuseNext(2, &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "greylisted, try again later"})
		sender, err := mail.NewSMTPSender("smtp://127.0.0.1:" + srv.Port)
		if err != nil {
			t.Fatal(err)
		}
		clk := newClock()
		o := mail.NewOutbox(db, sender, discard())
		mail.SetClock(o, clk.Now)
		to := address("retry")
		enqueue(t, db, newMessage(to, clk.Now()))

		for attempt, delay := range []time.Duration{30 * time.Second, time.Minute} {
			if n, err := o.DeliverDue(ctx); err != nil || n != 0 {
				t.Fatalf("attempt %d: DeliverDue = %d, %v; want 0, nil", attempt+1, n, err)
			}
			m := stored(t, db, to)
			if m.Status != mail.StatusPending || m.Attempts != attempt+1 ||
				!strings.Contains(m.LastError, "451") || !m.NextAttemptAt.Equal(clk.Now().Add(delay)) {
				t.Fatalf("after refusal %d: status %q, attempts %d, error %q, next %v; want pending, retry at %v",
					attempt+1, m.Status, m.Attempts, m.LastError, m.NextAttemptAt, clk.Now().Add(delay))
			}
			// Not due yet: nothing is sent.
			clk.Advance(delay - time.Second)
			if n, err := o.DeliverDue(ctx); err != nil || n != 0 || srv.Attempts() != attempt+1 {
				t.Fatalf("before the retry: DeliverDue = %d, %v with %d server attempts", n, err, srv.Attempts())
			}
			clk.Advance(time.Second)
		}

		if n, err := o.DeliverDue(ctx); err != nil || n != 1 {
			t.Fatalf("third attempt: DeliverDue = %d, %v; want 1, nil", n, err)
		}
		m := stored(t, db, to)
		if m.Status != mail.StatusSent || m.Attempts != 2 || m.LastError != "" || m.SentAt == nil || !m.SentAt.Equal(clk.Now()) {
			t.Errorf("after success: status %q, attempts %d, error %q, sent at %v", m.Status, m.Attempts, m.LastError, m.SentAt)
		}
		if rs := srv.Received(); len(rs) != 1 || rs[0].To[0] != to {
			t.Errorf("server received %+v, want the message once", rs)
		}
	})
}

func TestSMTPPermanentFailure(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		srv := startSMTP(t, smtpOptions{})
		srv.refuseNext(-1, &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 2, 0}, Message: "mailbox busy"})
		sender, err := mail.NewSMTPSender("smtp://127.0.0.1:" + srv.Port)
		if err != nil {
			t.Fatal(err)
		}
		clk := newClock()
		log, logs := newLogger()
		o := mail.NewOutbox(db, sender, log)
		mail.SetClock(o, clk.Now)
		to := address("doomed")
		enqueue(t, db, newMessage(to, clk.Now()))

		for attempt := 1; attempt <= mail.MaxAttempts; attempt++ {
			if n, err := o.DeliverDue(ctx); err != nil || n != 0 {
				t.Fatalf("attempt %d: DeliverDue = %d, %v; want 0, nil", attempt, n, err)
			}
			m := stored(t, db, to)
			if m.Attempts != attempt || !strings.Contains(m.LastError, "mailbox busy") {
				t.Fatalf("after attempt %d: attempts %d, error %q", attempt, m.Attempts, m.LastError)
			}
			if attempt < mail.MaxAttempts {
				if m.Status != mail.StatusPending || !m.NextAttemptAt.Equal(clk.Now().Add(mail.RetryDelay(attempt))) {
					t.Fatalf("after attempt %d: status %q, next %v; want pending, retry in %v", attempt, m.Status, m.NextAttemptAt, mail.RetryDelay(attempt))
				}
				clk.Set(m.NextAttemptAt)
				continue
			}
			if m.Status != mail.StatusFailed || m.SentAt != nil {
				t.Fatalf("after %d attempts: status %q, sent at %v; want failed", attempt, m.Status, m.SentAt)
			}
		}
		if srv.Attempts() != mail.MaxAttempts {
			t.Errorf("server saw %d attempts, want %d", srv.Attempts(), mail.MaxAttempts)
		}
		if !strings.Contains(logs.String(), "failed permanently") {
			t.Errorf("no log of the permanent failure:\n%s", logs.String())
		}

		clk.Advance(48 * time.Hour)
		if n, err := o.DeliverDue(ctx); err != nil || n != 0 || srv.Attempts() != mail.MaxAttempts {
			t.Errorf("after failing: DeliverDue = %d, %v with %d server attempts; want no more attempts", n, err, srv.Attempts())
		}
	})
}

func TestSMTPServerDown(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *sqlstore.DB) {
		// A port on which nothing listens any more.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(l.Addr().String())
		l.Close()
		sender, err := mail.NewSMTPSender("smtp://u:hunter2-secret@127.0.0.1:" + port)
		if err != nil {
			t.Fatal(err)
		}
		clk := newClock()
		o := mail.NewOutbox(db, sender, discard())
		mail.SetClock(o, clk.Now)
		to := address("down")
		enqueue(t, db, newMessage(to, clk.Now()))
		if n, err := o.DeliverDue(context.Background()); err != nil || n != 0 {
			t.Fatalf("DeliverDue = %d, %v; want 0, nil", n, err)
		}
		m := stored(t, db, to)
		if m.Status != mail.StatusPending || m.Attempts != 1 || m.LastError == "" || strings.Contains(m.LastError, "hunter2") {
			t.Errorf("with the server down: status %q, attempts %d, error %q", m.Status, m.Attempts, m.LastError)
		}
	})
}

func TestNewSMTPSenderURL(t *testing.T) {
	const secret = "hunter2-secret"
	bad := []string{
		"http://mail.example.test",
		"smtp://",
		"smtp:mail.example.test",
		"smtp://mail.example.test:0",
		"smtp://mail.example.test:99999",
		"smtp://u:" + secret + "@mail.example.test:port",
		"smtp://u:" + secret + "@mail.example.test/path",
		"smtp://u:" + secret + "@mail.example.test?form=a@b.example",
		"smtp://u:" + secret + "@mail.example.test?from=not-an-address",
		"smtp://u:" + secret + "@mail.example.test?from=a@b.example&from=c@d.example",
		"smtp://:" + secret + "@mail.example.test",
		"smtp://u:" + secret + "@mail.example.test:25%zz",
		"smtp://u:" + secret + "@[::1",
	}
	for _, raw := range bad {
		_, err := mail.NewSMTPSender(raw)
		if err == nil {
			t.Errorf("NewSMTPSender(%q) accepted it", raw)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("NewSMTPSender(%q) error reveals the password: %v", raw, err)
		}
	}
	good := []string{
		"smtp://mail.example.test",
		"smtp://mail.example.test:25",
		"smtps://u:" + secret + "@mail.example.test",
		"smtp://u@mail.example.test:2525/?from=Ops%20%3Cops@example.test%3E",
		"smtp://[::1]:25?from=ops@example.test",
	}
	for _, raw := range good {
		if _, err := mail.NewSMTPSender(raw); err != nil {
			t.Errorf("NewSMTPSender(%q): %v", raw, err)
		}
	}
}
