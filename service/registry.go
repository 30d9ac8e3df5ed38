package service

import (
	"context"
	"crypto/ed25519"
	"strings"
	"sync"
	"time"

	"fairbalance"
	"fairbalance/dataapi"
)

// The declarations of the data API, as package dataapi defines them; the
// product's tables and functions in this package are written in these names.
type (
	TableSpec    = dataapi.TableSpec
	ColumnSpec   = dataapi.ColumnSpec
	RelationSpec = dataapi.RelationSpec
	FunctionSpec = dataapi.FunctionSpec
)

// Shorthands for the data API's refusals, used throughout the tables and
// functions.
var (
	pgErr       = dataapi.NewError
	denied      = dataapi.Denied
	raise       = dataapi.Raise
	demoRefusal = dataapi.DemoRefusal
	and         = dataapi.And
	allColumns  = dataapi.AllColumns
	decodeRows  = dataapi.DecodeRows
	nothing     = dataapi.NoRows()
)

// Registry is the data API as Fairbalance serves it at /rest/v1: the engine
// with every table and function of the product registered, and what its
// workspace functions keep between calls.
type Registry struct {
	*dataapi.Engine
	// Config describes the instance to the workspace functions; set it
	// before serving.
	Config DataConfig
	// Reviews are the review workflow's functions (and the entry points of
	// its background jobs).
	Reviews *Reviews
	// Annotations are the annotation functions; the review record reads
	// them (ForVersion).
	Annotations *Annotations
	// Compliance are the compliance functions (and the entry points of
	// the background checks of large versions).
	Compliance *Compliance
	// Records exports the review record of a round and the Form 2253 data
	// of an approved asset (served at /api, not as functions: they answer
	// documents).
	Records *Records

	store     fairbalance.Store
	storage   *Storage
	verifyMu  sync.Mutex
	verifying map[string]*verification // chain verifications in progress, by organisation
}

// NewRegistry builds the registry, the one that `fairbalance serve`,
// `fairbalance gen types` and the tests use: the organisation records, the
// workspace, the content model, search and the review workflow. store and storage may be nil for
// a registry that only describes itself (gen types); the content functions
// need storage for files, and avatars its ContentSniffer.
func NewRegistry(store fairbalance.Store, storage *Storage) *Registry {
	r := &Registry{store: store, storage: storage}
	tables := append(recordTables(r.sniff), workspaceTables()...)
	tables = append(tables, contentTables()...)
	r.Engine = dataapi.New(store, append(tables, reviewAndComplianceTables()...)...)
	r.RegisterFunctions(r.recordFunctions()...)
	r.RegisterFunctions(r.workspaceFunctions()...)
	r.RegisterFunctions(r.searchFunctions()...)
	r.Reviews = &Reviews{reg: r, Now: func() time.Time { return time.Now().UTC() }}
	r.Annotations = &Annotations{rv: r.Reviews}
	content := NewContent(storage)
	r.Compliance = newCompliance(r.Reviews)
	content.onVersionAdded = func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, prevID string, v map[string]any) error {
		if prevID != "" {
			if err := r.Annotations.carry(ctx, tx, c, prevID, v); err != nil {
				return err
			}
		}
		return r.Compliance.versionAdded(ctx, tx, c, prevID, v)
	}
	r.RegisterFunctions(content.Functions()...)
	r.RegisterFunctions(r.Reviews.Functions()...)
	r.RegisterFunctions(r.Annotations.Functions()...)
	r.RegisterFunctions(r.Compliance.Functions()...)
	r.Records = &Records{reg: r, Now: func() time.Time { return time.Now().UTC() }}
	r.MailQueued = func() {
		if q := r.Config.MailQueued; q != nil {
			q()
		}
	}
	return r
}

// sniff names the type of content as storage does; a registry without
// storage recognises nothing (every image is refused).
func (d *Registry) sniff(head []byte) string {
	if d.storage == nil {
		return "application/octet-stream"
	}
	full, _ := d.storage.SniffContentType(head)
	return full
}

// DataConfig is what the workspace functions of the data API need to know
// of the instance. Zero fields take the defaults named on each.
type DataConfig struct {
	// Version is reported by diagnostics() ("dev").
	Version string
	// SiteURL is where the app is served; invitation links are
	// {SiteURL}/signup?invite={token} ("http://127.0.0.1:8080").
	SiteURL string
	// MailSender is "smtp" when e-mail is delivered by SMTP, else "log".
	MailSender string
	// Storage names the blob backend diagnostics() reports ("disk" or "s3"); empty
	// reports "not configured".
	Storage string
	// SessionInactivity and SessionLifetime bound the sessions that
	// list_sessions() reports as active (12 h and 7 days, as the identity
	// service's defaults).
	SessionInactivity time.Duration
	SessionLifetime   time.Duration
	// MailQueued is called after a function that put mail in the outbox
	// has committed (it wakes the mailer).
	MailQueued func()
	// Sealer seals the audit trail (nil: sealing is off, and
	// verify_audit_chain() checks the chains against themselves only).
	Sealer fairbalance.AuditSealer
	// Signer checks a signer's password and authenticator code when a
	// review step is decided (the identity service), and SignatureKey
	// seals the signatures (the audit checkpoint key); without both,
	// decide_step refuses to sign.
	Signer       SignerCredentials
	SignatureKey ed25519.PrivateKey
}

func (d *Registry) cfg() DataConfig {
	c := d.Config
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.SiteURL == "" {
		c.SiteURL = "http://127.0.0.1:8080"
	}
	c.SiteURL = strings.TrimRight(c.SiteURL, "/")
	if c.MailSender != "smtp" {
		c.MailSender = "log"
	}
	if c.SessionInactivity == 0 {
		c.SessionInactivity = 12 * time.Hour
	}
	if c.SessionLifetime == 0 {
		c.SessionLifetime = 7 * 24 * time.Hour
	}
	return c
}
