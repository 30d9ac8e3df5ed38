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

// The web app's list of the server's audit actions must match the server's
// vocabulary: regenerate it with `make generate` after adding an action (and
// word it in web/src/entities/audit, whose tests fail for an action without
// a sentence).
func TestGeneratedAuditActionsAreCurrent(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"gen", "audit-actions"}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", auditActionsFile))
	if err != nil {
		t.Fatalf("%s: %v (run make generate)", auditActionsFile, err)
	}
	if !bytes.Equal(committed, out.Bytes()) {
		t.Fatalf("%s is stale: run make generate", auditActionsFile)
	}
	if !bytes.Contains(out.Bytes(), []byte(`"asset_created",`)) || !bytes.Contains(out.Bytes(), []byte(`"login",`)) {
		t.Fatalf("the list lacks actions the server records:\n%s", out.Bytes())
	}
}
