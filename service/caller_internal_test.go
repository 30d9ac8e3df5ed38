package service

import (
	"context"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/sqlstore/storetest"
)

func TestCallerCache(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	entry := func(user, session string, at time.Time) callerEntry {
		return callerEntry{userID: user, sessionID: session, caller: fairbalance.Caller{Role: "authenticated", UserID: user, SessionID: session}, at: at}
	}
	cc := newCallerCache(5*time.Second, 3)

	cc.put("s1 u1", entry("u1", "s1", now), cc.generation())
	if e, ok := cc.get("s1 u1", now.Add(5*time.Second-time.Nanosecond)); !ok || e.caller.UserID != "u1" {
		t.Fatal("entry not remembered within the TTL")
	}
	if _, ok := cc.get("s1 u1", now.Add(5*time.Second)); ok {
		t.Fatal("entry remembered for the whole TTL and beyond")
	}
	if _, ok := cc.get("s1 u1", now.Add(-time.Second)); ok {
		t.Fatal("a clock set back extends an entry's life")
	}

	// A read that began before a forget is not stored: it may predate the
	// change.
	gen := cc.generation()
	cc.forget(&touched{sessions: []string{"unrelated"}})
	cc.put("s2 u2", entry("u2", "s2", now), gen)
	if _, ok := cc.get("s2 u2", now); ok {
		t.Fatal("a read older than a forget was stored")
	}

	// Forgetting a session, an account, everything.
	put := func(user, session string) { cc.put(session+" "+user, entry(user, session, now), cc.generation()) }
	put("u1", "s1")
	put("u1", "s2")
	put("u2", "s3")
	cc.forget(&touched{sessions: []string{"s1"}})
	if _, ok := cc.get("s1 u1", now); ok {
		t.Fatal("forgotten session still remembered")
	}
	if _, ok := cc.get("s2 u1", now); !ok {
		t.Fatal("another session of the account forgotten with it")
	}
	cc.forget(&touched{users: []string{"u1"}})
	if _, ok := cc.get("s2 u1", now); ok {
		t.Fatal("session of a forgotten account still remembered")
	}
	if _, ok := cc.get("s3 u2", now); !ok {
		t.Fatal("another account forgotten")
	}
	cc.forget(&touched{all: true})
	if _, ok := cc.get("s3 u2", now); ok {
		t.Fatal("forget all kept an entry")
	}

	// Bounded: expired entries make room first, then it starts afresh.
	cc.put("old", entry("u0", "old", now.Add(-time.Minute)), cc.generation())
	put("u1", "s1")
	put("u2", "s2")
	put("u3", "s3") // full: the expired one goes
	if _, ok := cc.get("s1 u1", now); !ok {
		t.Fatal("live entry dropped while an expired one could go")
	}
	put("u4", "s4") // full of live entries: afresh
	if _, ok := cc.get("s1 u1", now); ok {
		t.Fatal("cache grew beyond its bound")
	}
	if _, ok := cc.get("s4 u4", now); !ok {
		t.Fatal("newest entry lost")
	}

	off := newCallerCache(-1, 3)
	off.put("s1 u1", entry("u1", "s1", now), off.generation())
	if _, ok := off.get("s1 u1", now); ok {
		t.Fatal("a negative TTL remembers")
	}
}

func TestCallerCacheTTLIsBounded(t *testing.T) {
	t.Parallel()
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t, "sqlite")
	for in, want := range map[time.Duration]time.Duration{
		0:                DefaultCallerCacheTTL,
		time.Second:      time.Second,
		time.Minute:      RevocationBound,
		-time.Nanosecond: -time.Nanosecond,
	} {
		id := NewIdentity(db, keys, auth.NewHasher(0), IdentityConfig{CallerCacheTTL: in}, nil)
		if got := id.Config().CallerCacheTTL; got != want || id.callers.ttl != want {
			t.Errorf("CallerCacheTTL %v gives %v (cache %v), want %v", in, got, id.callers.ttl, want)
		}
	}
}

// The store of the identity service notes what each transaction changes
// that a remembered caller depends on; the bare store does not.
func TestWatchedStoreForgets(t *testing.T) {
	t.Parallel()
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db := storetest.Open(t, "sqlite")
	id := NewIdentity(db, keys, auth.NewHasher(0), IdentityConfig{}, nil)
	now := time.Now().UTC()
	remember := func() {
		for _, k := range []struct{ user, session string }{{"u1", "s1"}, {"u2", "s2"}} {
			id.callers.put(k.session+" "+k.user, callerEntry{userID: k.user, sessionID: k.session, at: now}, id.callers.generation())
		}
	}
	remembered := func(key string) bool { _, ok := id.callers.get(key, now); return ok }
	for _, c := range []struct {
		name   string
		change func(tx fairbalance.Tx) error
		gone   []string
		kept   []string
	}{
		{"delete a session", func(tx fairbalance.Tx) error { return tx.DeleteSession(ctx, "s1") }, []string{"s1 u1"}, []string{"s2 u2"}},
		{"revoke a family", func(tx fairbalance.Tx) error { return tx.RevokeFamily(ctx, "s2") }, []string{"s2 u2"}, []string{"s1 u1"}},
		{"delete an account's sessions", func(tx fairbalance.Tx) error { return tx.DeleteSessions(ctx, "u1", "", false) }, []string{"s1 u1"}, []string{"s2 u2"}},
		{"a profile changes", func(tx fairbalance.Tx) error {
			return tx.UpdateProfile(ctx, &fairbalance.Profile{ID: "u2", Role: fairbalance.RoleViewer, UpdatedAt: now})
		}, []string{"s2 u2"}, []string{"s1 u1"}},
		{"the data API writes profiles", func(tx fairbalance.Tx) error {
			_, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "profiles_v2", Rows: []map[string]any{{"full_name": "x"}}, Columns: []string{"full_name"},
				Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: "u9"}})
			return err
		}, []string{"s1 u1", "s2 u2"}, nil},
		{"a factor is enrolled", func(tx fairbalance.Tx) error {
			return tx.CreateFactor(ctx, &fairbalance.Factor{ID: auth.NewUUID(), UserID: "u1", FactorType: "totp", Status: "unverified", CreatedAt: now, UpdatedAt: now})
		}, []string{"s1 u1"}, []string{"s2 u2"}},
		{"a factor is verified", func(tx fairbalance.Tx) error {
			return tx.UpdateFactor(ctx, &fairbalance.Factor{ID: auth.NewUUID(), UserID: "u2", FactorType: "totp", Status: "verified", UpdatedAt: now})
		}, []string{"s2 u2"}, []string{"s1 u1"}},
		{"abandoned enrolments go", func(tx fairbalance.Tx) error { return tx.DeleteUnverifiedFactors(ctx, "u1", "", now) }, []string{"s1 u1"}, []string{"s2 u2"}},
		{"a factor is removed", func(tx fairbalance.Tx) error { return tx.DeleteFactor(ctx, auth.NewUUID()) }, []string{"s1 u1", "s2 u2"}, nil},
		{"a read", func(tx fairbalance.Tx) error { _, err := tx.SessionByID(ctx, "s1"); return err }, nil, []string{"s1 u1", "s2 u2"}},
	} {
		remember()
		_ = id.Store().Tx(ctx, c.change) // missing rows may fail the change; it is forgotten all the same
		for _, k := range c.gone {
			if remembered(k) {
				t.Errorf("%s: %s still remembered", c.name, k)
			}
		}
		for _, k := range c.kept {
			if !remembered(k) {
				t.Errorf("%s: %s forgotten", c.name, k)
			}
		}
	}
	remember()
	if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.DeleteSession(ctx, "s1") }); err != nil {
		t.Fatal(err)
	}
	if !remembered("s1 u1") {
		t.Error("the bare store made the cache forget")
	}
}
