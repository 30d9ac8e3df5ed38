package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"fairbalance/service"
)

// typesFile is where the web app keeps the generated Database type.
const typesFile = "web/src/lib/database.types.ts"

func gen(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "types" {
		return errors.New("usage: fairbalance gen types [--out FILE]")
	}
	fs := flag.NewFlagSet("gen types", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write to FILE instead of standard output (the web app's copy is "+typesFile+")")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	ts := service.NewRegistry(nil, nil).TypeScript()
	if *out == "" {
		_, err := io.WriteString(stdout, ts)
		return err
	}
	if err := os.WriteFile(*out, []byte(ts), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", *out)
	return nil
}
