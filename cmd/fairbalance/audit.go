package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

const auditUsage = `usage: fairbalance audit verify [--data-dir DIR | --database-url URL] [--org ID]`

// audit runs "fairbalance audit verify": it recomputes the hash chain of
// every organisation's audit trail (or of the one given by --org; --org ""
// is the instance's own chain), prints one line per chain, and fails when
// any chain is broken.
func audit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "verify" {
		return errors.New(auditUsage)
	}
	var c config
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bindStore(fs, &c)
	org := fs.String("org", "", `verify only this organisation's chain ("" is the instance's chain); every chain when not given`)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New(auditUsage)
	}
	oneOrg := false
	fs.Visit(func(f *flag.Flag) { oneOrg = oneOrg || f.Name == "org" })

	db, err := openStore(ctx, &c)
	if err != nil {
		return err
	}
	defer db.Close()
	trail := db.AuditView()
	orgs := []string{*org}
	if !oneOrg {
		if orgs, err = trail.AuditChains(ctx); err != nil {
			return err
		}
		if len(orgs) == 0 {
			fmt.Fprintln(stdout, "no audit entries")
			return nil
		}
	}
	broken := 0
	for _, id := range orgs {
		v, err := trail.VerifyAudit(ctx, id)
		if err != nil {
			return err
		}
		name := id
		if name == "" {
			name = "(instance)"
		}
		if v.OK {
			fmt.Fprintf(stdout, "org %s: %d entries, ok\n", name, v.Entries)
			continue
		}
		broken++
		fmt.Fprintf(stdout, "org %s: BROKEN at entry %d: %s\n", name, v.BrokenAt, v.Reason)
	}
	if broken > 0 {
		return fmt.Errorf("audit trail broken in %d of %d chains", broken, len(orgs))
	}
	return nil
}
