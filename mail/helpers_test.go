package mail_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// forEachStore runs fn against a fresh real store on every backend of
// storetest: SQLite always, PostgreSQL in a schema of its own when
// TEST_DATABASE_URL is set (the outbox takes every due message it finds, so
// it must not share a table with other packages' tests).
func forEachStore(t *testing.T, fn func(t *testing.T, db *sqlstore.DB)) {
	t.Helper()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			fn(t, storetest.Open(t, backend))
		})
	}
}

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// address is a recipient no other test uses.
func address(name string) string {
	return strings.ToLower(name) + "-" + randHex(4) + "@example.test"
}

func enqueue(t *testing.T, db *sqlstore.DB, m *fairbalance.MailMessage) *fairbalance.MailMessage {
	t.Helper()
	err := db.Tx(context.Background(), func(tx fairbalance.Tx) error {
		return tx.EnqueueMail(context.Background(), m)
	})
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	return m
}

// newMessage is a pending message to to, due at now.
func newMessage(to string, now time.Time) *fairbalance.MailMessage {
	return &fairbalance.MailMessage{
		To:            to,
		Subject:       "Confirm your e-mail address",
		Text:          "Hello,\n\nfollow this link to confirm your address:\nhttps://fairbalance.example/auth/v1/verify?token=abc123&type=signup\n",
		HTML:          `<p>Hello,</p><p><a href="https://fairbalance.example/auth/v1/verify?token=abc123&amp;type=signup">Confirm your address</a></p>`,
		Kind:          "confirmation",
		CreatedAt:     now,
		NextAttemptAt: now,
	}
}

// stored reads the message to the address back from the store.
func stored(t *testing.T, db *sqlstore.DB, to string) *fairbalance.MailMessage {
	t.Helper()
	ms, err := db.RecentMail(context.Background(), to, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 {
		t.Fatalf("%d messages to %s in the outbox, want 1", len(ms), to)
	}
	return ms[0]
}

// eventually polls cond until it holds, failing the test after a generous
// deadline. It asserts that something happens, not how fast.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// newClock starts at a whole second, so times survive every backend's
// timestamp precision unchanged.
func newClock() *clock { return &clock{t: time.Now().UTC().Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// logBuffer collects log output; safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

// smtpServer is an in-process SMTP server on 127.0.0.1.
type smtpServer struct {
	Addr string
	Port string

	mu       sync.Mutex
	user     string // AUTH PLAIN required with user and pass when set
	pass     string
	refuse   int // refuse this many more transactions at RCPT; -1 for all
	refusal  *smtp.SMTPError
	attempts int // MAIL FROM commands received
	received []received
}

type received struct {
	From string
	To   []string
	Data []byte
	TLS  bool
	User string
}

type smtpOptions struct {
	user, pass  string
	startTLS    *tls.Config // offer STARTTLS
	implicitTLS *tls.Config // TLS from the start
}

func startSMTP(t *testing.T, o smtpOptions) *smtpServer {
	t.Helper()
	s := &smtpServer{user: o.user, pass: o.pass}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.TLSConfig = o.startTLS
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.implicitTLS != nil {
		l = tls.NewListener(l, o.implicitTLS)
	}
	s.Addr = l.Addr().String()
	_, s.Port, _ = net.SplitHostPort(s.Addr)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(l); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			t.Errorf("SMTP server: %v", err)
		}
	}()
	t.Cleanup(func() {
		srv.Close()
		<-done
	})
	return s
}

// refuseNext makes the server refuse n transactions (-1: all) with err.
func (s *smtpServer) refuseNext(n int, err *smtp.SMTPError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse, s.refusal = n, err
}

func (s *smtpServer) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

func (s *smtpServer) Received() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.received...)
}

type smtpSession struct {
	srv  *smtpServer
	conn *smtp.Conn
	user string
	cur  received
}

func (ss *smtpSession) AuthMechanisms() []string {
	if ss.srv.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != ss.srv.user || password != ss.srv.pass {
			return smtp.ErrAuthFailed
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.srv.mu.Lock()
	ss.srv.attempts++
	ss.srv.mu.Unlock()
	if ss.srv.user != "" && ss.user == "" {
		return smtp.ErrAuthRequired
	}
	_, isTLS := ss.conn.TLSConnectionState()
	ss.cur = received{From: from, TLS: isTLS, User: ss.user}
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.srv.mu.Lock()
	defer ss.srv.mu.Unlock()
	if ss.srv.refuse != 0 {
		if ss.srv.refuse > 0 {
			ss.srv.refuse--
		}
		return ss.srv.refusal
	}
	ss.cur.To = append(ss.cur.To, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.cur.Data = b
	ss.srv.mu.Lock()
	ss.srv.received = append(ss.srv.received, ss.cur)
	ss.srv.mu.Unlock()
	return nil
}

func (ss *smtpSession) Reset()        { ss.cur = received{} }
func (ss *smtpSession) Logout() error { return nil }

// selfSignedTLS returns a server configuration with a certificate for
// 127.0.0.1 and localhost, and a pool that trusts it.
func selfSignedTLS(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "fairbalance test SMTP"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, pool
}
