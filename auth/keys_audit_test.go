package auth

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// A new keys file holds an audit checkpoint key; an older one without it
// gets one added on the next start, every other field (unknown ones too)
// kept, still private; a file with one keeps it.
func TestAuditCheckpointKey(t *testing.T) {
	dir := t.TempDir()
	k, created, err := LoadOrCreateKeys(dir)
	if err != nil || !created || len(k.AuditKey) != ed25519.PrivateKeySize || k.AuditKeyAdded {
		t.Fatalf("create: %v %v %+v", created, err, k)
	}
	pub, err := ReadAuditPublicKey(dir)
	if err != nil || !pub.Equal(k.AuditKey.Public()) {
		t.Fatalf("read public key: %v", err)
	}
	if p, err := ParseAuditPublicKey(k.AuditPublicKey()); err != nil || !p.Equal(pub) {
		t.Fatalf("parse %q: %v", k.AuditPublicKey(), err)
	}
	for _, bad := range []string{"", "abc", "AAAA"} {
		if _, err := ParseAuditPublicKey(bad); err == nil {
			t.Errorf("ParseAuditPublicKey(%q) accepted", bad)
		}
	}

	// An older keys file: no audit key, and a field this version does not know.
	path := filepath.Join(dir, KeysFileName)
	var fields map[string]any
	b, _ := os.ReadFile(path)
	_ = json.Unmarshal(b, &fields)
	delete(fields, auditKeyField)
	fields["added_later"] = map[string]any{"x": 1.0}
	old, _ := json.MarshalIndent(fields, "", "  ")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAuditPublicKey(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read from an older file: %v", err)
	}

	var wg sync.WaitGroup
	got := make([]*Keys, 4) // several processes starting at once
	errs := make([]error, 4)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _, errs[i] = LoadOrCreateKeys(dir) }()
	}
	wg.Wait()
	added := 0
	for i, g := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !g.AuditKey.Equal(got[0].AuditKey) || g.KID != k.KID || g.RecoveryKey != k.RecoveryKey || g.APIKey("anon") != k.APIKey("anon") {
			t.Fatalf("start %d: other keys", i)
		}
		if g.AuditKeyAdded {
			added++
		}
	}
	if added == 0 || got[0].AuditKey.Equal(k.AuditKey) {
		t.Fatalf("no new key added (%d)", added)
	}
	b, _ = os.ReadFile(path)
	var after map[string]any
	if err := json.Unmarshal(b, &after); err != nil {
		t.Fatal(err)
	}
	for name, v := range fields {
		if x, _ := json.Marshal(after[name]); string(x) != mustJSON(v) {
			t.Errorf("%s changed: %s", name, x)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
	again, _, err := LoadOrCreateKeys(dir)
	if err != nil || again.AuditKeyAdded || !again.AuditKey.Equal(got[0].AuditKey) {
		t.Fatalf("the added key is not kept: %v", err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
