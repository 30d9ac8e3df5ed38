package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"fairbalance/auth"
	"fairbalance/service"
)

func admin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New(`usage: fairbalance admin create --email E [--password-stdin]`)
	}
	var c config
	fs := flag.NewFlagSet("admin create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bindStore(fs, &c)
	email := fs.String("email", "", "e-mail address of the administrator")
	name := fs.String("name", "", "full name")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *email == "" {
		return errors.New("--email is required")
	}
	password, generated, err := adminPassword(stdin, stderr, *fromStdin)
	if err != nil {
		return err
	}
	id, closeStore, err := openIdentity(ctx, &c, stderr)
	if err != nil {
		return err
	}
	defer closeStore()
	confirm := true
	meta, _ := json.Marshal(map[string]string{"full_name": *name})
	u, err := id.AdminCreateUser(ctx, service.Client{IP: "cli"}, service.AdminUserInput{
		Email: email, Password: &password, EmailConfirm: &confirm, UserMetadata: meta,
		AppMetadata: json.RawMessage(`{"fairbalance_role":"admin"}`),
	})
	if err != nil {
		return err
	}
	// The member profile carries the role the app and the data API check;
	// the operator mark, the instance-wide settings and repairs.
	if err := service.NewRecovery(id, service.RecoveryConfig{}).PromoteAdmin(ctx, service.Client{IP: "cli"}, u.ID); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Created administrator %s (id %s), an operator of this instance.\n", u.Email, u.ID)
	if generated {
		fmt.Fprintf(stdout, "Password (shown once): %s\n", password)
	}
	return nil
}

// adminPassword prompts for a password on a terminal, reads it from stdin
// when asked, or generates one that meets the policy.
func adminPassword(stdin io.Reader, stderr io.Writer, fromStdin bool) (pw string, generated bool, err error) {
	if fromStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", false, err
		}
		pw = strings.TrimRight(line, "\r\n")
	} else if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(stderr, "Password (leave empty to generate one): ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", false, err
		}
		pw = string(b)
		if pw != "" {
			fmt.Fprint(stderr, "Repeat password: ")
			b2, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(stderr)
			if err != nil {
				return "", false, err
			}
			if string(b2) != pw {
				return "", false, errors.New("the passwords differ")
			}
		}
	}
	if pw == "" {
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return "", false, err
		}
		// 144 random bits; the fixed prefix makes every character class present.
		return "Fb7-" + base64.RawURLEncoding.EncodeToString(b), true, nil
	}
	if reasons, msg := auth.CheckPassword(pw); len(reasons) > 0 {
		return "", false, errors.New(msg)
	}
	return pw, false, nil
}
