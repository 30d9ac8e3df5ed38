package mail

import (
	"crypto/x509"
	"time"
)

// SetClock makes o read the time from now instead of time.Now.
func SetClock(o *Outbox, now func() time.Time) { o.now = now }

// SetPollInterval replaces PollInterval for o; call it before Run.
func SetPollInterval(o *Outbox, d time.Duration) { o.interval = d }

// SetRootCAs makes an SMTP sender trust roots instead of the system's.
func SetRootCAs(s Sender, roots *x509.CertPool) { s.(*smtpSender).tlsConfig.RootCAs = roots }
