package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"fairbalance/auth"
	"fairbalance/service"
	"fairbalance/sqlstore"
)

// `fairbalance operator grant|revoke|list` on a data directory, and what
// the marks mean to the server that then runs on it.
func TestOperatorGrantRevokeList(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	cmd := func(stdin string, args ...string) (string, error) {
		t.Helper()
		var out bytes.Buffer
		err := run(ctx, append(args, "--data-dir", dir), strings.NewReader(stdin), &out, io.Discard)
		return out.String(), err
	}
	const pw = "Correct-Horse-42"
	out, err := cmd(pw+"\n", "admin", "create", "--email", "a@example.com", "--password-stdin")
	if err != nil || !strings.Contains(out, "an operator of this instance") {
		t.Fatalf("admin create: %q %v", out, err)
	}
	if out, err := cmd("", "operator", "list"); err != nil || !strings.Contains(out, "a@example.com") || !strings.Contains(out, "\tcli\t") || strings.Count(out, "\n") != 1 {
		t.Fatalf("list: %q %v", out, err)
	}
	if _, err := cmd("", "operator", "revoke", "--email", "a@example.com"); err == nil || !strings.Contains(err.Error(), "last operator") {
		t.Fatalf("revoking the last operator: %v", err)
	}
	if _, err := cmd("", "operator", "grant", "--email", "nobody@example.com"); err == nil || !strings.Contains(err.Error(), "No account") {
		t.Fatalf("granting an unknown address: %v", err)
	}
	for _, args := range [][]string{{"operator"}, {"operator", "promote"}, {"operator", "grant"}} {
		if _, err := cmd("", args...); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}

	// Another account, not an administrator: created as the admin API would.
	db, err := sqlstore.Open(ctx, sqlstore.Options{SQLitePath: filepath.Join(dir, "fairbalance.db")})
	if err != nil {
		t.Fatal(err)
	}
	keys, _, err := auth.LoadOrCreateKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	email, password, confirm := "b@example.com", pw, true
	if _, err := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{}, nil).AdminCreateUser(ctx, service.Client{IP: "test"},
		service.AdminUserInput{Email: &email, Password: &password, EmailConfirm: &confirm}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	if out, err := cmd("", "operator", "grant", "--email", "B@example.com"); err != nil || !strings.Contains(out, "b@example.com") || !strings.Contains(out, "is now an operator") {
		t.Fatalf("grant: %q %v", out, err)
	}
	if out, err := cmd("", "operator", "grant", "--email", "b@example.com"); err != nil || !strings.Contains(out, "an operator already") {
		t.Fatalf("grant again: %q %v", out, err)
	}
	if out, err := cmd("", "operator", "revoke", "--email", "a@example.com"); err != nil || !strings.Contains(out, "no longer an operator") {
		t.Fatalf("revoke: %q %v", out, err)
	}
	if _, err := cmd("", "operator", "revoke", "--email", "a@example.com"); err == nil || !strings.Contains(err.Error(), "not an operator") {
		t.Fatalf("revoking a non-operator: %v", err)
	}
	if out, err := cmd("", "operator", "list"); err != nil || strings.Contains(out, "a@example.com") || !strings.Contains(out, "b@example.com") {
		t.Fatalf("list: %q %v", out, err)
	}

	// On the server: a, an administrator still, reads the instance's
	// settings only; b, the operator, changes them.
	var kb bytes.Buffer
	if err := run(ctx, []string{"keys", "--json", "--data-dir", dir}, nil, &kb, io.Discard); err != nil {
		t.Fatal(err)
	}
	var k map[string]string
	_ = json.Unmarshal(kb.Bytes(), &k)
	base, stop := startServer(t, dir)
	defer stop()
	call := func(path, bearerToken string, body any) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(b))
		req.Header.Set("apikey", k["anon_key"])
		req.Header.Set("Content-Type", "application/json")
		if bearerToken != "" {
			req.Header.Set("Authorization", "Bearer "+bearerToken)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m
	}
	token := func(email string) string {
		t.Helper()
		status, m := call("/auth/v1/token?grant_type=password", "", map[string]string{"email": email, "password": pw})
		tok, _ := m["access_token"].(string)
		if status != http.StatusOK || tok == "" {
			t.Fatalf("sign-in as %s: %d %v", email, status, m)
		}
		return tok
	}
	a, b := token("a@example.com"), token("b@example.com")
	update := map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"block_indexing": true}}
	if status, m := call("/functions/v1/security-manager", a, map[string]any{"action": "GET_SETTINGS"}); status != http.StatusOK || m["editable"] != false {
		t.Fatalf("a's GET_SETTINGS: %d %v", status, m)
	}
	if status, m := call("/functions/v1/security-manager", a, update); status != http.StatusForbidden || m["code"] != "not_operator" {
		t.Fatalf("a's UPDATE_SETTINGS: %d %v", status, m)
	}
	if status, m := call("/functions/v1/security-manager", b, update); status != http.StatusOK || m["editable"] != true {
		t.Fatalf("b's UPDATE_SETTINGS: %d %v", status, m)
	}
}
