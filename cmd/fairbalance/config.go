package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"fairbalance/blobstore"
)

// config is everything the server is told at start, from flags and
// FAIRBALANCE_* environment variables (a flag wins over the environment).
type config struct {
	Addr              string
	DataDir           string
	DatabaseURL       string
	SiteURL           string
	SMTPURL           string
	Dev               bool
	Autoconfirm       bool
	DisableSignup     bool
	RateLimits        bool
	ForwardedFor      string
	RedirectAllowList string
	JWTExpiry         time.Duration
	SessionInactivity time.Duration
	SessionLifetime   time.Duration
	MailMinInterval   time.Duration
	SQLiteSync        string
	AccessLog         bool
	WebDir            string
	LogFormat         string
	SecurePassword    bool
	Preview           bool
	AuditSealInterval time.Duration
	S3                blobstore.S3Config
}

func envString(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func envBool(name string, def bool) bool {
	if v, ok := os.LookupEnv(name); ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			fmt.Fprintf(os.Stderr, "fairbalance: %s=%q is not a boolean; using %v\n", name, v, def)
			return def
		}
		return b
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, ok := os.LookupEnv(name); ok {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			fmt.Fprintf(os.Stderr, "fairbalance: %s=%q is not a duration; using %v\n", name, v, def)
			return def
		}
		return d
	}
	return def
}

// bindStore binds the flags every command that opens the store needs.
func bindStore(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.DataDir, "data-dir", envString("FAIRBALANCE_DATA_DIR", "./data"), "data directory: SQLite database, uploaded files, keys (FAIRBALANCE_DATA_DIR)")
	fs.StringVar(&c.DatabaseURL, "database-url", envString("FAIRBALANCE_DATABASE_URL", ""), "PostgreSQL URL; SQLite in the data directory when empty (FAIRBALANCE_DATABASE_URL)")
	fs.StringVar(&c.SQLiteSync, "sqlite-synchronous", envString("FAIRBALANCE_SQLITE_SYNCHRONOUS", "NORMAL"), "SQLite synchronous mode, NORMAL or FULL (FAIRBALANCE_SQLITE_SYNCHRONOUS)")
	bindS3(fs, &c.S3)
	fs.StringVar(&c.LogFormat, "log-format", envString("FAIRBALANCE_LOG_FORMAT", "text"), "log format, text or json (FAIRBALANCE_LOG_FORMAT)")
}

// bindServe binds the flags of the serve command.
func bindServe(fs *flag.FlagSet, c *config) {
	bindStore(fs, c)
	fs.StringVar(&c.Addr, "addr", envString("FAIRBALANCE_ADDR", "127.0.0.1:8080"), "HTTP listen address (FAIRBALANCE_ADDR)")
	fs.StringVar(&c.SiteURL, "site-url", envString("FAIRBALANCE_SITE_URL", ""), "public URL of the app, for links in e-mails; http://ADDR when empty (FAIRBALANCE_SITE_URL)")
	fs.StringVar(&c.SMTPURL, "smtp-url", envString("FAIRBALANCE_SMTP_URL", ""), "smtp://user:pass@host:port?from=… to send e-mail; logged only when empty (FAIRBALANCE_SMTP_URL)")
	fs.BoolVar(&c.Dev, "dev", envBool("FAIRBALANCE_DEV", false), "development mode (FAIRBALANCE_DEV)")
	fs.BoolVar(&c.Autoconfirm, "autoconfirm", envBool("FAIRBALANCE_AUTOCONFIRM", false), "sign users in at sign-up without e-mail confirmation (FAIRBALANCE_AUTOCONFIRM)")
	fs.BoolVar(&c.DisableSignup, "disable-signup", envBool("FAIRBALANCE_DISABLE_SIGNUP", false), "refuse sign-ups without an invitation (FAIRBALANCE_DISABLE_SIGNUP)")
	fs.BoolVar(&c.RateLimits, "rate-limits", envBool("FAIRBALANCE_RATE_LIMITS", true), "per-address rate limits on the identity service (FAIRBALANCE_RATE_LIMITS)")
	fs.StringVar(&c.ForwardedFor, "forwarded-for-header", envString("FAIRBALANCE_FORWARDED_FOR_HEADER", ""), "trusted header naming the client address, set by your proxy (FAIRBALANCE_FORWARDED_FOR_HEADER)")
	fs.StringVar(&c.RedirectAllowList, "redirect-allow-list", envString("FAIRBALANCE_REDIRECT_ALLOW_LIST", ""), "comma-separated URL prefixes that e-mail links may redirect to, besides the site (FAIRBALANCE_REDIRECT_ALLOW_LIST)")
	fs.DurationVar(&c.JWTExpiry, "jwt-expiry", envDuration("FAIRBALANCE_JWT_EXPIRY", time.Hour), "access-token lifetime (FAIRBALANCE_JWT_EXPIRY)")
	fs.DurationVar(&c.SessionInactivity, "session-inactivity", envDuration("FAIRBALANCE_SESSION_INACTIVITY", 12*time.Hour), "end sessions unused for this long (FAIRBALANCE_SESSION_INACTIVITY)")
	fs.DurationVar(&c.SessionLifetime, "session-lifetime", envDuration("FAIRBALANCE_SESSION_LIFETIME", 7*24*time.Hour), "end sessions this long after sign-in (FAIRBALANCE_SESSION_LIFETIME)")
	fs.DurationVar(&c.MailMinInterval, "mail-min-interval", envDuration("FAIRBALANCE_MAIL_MIN_INTERVAL", 60*time.Second), "shortest time between two e-mails of one kind to one address (FAIRBALANCE_MAIL_MIN_INTERVAL)")
	fs.StringVar(&c.WebDir, "web-dir", envString("FAIRBALANCE_WEB_DIR", ""), "serve the web app from this directory (a Vite build) instead of the one built in; for development (FAIRBALANCE_WEB_DIR)")
	fs.BoolVar(&c.AccessLog, "access-log", envBool("FAIRBALANCE_ACCESS_LOG", true), "log every request (FAIRBALANCE_ACCESS_LOG)")
	fs.BoolVar(&c.Preview, "preview", envBool("FAIRBALANCE_PREVIEW", false), "issue read-only demo sessions for the preview experience; on by default only in development mode (FAIRBALANCE_PREVIEW)")
	fs.DurationVar(&c.AuditSealInterval, "audit-seal-interval", envDuration("FAIRBALANCE_AUDIT_SEAL_INTERVAL", time.Minute), "how often grown audit chains are sealed with a signed checkpoint; at most 1m (FAIRBALANCE_AUDIT_SEAL_INTERVAL)")
	fs.BoolVar(&c.SecurePassword, "secure-password-change", envBool("FAIRBALANCE_SECURE_PASSWORD_CHANGE", true), "require a reauthentication code to change the password of a session older than 24 h (FAIRBALANCE_SECURE_PASSWORD_CHANGE)")
}

// bindS3 binds the S3 storage flags; files go to S3 when a bucket is set,
// else under the data directory.
func bindS3(fs *flag.FlagSet, c *blobstore.S3Config) {
	fs.StringVar(&c.Bucket, "s3-bucket", envString("FAIRBALANCE_S3_BUCKET", ""), "keep uploaded files in this S3 bucket instead of the data directory (FAIRBALANCE_S3_BUCKET)")
	fs.StringVar(&c.Endpoint, "s3-endpoint", envString("FAIRBALANCE_S3_ENDPOINT", ""), "S3 endpoint, host[:port] or URL; AWS when empty (FAIRBALANCE_S3_ENDPOINT)")
	fs.StringVar(&c.Region, "s3-region", envString("FAIRBALANCE_S3_REGION", ""), "S3 region (FAIRBALANCE_S3_REGION)")
	fs.StringVar(&c.AccessKey, "s3-access-key", envString("FAIRBALANCE_S3_ACCESS_KEY", ""), "S3 access key; AWS_* variables or the instance role when empty (FAIRBALANCE_S3_ACCESS_KEY)")
	// The secret is read from the environment only: a flag would show in the process list.
	c.SecretKey = envString("FAIRBALANCE_S3_SECRET_KEY", "")
	fs.StringVar(&c.Prefix, "s3-prefix", envString("FAIRBALANCE_S3_PREFIX", ""), "prefix of every key in the bucket, e.g. fairbalance/ (FAIRBALANCE_S3_PREFIX)")
	fs.BoolVar(&c.UseSSL, "s3-use-ssl", envBool("FAIRBALANCE_S3_USE_SSL", true), "HTTPS to an endpoint given as host[:port] (FAIRBALANCE_S3_USE_SSL)")
	fs.BoolVar(&c.PathStyle, "s3-path-style", envBool("FAIRBALANCE_S3_PATH_STYLE", false), "path-style requests (endpoint/bucket/key), for MinIO and most self-hosted stores (FAIRBALANCE_S3_PATH_STYLE)")
}
