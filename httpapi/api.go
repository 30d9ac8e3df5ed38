// Package httpapi is Fairbalance's HTTP surface: every route is listed in
// routes.go; each surface renders its errors in the shape its client expects.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/dataapi"
	"fairbalance/ratelimit"
	"fairbalance/service"
)

// Config configures the HTTP surface.
type Config struct {
	Version string
	// MaxBodyBytes caps request bodies (1 MiB by default).
	MaxBodyBytes int64
	// RateLimits turns the per-address limits on (the default in cmd).
	RateLimits bool
	// ForwardedForHeader, when set (e.g. "X-Forwarded-For"), is trusted for
	// the client address: its first value. Leave empty unless a proxy you
	// control sets it.
	ForwardedForHeader string
	// AccessLog logs every request at Info (errors are always logged).
	AccessLog bool
	// Preview lets the server issue read-only sessions of the demo
	// organisation (POST /api/preview/session).
	Preview bool
}

// Deps are the services the HTTP surface calls.
type Deps struct {
	Identity *service.Identity
	// Data serves /rest/v1 (the registry, service.NewRegistry); nil serves
	// no table.
	Data  *dataapi.Engine
	Store fairbalance.Store
	// UI is the built web app, nil when it was not built.
	UI  fs.FS
	Log *slog.Logger
	// Settings (the security manager) and Recovery (safe mode) serve the
	// functions and the passcode gate; without Settings the gate is off.
	Settings *service.Settings
	Recovery *service.Recovery
	// JobsState, when set, is the state of the background job queue that
	// GET /api/health reports ("running", "starting" or "stopped").
	JobsState func() string
	// Storage serves /storage/v1; nil answers that storage is not configured.
	Storage *service.Storage
	// Records serves the exports at /api (the review record, Form 2253);
	// nil answers them not found.
	Records *service.Records
}

// API serves every route.
type API struct {
	cfg      Config
	id       *service.Identity
	data     *dataapi.Engine
	storage  *service.Storage
	records  *service.Records
	store    fairbalance.Store
	ui       fs.FS
	log      *slog.Logger
	limiter  *ratelimit.Limiter
	anonKey  string
	adminKey string
	started  time.Time
	// origins are the origins CORS answers; hsts is whether the site URL
	// is https (see base).
	origins map[string]bool
	hsts    bool

	settings    *service.Settings
	recovery    *service.Recovery
	gateKey     []byte
	gateLimiter *ratelimit.Limiter
	jobsState   func() string
}

// New returns the API.
func New(cfg Config, d Deps) *API {
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	a := &API{cfg: cfg, id: d.Identity, data: d.Data, storage: d.Storage, records: d.Records, store: d.Store, ui: d.UI, log: d.Log, started: time.Now(), jobsState: d.JobsState}
	if cfg.RateLimits {
		a.limiter = ratelimit.New()
	}
	idc := d.Identity.Config()
	a.origins = allowedOrigins(idc.SiteURL, idc.RedirectAllowList)
	a.hsts = strings.HasPrefix(strings.ToLower(idc.SiteURL), "https://")
	a.anonKey = d.Identity.Keys().APIKey("anon")
	a.adminKey = d.Identity.Keys().APIKey("service_role")
	a.initGate(d)
	return a
}

// clientIP is the peer address, or the first forwarded-for value when the
// operator configured a trusted header.
func (a *API) clientIP(r *http.Request) string {
	if h := a.cfg.ForwardedForHeader; h != "" {
		if v := r.Header.Get(h); v != "" {
			first, _, _ := strings.Cut(v, ",")
			if ip := net.ParseIP(strings.TrimSpace(first)); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (a *API) client(r *http.Request) service.Client {
	return service.Client{IP: a.clientIP(r), UserAgent: r.UserAgent()}
}

type ctxKey int

const requestIDKey ctxKey = 1

// RequestID returns the id given to the request by the middleware.
func RequestID(ctx context.Context) string {
	v, _ := ctx.Value(requestIDKey).(string)
	return v
}
