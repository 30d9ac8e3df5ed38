package fairbalance_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"testing"

	"fairbalance"
)

// lengthPrefixed is one field of the signed encoding.
func lengthPrefixed(s string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(len(s))), s...)
}

// A signature that records where it was given seals the client's address
// and user agent too (encoding v2); one without them keeps the v1
// encoding, byte for byte, so seals made before they were recorded verify.
func TestSignatureSealCoversClient(t *testing.T) {
	s, key := sealedSignature(t)
	keys := map[string]ed25519.PublicKey{fairbalance.AuditKeyID(key.Public().(ed25519.PublicKey)): key.Public().(ed25519.PublicKey)}
	v1 := s.SignedBytes()
	if !bytes.HasPrefix(v1, lengthPrefixed("fairbalance.signature.v1")) {
		t.Fatal("a signature without a client is not encoded as v1")
	}

	withClient := *s
	withClient.ClientIP, withClient.UserAgent = "203.0.113.7", "Mozilla/5.0 (Signer)"
	v2 := withClient.SignedBytes()
	want := append(append(append(lengthPrefixed("fairbalance.signature.v2"), v1[len(lengthPrefixed("fairbalance.signature.v1")):]...),
		lengthPrefixed("203.0.113.7")...), lengthPrefixed("Mozilla/5.0 (Signer)")...)
	if !bytes.Equal(v2, want) {
		t.Fatal("v2 is not v1's fields under the v2 tag followed by the client's address and user agent")
	}
	// A v1 seal does not pass for a record with a client filled in.
	if err := withClient.VerifySeal(keys); !errors.Is(err, fairbalance.ErrSignatureAltered) {
		t.Fatalf("client added to a v1 record: %v", err)
	}
	withClient.SealWith(key)
	if err := withClient.VerifySeal(keys); err != nil {
		t.Fatalf("a fresh v2 seal: %v", err)
	}
	for name, change := range map[string]func(s *fairbalance.Signature){
		"address":        func(s *fairbalance.Signature) { s.ClientIP = "198.51.100.1" },
		"user agent":     func(s *fairbalance.Signature) { s.UserAgent = "curl/8" },
		"client removed": func(s *fairbalance.Signature) { s.ClientIP, s.UserAgent = "", "" },
		"address only":   func(s *fairbalance.Signature) { s.UserAgent = "" },
		// Moving a character across the boundary of the two fields.
		"boundary": func(s *fairbalance.Signature) { s.ClientIP, s.UserAgent = "203.0.113.7M", "ozilla/5.0 (Signer)" },
	} {
		c := withClient
		change(&c)
		if err := c.VerifySeal(keys); !errors.Is(err, fairbalance.ErrSignatureAltered) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
