package fairbalance_test

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"

	"fairbalance"
)

// A checkpoint's signature covers every field: changing any of them, or
// checking with another key, fails.
func TestAuditCheckpointSignature(t *testing.T) {
	// A fixed key: its public key is 3b6a27bc…da29, whose SHA-256 begins 139e3940e64b5491.
	seed := make([]byte, ed25519.SeedSize)
	key := ed25519.NewKeyFromSeed(seed)
	pub := key.Public().(ed25519.PublicKey)
	keys := map[string]ed25519.PublicKey{fairbalance.AuditKeyID(pub): pub}
	base := fairbalance.AuditCheckpoint{OrgID: "org-1", Seq: 42, Hash: strings.Repeat("ab", 32), Entries: 42,
		At: time.Date(2026, 8, 1, 9, 30, 0, 123456789, time.FixedZone("CEST", 7200))}
	base.Sign(key)
	if base.KeyID != "139e3940e64b5491" || base.At.Location() != time.UTC || base.At.Nanosecond() != 123456000 {
		t.Fatalf("signed: %+v", base)
	}
	if err := base.Verify(keys); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(c *fairbalance.AuditCheckpoint){
		"OrgID":   func(c *fairbalance.AuditCheckpoint) { c.OrgID = "org-2" },
		"Seq":     func(c *fairbalance.AuditCheckpoint) { c.Seq++ },
		"Hash":    func(c *fairbalance.AuditCheckpoint) { c.Hash = strings.Repeat("cd", 32) },
		"Entries": func(c *fairbalance.AuditCheckpoint) { c.Entries-- },
		"At":      func(c *fairbalance.AuditCheckpoint) { c.At = c.At.Add(time.Microsecond) },
		"Sig":     func(c *fairbalance.AuditCheckpoint) { c.Sig = "!" + c.Sig[1:] },
	} {
		c := base
		change(&c)
		if err := c.Verify(keys); !errors.Is(err, fairbalance.ErrCheckpointSignature) {
			t.Errorf("changed %s: %v", name, err)
		}
	}
	c := base
	c.KeyID = "0000000000000000"
	if err := c.Verify(keys); !errors.Is(err, fairbalance.ErrCheckpointUnknownKey) {
		t.Errorf("unknown key: %v", err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	c = base
	c.Sign(other)
	if err := c.Verify(keys); !errors.Is(err, fairbalance.ErrCheckpointUnknownKey) {
		t.Errorf("another key: %v", err)
	}
	if s := base.Seal(); s.Seq != 42 || s.Hash != base.Hash || !s.At.Equal(base.At) {
		t.Errorf("seal %+v", s)
	}
}

// The server's action names, and nothing else, are refused to clients.
func TestIsServerAuditAction(t *testing.T) {
	for _, a := range []string{
		"asset_approved", "product_created", "asset_created", "asset_version_created", "claim_reference_unlinked",
		"module_deleted", "reference_updated", "invite_created", "member_deactivated", "audit_chain_verified",
		"audit_chain_verification_failed", "session_revoked", "bucket.create", "object.move", "orgs.update",
		"profiles_v2.update", "orgs.insert", "workspace_settings.upsert", "notification_preferences.delete",
	} {
		if !fairbalance.IsServerAuditAction(a) {
			t.Errorf("%q is not a server action", a)
		}
	}
	for _, a := range []string{
		"organization_created", "user_invited", "onboarding_completed", "demo_role_switched", "demo_role_reset",
		"client_error", "login", "api_error", "asset_viewed", "asset_version_uploaded", "forged", "test.event",
		"bulk_seeded", "Asset_Approved", " asset_approved", "asset.deleted", "perf.orgs.update", "Orgs.update",
		".update", "orgs.updated", "=HYPERLINK(\"x\")", "",
	} {
		if fairbalance.IsServerAuditAction(a) {
			t.Errorf("%q is a server action", a)
		}
	}
}
