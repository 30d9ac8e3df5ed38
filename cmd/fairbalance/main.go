// Command fairbalance is the Fairbalance server and its operator tools.
//
//	fairbalance serve                     run the server (SQLite in ./data by default)
//	fairbalance migrate                   apply database migrations and exit
//	fairbalance admin create --email E    create a confirmed administrator account (an operator)
//	fairbalance operator grant|revoke|list  mark accounts as instance operators
//	fairbalance keys [--json]             print the API keys and the audit checkpoint public key
//	fairbalance gen types                 print the data API's TypeScript types
//	fairbalance gen audit-actions         print the server's audit actions for the web app
//	fairbalance audit verify [--org ID]   verify the audit trail's hash chains against their signed checkpoints
//	fairbalance version                   print the version
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"fairbalance/auth"
	"fairbalance/jobs"
	"fairbalance/service"
	"fairbalance/sqlstore"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `Fairbalance — compliance review workspace for life-science marketing content.

Usage:
  fairbalance serve [flags]                 run the server
  fairbalance migrate [flags]               apply database migrations and exit
  fairbalance admin create --email E        create a confirmed administrator (an instance operator)
  fairbalance operator grant --email E      mark an account as an instance operator
  fairbalance operator revoke --email E     remove the mark (never from the last operator)
  fairbalance operator list                 list the instance operators
  fairbalance keys [--json]                 print the API keys (anon, service_role) and the audit checkpoint public key
  fairbalance gen types [--out FILE]        print the TypeScript Database type of the data API
  fairbalance gen audit-actions [--out FILE]  print every audit action the server records (TypeScript)
  fairbalance audit verify [--org ID]       verify the audit trail's hash chains and checkpoints
  fairbalance version                       print the version

Run "fairbalance COMMAND -h" for the flags of a command. Every flag can also
be set by its FAIRBALANCE_* environment variable.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "fairbalance:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, stdout, stderr)
	case "migrate":
		return migrate(ctx, rest, stdout, stderr)
	case "admin":
		return admin(ctx, rest, stdin, stdout, stderr)
	case "operator":
		return operator(ctx, rest, stdout, stderr)
	case "keys":
		return keys(rest, stdout, stderr)
	case "gen":
		return gen(rest, stdout, stderr)
	case "audit":
		return audit(ctx, rest, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "fairbalance", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// newLogger logs at Info, or at Debug in development mode.
func newLogger(format string, w io.Writer, debug bool) *slog.Logger {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	if debug {
		opts.Level = slog.LevelDebug
	}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// openIdentity opens the store and the keys of c's data directory and the
// identity service over them, for the commands that manage accounts; the
// caller calls closeStore when done.
func openIdentity(ctx context.Context, c *config, stderr io.Writer) (id *service.Identity, closeStore func() error, err error) {
	db, err := openStore(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	keys, _, err := auth.LoadOrCreateKeys(c.DataDir)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{}, newLogger(c.LogFormat, stderr, false)), db.Close, nil
}

func openStore(ctx context.Context, c *config) (*sqlstore.DB, error) {
	return sqlstore.Open(ctx, sqlstore.Options{
		DatabaseURL:       c.DatabaseURL,
		SQLitePath:        filepath.Join(c.DataDir, "fairbalance.db"),
		SQLiteSynchronous: c.SQLiteSync,
	})
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bindStore(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, err := openStore(ctx, &c)
	if err != nil {
		return err
	}
	defer db.Close()
	level, err := db.MigrationLevel(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "database %s at migration %d\n", db.Backend(), level)
	jq, err := db.JobQueue(ctx)
	if err != nil {
		return err
	}
	river, err := jobs.Migrate(ctx, jobs.Config{Pool: jq.Pool, Postgres: jq.Postgres, Schema: jq.Schema, Migrate: db.WithMigrationLock})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "job queue (River) at migration %d\n", river)
	return nil
}

func keys(args []string, stdout, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("keys", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.DataDir, "data-dir", envString("FAIRBALANCE_DATA_DIR", "./data"), "data directory (FAIRBALANCE_DATA_DIR)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	k, _, err := auth.LoadOrCreateKeys(c.DataDir)
	if err != nil {
		return err
	}
	anon, svc, audit := k.APIKey("anon"), k.APIKey("service_role"), k.AuditPublicKey()
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]string{"anon_key": anon, "service_role_key": svc, "audit_checkpoint_public_key": audit})
	}
	fmt.Fprintf(stdout, "anon_key:         %s\nservice_role_key: %s\naudit_checkpoint_public_key: %s\n", anon, svc, audit)
	return nil
}
