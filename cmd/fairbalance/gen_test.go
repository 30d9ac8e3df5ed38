package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The web app's Database type must match the registry: regenerate it with
// `make generate` after changing a table or function.
func TestGeneratedTypesAreCurrent(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"gen", "types"}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", typesFile))
	if err != nil {
		t.Fatalf("%s: %v (run make generate)", typesFile, err)
	}
	if !bytes.Equal(committed, out.Bytes()) {
		t.Fatalf("%s is stale: run make generate", typesFile)
	}
}
