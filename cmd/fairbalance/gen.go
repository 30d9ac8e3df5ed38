package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"fairbalance"
	"fairbalance/service"
)

// registry is the data API as every command sees it: the tables and
// functions served at /rest/v1.
func registry(store fairbalance.Store) *service.Data {
	tables := append(service.RecordTables(), service.WorkspaceTables()...)
	d := service.NewData(store, append(tables, service.ContentTables()...)...)
	d.RegisterFunctions(d.RecordFunctions()...)
	d.RegisterFunctions(d.WorkspaceFunctions()...)
	d.RegisterFunctions(d.SearchFunctions()...)
	// Without storage here: serve registers them again with it.
	d.RegisterFunctions(service.NewContent(nil).Functions()...)
	return d
}

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
	ts := registry(nil).TypeScript()
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
