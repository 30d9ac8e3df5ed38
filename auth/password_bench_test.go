package auth_test

import (
	"context"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"fairbalance/auth"
)

const benchPassword = "Correct-Horse-1"

// BenchmarkPasswordVerify measures one password check: argon2id (the
// format of every account made here), serially and with the hasher's
// concurrency limit under parallel load; the dummy check made for unknown
// accounts; and bcrypt cost 10 (accounts imported from GoTrue).
func BenchmarkPasswordVerify(b *testing.B) {
	ctx := context.Background()
	h := auth.NewHasher(0)
	argon, err := h.Hash(ctx, benchPassword)
	if err != nil {
		b.Fatal(err)
	}
	bc, err := bcrypt.GenerateFromPassword([]byte(benchPassword), bcrypt.DefaultCost)
	if err != nil {
		b.Fatal(err)
	}
	verify := func(b *testing.B, hash string, want bool) {
		ok, err := h.Verify(ctx, benchPassword, hash)
		if err != nil || ok != want {
			b.Errorf("verify: %v, %v", ok, err)
		}
	}
	b.Run("argon2id", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			verify(b, argon, true)
		}
	})
	b.Run("argon2id-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				verify(b, argon, true)
			}
		})
	})
	b.Run("unknown-account", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			verify(b, "", false)
		}
	})
	b.Run("bcrypt-10", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			verify(b, string(bc), true)
		}
	})
}

func BenchmarkPasswordHash(b *testing.B) {
	ctx := context.Background()
	h := auth.NewHasher(0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Hash(ctx, benchPassword); err != nil {
			b.Fatal(err)
		}
	}
}
