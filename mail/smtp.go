package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"fairbalance"

	gomail "github.com/wneessen/go-mail"
)

// Default ports of NewSMTPSender's URL schemes.
const (
	// DefaultSMTPPort is the port of an smtp:// URL without one: the
	// message submission port (RFC 6409).
	DefaultSMTPPort = 587
	// DefaultSMTPSPort is the port of an smtps:// URL without one (RFC 8314).
	DefaultSMTPSPort = 465
)

// smtpTimeout bounds connecting and each command of one delivery.
const smtpTimeout = 30 * time.Second

// smtpAuthPreference is the order in which SASL mechanisms are chosen among
// those the server offers. PLAIN and LOGIN refuse to send the password over
// a connection without TLS unless the server is localhost.
var smtpAuthPreference = []gomail.SMTPAuthType{
	gomail.SMTPAuthSCRAMSHA256,
	gomail.SMTPAuthSCRAMSHA1,
	gomail.SMTPAuthCramMD5,
	gomail.SMTPAuthPlain,
	gomail.SMTPAuthLogin,
}

type smtpSender struct {
	host        string // as in the URL, without brackets
	port        int
	implicitTLS bool
	user, pass  string
	from        *netmail.Address
	fromDomain  string
	tlsConfig   *tls.Config
}

// NewSMTPSender returns a Sender that delivers messages to an SMTP server
// described by rawURL:
//
//	smtp://user:pass@host:port?from=Name%20<addr>
//	smtps://user:pass@host:port?from=Name%20<addr>
//
// With smtp:// the connection is upgraded with STARTTLS when the server
// offers it and stays plain otherwise; the port defaults to
// [DefaultSMTPPort]. With smtps:// the connection uses TLS from the start
// (implicit TLS); the port defaults to [DefaultSMTPSPort]. Server
// certificates are verified against the system roots. User and password,
// percent-encoded, are optional; when given, the sender authenticates with
// the best mechanism the server offers and fails rather than send the
// password in clear text to a host other than localhost.
//
// The query parameter from, percent-encoded, is the From address, with or
// without a display name; it defaults to "Fairbalance <no-reply@HOST>",
// HOST being the host of the URL. Other query parameters are rejected.
//
// Each message is sent on its own connection as multipart/alternative
// (plain text and, when MailMessage.HTML is set, HTML), UTF-8 and
// quoted-printable, with Date, Message-ID, MIME-Version and
// "Auto-Submitted: auto-generated" headers. Send returns nil when the
// server accepted the message. Errors of NewSMTPSender and Send never
// contain the password. The sender is safe for concurrent use.
func NewSMTPSender(rawURL string) (Sender, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// A *url.Error repeats the whole URL, password included.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("mail: invalid SMTP URL: %v", err)
	}
	s := &smtpSender{}
	switch u.Scheme {
	case "smtp":
		s.port = DefaultSMTPPort
	case "smtps":
		s.port, s.implicitTLS = DefaultSMTPSPort, true
	default:
		return nil, fmt.Errorf("mail: SMTP URL scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.Fragment != "" {
		return nil, errors.New("mail: SMTP URL must be scheme://[user:password@]host[:port][?from=...]")
	}
	s.host = u.Hostname()
	if s.host == "" {
		return nil, errors.New("mail: SMTP URL has no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("mail: SMTP URL port %q is not a number from 1 to 65535", p)
		}
		s.port = n
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
		if s.user == "" && s.pass != "" {
			return nil, errors.New("mail: SMTP URL has a password but no user")
		}
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP URL query: %v", err)
	}
	from := "Fairbalance <no-reply@" + s.host + ">"
	for k, v := range q {
		if k != "from" {
			return nil, fmt.Errorf("mail: SMTP URL has unknown parameter %q (only from is known)", k)
		}
		if len(v) != 1 || strings.TrimSpace(v[0]) == "" {
			return nil, errors.New("mail: SMTP URL parameter from must be given once and not be empty")
		}
		from = v[0]
	}
	addr, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP sender address %q: %v (set the from parameter)", from, err)
	}
	s.from = addr
	s.fromDomain = addr.Address[strings.LastIndexByte(addr.Address, '@')+1:]
	s.tlsConfig = &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
	return s, nil
}

func (s *smtpSender) Send(ctx context.Context, m *fairbalance.MailMessage) error {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(s.from)
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDateWithValue(time.Now())
	msg.SetMessageIDWithValue(s.messageID(m))
	// RFC 3834: no auto-replies (vacation notices) to automatic mail.
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}

	c, err := s.client()
	if err != nil {
		return s.scrub(err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return s.scrub(err)
	}
	return nil
}

// client builds a go-mail client for one delivery; go-mail clients keep
// per-connection state, so none is shared between concurrent Sends.
func (s *smtpSender) client() (*gomail.Client, error) {
	host := s.host
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // go-mail joins host and port with a bare colon
	}
	opts := []gomail.Option{
		gomail.WithPort(s.port),
		gomail.WithTimeout(smtpTimeout),
		gomail.WithTLSConfig(s.tlsConfig.Clone()),
	}
	if s.implicitTLS {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.user != "" {
		opts = append(opts,
			gomail.WithUsername(s.user),
			gomail.WithPassword(s.pass),
			gomail.WithOpportunisticSMTPAuth(smtpAuthPreference...),
		)
	}
	return gomail.NewClient(host, opts...)
}

// messageID is unique and names the sender's domain, as RFC 5322 asks.
func (s *smtpSender) messageID(m *fairbalance.MailMessage) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%d.%s@%s", m.ID, hex.EncodeToString(b[:]), s.fromDomain)
}

// scrub turns a delivery error into one safe to store: the password, should
// a server or library ever echo it, is blanked out.
func (s *smtpSender) scrub(err error) error {
	msg := err.Error()
	if s.pass != "" && strings.Contains(msg, s.pass) {
		return errors.New(strings.ReplaceAll(msg, s.pass, "[redacted]"))
	}
	return err
}
