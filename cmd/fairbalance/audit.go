package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auditseal"
	"fairbalance/auth"
)

const auditUsage = `usage: fairbalance audit verify [--data-dir DIR | --database-url URL] [--org ID] [--checkpoint-key KEY]`

// maxBadShown bounds the bad checkpoints listed one by one.
const maxBadShown = 20

// audit runs "fairbalance audit verify": it recomputes the hash chain of
// every organisation's audit trail (or of the one given by --org; --org ""
// is the instance's own chain) and checks it against the checkpoints that
// sealed it — the data directory's checkpoint log and, when S3 is
// configured, the bucket's checkpoints — after checking their signatures.
// It prints one line per chain and per bad checkpoint, and fails when any
// chain is broken or any checkpoint is bad.
func audit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "verify" {
		return errors.New(auditUsage)
	}
	var c config
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bindStore(fs, &c)
	org := fs.String("org", "", `verify only this organisation's chain ("" is the instance's chain); every chain when not given`)
	keyText := fs.String("checkpoint-key", "", "check the checkpoints' signatures with this public key (standard base64, as printed when it was made) instead of the keys file's")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New(auditUsage)
	}
	oneOrg := false
	fs.Visit(func(f *flag.Flag) { oneOrg = oneOrg || f.Name == "org" })

	keys, noKey, err := checkpointKeys(c.DataDir, *keyText)
	if err != nil {
		return err
	}
	logs, err := checkpointLogs(ctx, &c, nil, "")
	if err != nil {
		return err
	}
	checked, err := auditseal.Check(ctx, logs, keys)
	if err != nil {
		return err
	}
	if checked.Records > 0 && len(keys) == 0 {
		return fmt.Errorf("the audit checkpoints' signatures cannot be checked: %v; give the public key with --checkpoint-key", noKey)
	}

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
		// A chain removed whole, head and all, is still named by its
		// checkpoints.
		for id := range checked.Seals {
			if !slices.Contains(orgs, id) {
				orgs = append(orgs, id)
			}
		}
		slices.Sort(orgs)
		if len(orgs) == 0 && len(checked.Bad) == 0 {
			fmt.Fprintln(stdout, "no audit entries")
			return nil
		}
	}
	if checked.Records == 0 {
		places := make([]string, len(logs))
		for i, l := range logs {
			places[i] = l.Place()
		}
		fmt.Fprintf(stderr, "note: no audit checkpoints in the %s: each chain was checked against itself only\n", strings.Join(places, " or "))
	}
	broken := 0
	for _, id := range orgs {
		v, err := trail.VerifyAudit(ctx, id, checked.Seals[id]...)
		if err != nil {
			return err
		}
		name := orgName(id)
		if !v.OK {
			broken++
			fmt.Fprintf(stdout, "org %s: BROKEN at entry %d: %s\n", name, v.BrokenAt, v.Reason)
			continue
		}
		switch last, sealed := checked.Last[id]; {
		case sealed:
			fmt.Fprintf(stdout, "org %s: %d entries, ok, sealed up to entry %d by %d %s (the last of %s)\n", name, v.Entries, last.Seq,
				checked.Count[id], plural(checked.Count[id], "checkpoint", "checkpoints"), last.At.UTC().Format(time.RFC3339))
		case checked.Records > 0:
			fmt.Fprintf(stdout, "org %s: %d entries, ok, not sealed\n", name, v.Entries)
		default:
			fmt.Fprintf(stdout, "org %s: %d entries, ok\n", name, v.Entries)
		}
	}
	bad := 0
	for _, b := range checked.Bad {
		if oneOrg && b.Checkpoint.Sig != "" && b.Checkpoint.OrgID != *org {
			continue
		}
		if bad++; bad > maxBadShown {
			continue
		}
		if b.Checkpoint.Sig == "" {
			fmt.Fprintf(stdout, "checkpoint %s: BAD: %v\n", b.Source, b.Err)
			continue
		}
		fmt.Fprintf(stdout, "checkpoint %s (org %s, entry %d, %s): BAD: %v\n", b.Source, orgName(b.Checkpoint.OrgID), b.Checkpoint.Seq,
			b.Checkpoint.At.UTC().Format(time.RFC3339), b.Err)
	}
	if bad > maxBadShown {
		fmt.Fprintf(stdout, "… and %d more bad checkpoints\n", bad-maxBadShown)
	}
	switch {
	case broken > 0 && bad > 0:
		return fmt.Errorf("audit trail broken in %d of %d chains, and %d %s bad", broken, len(orgs), bad, plural(bad, "checkpoint is", "checkpoints are"))
	case broken > 0:
		return fmt.Errorf("audit trail broken in %d of %d chains", broken, len(orgs))
	case bad > 0:
		return fmt.Errorf("%d audit %s bad", bad, plural(bad, "checkpoint is", "checkpoints are"))
	}
	return nil
}

func orgName(id string) string {
	if id == "" {
		return "(instance)"
	}
	return id
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// checkpointKeys are the public keys the checkpoints are checked with, by
// key id: the one given (--checkpoint-key), else the keys file's. none says
// why there is none.
func checkpointKeys(dataDir, given string) (keys map[string]ed25519.PublicKey, none error, err error) {
	keys = map[string]ed25519.PublicKey{}
	if given != "" {
		pub, err := auth.ParseAuditPublicKey(given)
		if err != nil {
			return nil, nil, fmt.Errorf("--checkpoint-key: %w", err)
		}
		keys[fairbalance.AuditKeyID(pub)] = pub
		return keys, nil, nil
	}
	pub, err := auth.ReadAuditPublicKey(dataDir)
	if err != nil {
		return keys, err, nil
	}
	keys[fairbalance.AuditKeyID(pub)] = pub
	return keys, nil, nil
}
