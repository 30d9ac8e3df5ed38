package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"fairbalance/service"
)

const operatorUsage = `usage: fairbalance operator grant --email E | revoke --email E | list`

// operator marks accounts as instance operators, removes the mark, or
// lists the operators. It has the host's authority, like admin create.
func operator(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(operatorUsage)
	}
	sub := args[0]
	switch sub {
	case "grant", "revoke", "list":
	default:
		return errors.New(operatorUsage)
	}
	var c config
	fs := flag.NewFlagSet("operator "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	bindStore(fs, &c)
	email := ""
	if sub != "list" {
		fs.StringVar(&email, "email", "", "e-mail address of the account")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if sub != "list" && email == "" {
		return errors.New("--email is required")
	}
	id, closeStore, err := openIdentity(ctx, &c, stderr)
	if err != nil {
		return err
	}
	defer closeStore()
	rec := service.NewRecovery(id, service.RecoveryConfig{})
	cli := service.Client{IP: "cli"}
	switch sub {
	case "grant":
		u, added, err := rec.GrantOperator(ctx, cli, email)
		if err != nil {
			return err
		}
		if !added {
			fmt.Fprintf(stdout, "%s (id %s) is an operator already.\n", u.Email, u.ID)
			return nil
		}
		fmt.Fprintf(stdout, "%s (id %s) is now an operator of this instance.\n", u.Email, u.ID)
	case "revoke":
		u, err := rec.RevokeOperator(ctx, cli, email)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s (id %s) is no longer an operator.\n", u.Email, u.ID)
	case "list":
		ops, err := rec.Operators(ctx)
		if err != nil {
			return err
		}
		if len(ops) == 0 {
			fmt.Fprintln(stdout, "No operator: grant one with \"fairbalance operator grant --email E\".")
			return nil
		}
		for _, o := range ops {
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", o.Email, o.UserID, o.GrantedBy, o.CreatedAt.Format("2006-01-02 15:04:05Z07:00"))
		}
	}
	return nil
}
