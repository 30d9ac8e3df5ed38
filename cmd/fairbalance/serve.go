package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fairbalance"
	"fairbalance/auditseal"
	"fairbalance/auth"
	"fairbalance/blobstore"
	"fairbalance/httpapi"
	"fairbalance/jobs"
	"fairbalance/mail"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/web"
)

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bindServe(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.AuditSealInterval <= 0 || c.AuditSealInterval > time.Minute {
		// Part 11: a grown chain waits at most a minute for its checkpoint.
		return fmt.Errorf("--audit-seal-interval %s: must be more than 0 and at most 1m", c.AuditSealInterval)
	}
	previewSet := os.Getenv("FAIRBALANCE_PREVIEW") != ""
	fs.Visit(func(f *flag.Flag) { previewSet = previewSet || f.Name == "preview" })
	if !previewSet {
		c.Preview = c.Dev // preview is on by default only in development mode
	}
	log := newLogger(c.LogFormat, stderr, c.Dev)

	db, err := openStore(ctx, &c)
	if err != nil {
		return err
	}
	defer db.Close()
	keys, created, err := auth.LoadOrCreateKeys(c.DataDir)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	site := c.SiteURL
	if site == "" {
		site = "http://" + ln.Addr().String()
	}

	sender, err := mail.NewSender(c.SMTPURL, log)
	if err != nil {
		ln.Close()
		return err
	}
	outbox := mail.NewOutbox(db, sender, log)

	var allow []string
	for _, p := range strings.Split(c.RedirectAllowList, ",") {
		if p = strings.TrimSpace(p); p != "" {
			allow = append(allow, p)
		}
	}
	hasher := auth.NewHasher(0)
	go hasher.Warm()
	// The settings service needs the identity service, whose sign-up asks
	// the settings: the hook reads the variable once both exist.
	var settings *service.Settings
	id := service.NewIdentity(db, keys, hasher, service.IdentityConfig{
		SiteURL: site, RedirectAllowList: allow, JWTExpiry: c.JWTExpiry, Autoconfirm: c.Autoconfirm,
		DisableSignup: c.DisableSignup, SessionInactivity: c.SessionInactivity, SessionLifetime: c.SessionLifetime,
		MailMinInterval: c.MailMinInterval, SecurePasswordChange: c.SecurePassword, Version: version,
		SignupDisabled: func(ctx context.Context) (bool, error) { return settings.SignupDisabled(ctx) },
	}, log)
	settings = service.NewSettings(id)
	recovery := service.NewRecovery(id, service.RecoveryConfig{Dev: c.Dev, Migrate: db.Migrate})

	mailSender := "log"
	if c.SMTPURL != "" {
		mailSender = "smtp"
	}
	blobs, blobBackend, err := openBlobs(ctx, &c)
	if err != nil {
		ln.Close()
		return err
	}
	sealer, err := openSealer(ctx, &c, db, keys, blobs, blobBackend, log)
	if err != nil {
		ln.Close()
		return err
	}
	// Built on the identity service's store, so that a session revoked or a
	// member changed by a data function stops or changes at once.
	storage := service.NewStorage(id.Store(), blobs, keys.Secret, http.DetectContentType)
	data := service.NewRegistry(id.Store(), storage)
	data.Config = service.DataConfig{Version: version, SiteURL: site, MailSender: mailSender, Storage: blobBackend,
		SessionInactivity: c.SessionInactivity, SessionLifetime: c.SessionLifetime, Sealer: sealer,
		Signer: id, SignatureKey: keys.AuditKey}
	id.DemoContent = service.NewDemoContent(data, storage)
	// The job queue runs the review workflow's sweeps (due reminders,
	// overdue marks, expiry notices, expiry).
	queue, err := openJobs(ctx, &c, db, outbox, data.Reviews.Sweeper(), data.Compliance, log)
	if err != nil {
		ln.Close()
		return err
	}

	ui, built := web.Dist()
	if !built {
		ui = nil
	}
	if c.WebDir != "" {
		ui = os.DirFS(c.WebDir)
	}
	api := httpapi.New(httpapi.Config{
		Version: version, Preview: c.Preview, RateLimits: c.RateLimits, ForwardedForHeader: c.ForwardedFor, AccessLog: c.AccessLog,
	}, httpapi.Deps{Identity: id, Data: data.Engine, Store: db, UI: ui, Log: log,
		Settings: settings, Recovery: recovery, Storage: storage, Records: data.Records, JobsState: queue.State})

	srv := &http.Server{
		Handler:           api.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          nil,
	}
	var fresh freshConns
	srv.ConnState = fresh.track

	bg, stopBG := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); queue.Run(bg) }()
	wg.Add(1)
	go func() { defer wg.Done(); storage.RunReclaimer(bg, log, reclaimDelay, reclaimInterval) }()
	// The sealer's last pass, when bg ends, comes after the requests have
	// drained and before the database closes: the shutdown checkpoint.
	wg.Add(1)
	go func() { defer wg.Done(); sealer.Run(bg) }()
	// PDFs indexed before search left out running headers and footers are
	// re-indexed while the server serves.
	wg.Add(1)
	go func() {
		defer wg.Done()
		n, err := service.RefreshSearchTexts(bg, db)
		if err != nil && bg.Err() == nil {
			log.Error("re-indexing PDF search texts", "err", err, "done", n)
		} else if n > 0 {
			log.Info("re-indexed PDF search texts", "pdfs", n)
		}
	}()

	if created {
		fmt.Fprintf(stdout, "New keys were generated in %s (keep this file private).\n", filepath.Join(c.DataDir, auth.KeysFileName))
		fmt.Fprintf(stdout, "anon_key:         %s\nservice_role_key: %s\n", keys.APIKey("anon"), keys.APIKey("service_role"))
		fmt.Fprintf(stdout, "recovery_key:     %s (authorises the safe-mode repairs)\n", keys.RecoveryKey)
	}
	if created || keys.AuditKeyAdded {
		if !created {
			fmt.Fprintf(stdout, "An audit checkpoint key was added to %s.\n", filepath.Join(c.DataDir, auth.KeysFileName))
		}
		fmt.Fprintf(stdout, "audit_checkpoint_public_key: %s (keep a copy elsewhere: fairbalance audit verify --checkpoint-key checks the checkpoints with it)\n", keys.AuditPublicKey())
	}
	level, _ := db.MigrationLevel(ctx)
	log.Info("fairbalance serving", "version", version, "url", site, "addr", ln.Addr().String(), "database", db.Backend(), "migration", level, "files", blobBackend, "ui", built, "dev", c.Dev,
		"audit_sealing", sealer.String())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		stopBG()
		wg.Wait()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests")
	fresh.wait(time.Second)
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	stopBG()
	wg.Wait()
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// The orphan-blob reclaimer's first pass waits for the server to settle;
// later passes come every reclaimInterval (blobs become reclaimable only
// an hour after they were written, so a pass every quarter of an hour
// leaves an orphan at most an hour and a quarter). Variables for tests.
var (
	reclaimDelay    = 2 * time.Minute
	reclaimInterval = 15 * time.Minute
)

// openBlobs opens the blob store the configuration names — S3 when a
// bucket is set, else the data directory's "files" — and the name
// diagnostics() reports for it.
func openBlobs(ctx context.Context, c *config) (fairbalance.BlobStore, string, error) {
	if c.S3.Bucket != "" {
		s, err := blobstore.NewS3(ctx, c.S3)
		return s, "s3", err
	}
	d, err := blobstore.NewDisk(filepath.Join(c.DataDir, "files"))
	return d, "disk", err
}

// checkpointLogs are the places of the audit checkpoints: the data
// directory's log and, when the files are kept in S3, the bucket. blobs is
// the blob store when the server has opened it (nil to open it here).
func checkpointLogs(ctx context.Context, c *config, blobs fairbalance.BlobStore, backend string) ([]auditseal.Log, error) {
	logs := []auditseal.Log{auditseal.NewFileLog(filepath.Join(c.DataDir, auditseal.FileName))}
	if c.S3.Bucket == "" {
		return logs, nil
	}
	if blobs == nil || backend != "s3" {
		s3, err := blobstore.NewS3(ctx, c.S3)
		if err != nil {
			return nil, err
		}
		blobs = s3
	}
	return append(logs, auditseal.NewBlobLog(blobs)), nil
}

// openSealer makes the sealer of the audit trail, signing with the keys
// file's audit checkpoint key.
func openSealer(ctx context.Context, c *config, db *sqlstore.DB, keys *auth.Keys, blobs fairbalance.BlobStore, backend string, log *slog.Logger) (*auditseal.Sealer, error) {
	logs, err := checkpointLogs(ctx, c, blobs, backend)
	if err != nil {
		return nil, err
	}
	return auditseal.New(ctx, auditseal.Config{Chains: db.AuditView(), Key: keys.AuditKey, Logs: logs, Interval: c.AuditSealInterval, Log: log})
}

// openJobs applies the job queue's migrations and makes the queue: River
// on the store's own connections (on PostgreSQL with one more connection
// to LISTEN on), delivering the outbox: every message put in the outbox
// gets its delivery job in the same transaction. sweeper runs the review
// workflow's periodic sweeps (nil: none); checker the compliance checks
// of large versions, each enqueued with its version.
func openJobs(ctx context.Context, c *config, db *sqlstore.DB, outbox *mail.Outbox, sweeper jobs.Sweeper, checker jobs.Checker, log *slog.Logger) (*jobs.Queue, error) {
	jq, err := db.JobQueue(ctx)
	if err != nil {
		return nil, err
	}
	q, err := jobs.New(ctx, jobs.Config{Pool: jq.Pool, Postgres: jq.Postgres, Schema: jq.Schema, ListenURL: c.DatabaseURL,
		Migrate: db.WithMigrationLock, Mailer: outbox, Sweeper: sweeper, Checker: checker, Log: log})
	if err != nil {
		return nil, err
	}
	db.OnMailEnqueued(q.EnqueueMailTx)
	db.OnComplianceCheckEnqueued(q.EnqueueComplianceTx)
	return q, nil
}
