package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pquerna/otp/totp"
	"golang.org/x/crypto/bcrypt"
)

func TestCheckPassword(t *testing.T) {
	for _, tc := range []struct {
		pw      string
		reasons []string
	}{
		{"Passw0rd", nil},
		{"Pa0", []string{ReasonLength}},
		{"password1", []string{ReasonCharacters}},
		{"PASSWORD1", []string{ReasonCharacters}},
		{"Password", []string{ReasonCharacters}},
		{"short", []string{ReasonLength, ReasonCharacters}},
		{"Ünïcødé9x", nil}, // letters beyond ASCII count for their case
	} {
		reasons, msg := CheckPassword(tc.pw)
		if strings.Join(reasons, ",") != strings.Join(tc.reasons, ",") {
			t.Errorf("%q: reasons %v, want %v", tc.pw, reasons, tc.reasons)
		}
		if (len(reasons) == 0) != (msg == "") {
			t.Errorf("%q: message %q with reasons %v", tc.pw, msg, reasons)
		}
	}
}

func TestHashAndVerify(t *testing.T) {
	h := NewHasher(2)
	ctx := context.Background()
	hash, err := h.Hash(ctx, "Corr3ct-horse")
	if err != nil || !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q, %v", hash, err)
	}
	if ok, err := h.Verify(ctx, "Corr3ct-horse", hash); !ok || err != nil {
		t.Fatalf("right password: %v %v", ok, err)
	}
	if ok, _ := h.Verify(ctx, "corr3ct-horse", hash); ok {
		t.Fatal("wrong password accepted")
	}
	if ok, err := h.Verify(ctx, "anything", ""); ok || err != nil {
		t.Fatalf("empty hash: %v %v", ok, err)
	}
	// Accounts imported from GoTrue carry bcrypt hashes.
	b, _ := bcrypt.GenerateFromPassword([]byte("Imp0rted!"), bcrypt.MinCost)
	if ok, err := h.Verify(ctx, "Imp0rted!", string(b)); !ok || err != nil {
		t.Fatalf("bcrypt: %v %v", ok, err)
	}
	if ok, _ := h.Verify(ctx, "imported", string(b)); ok {
		t.Fatal("bcrypt wrong password accepted")
	}
	if _, err := h.Verify(ctx, "x", "$md5$nope"); !errors.Is(err, ErrUnknownHash) {
		t.Fatalf("unknown format: %v", err)
	}
	// A cancelled caller does not wait for a hashing slot.
	full := NewHasher(1)
	full.sem <- struct{}{}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := full.Hash(cctx, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled hash: %v", err)
	}
}

func TestTokenHashAndPKCE(t *testing.T) {
	// GoTrue's token hash: hex SHA-224 of address and code.
	if got := TokenHash("User@Example.com", "123456"); got != "b507a4ef007e1379d644aa6fe395cf98f1054ac96b63a052dca9a26a" {
		t.Fatalf("token hash %q", got)
	}
	verifier := strings.Repeat("ab", 56)
	// Vector computed independently (base64url-no-pad of SHA-256).
	if !VerifyCodeVerifier("dBjftJeZ4CVP-mJ92K9pRi5QU6w2EZmwnE_tPUdDHBU", "_d4G7nH-gWUtMr7r8K1W304vSWIZBi5722DFK0OZgOE", "S256") {
		t.Fatal("S256 vector refused")
	}
	if VerifyCodeVerifier(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "s256") {
		t.Fatal("wrong verifier accepted")
	}
	if !VerifyCodeVerifier(verifier, verifier, "plain") || VerifyCodeVerifier(verifier, verifier, "md5") {
		t.Fatal("plain / unknown method")
	}
	if !ValidCodeChallenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "s256") || ValidCodeChallenge("short", "s256") || ValidCodeChallenge(strings.Repeat("a", 43)+"!", "s256") {
		t.Fatal("challenge format")
	}
	if !IsUUID(NewUUID()) || IsUUID("not-a-uuid") {
		t.Fatal("uuid")
	}
	if otp := NewOTP(); len(otp) != 6 || strings.Trim(otp, "0123456789") != "" {
		t.Fatalf("otp %q", otp)
	}
}

func TestKeysAndTokens(t *testing.T) {
	dir := t.TempDir()
	k, created, err := LoadOrCreateKeys(dir)
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	st, _ := os.Stat(filepath.Join(dir, KeysFileName))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("keys file mode %v", st.Mode().Perm())
	}
	k2, created, err := LoadOrCreateKeys(dir)
	if err != nil || created || k2.KID != k.KID || k2.APIKey("anon") != k.APIKey("anon") || k2.RefreshToken("s", 1) != k.RefreshToken("s", 1) {
		t.Fatalf("reload differs: %v %v", created, err)
	}
	if k.RefreshToken("s", 1) == k.RefreshToken("s", 2) || !ValidRefreshTokenFormat(k.RefreshToken("s", 1)) {
		t.Fatal("refresh tokens")
	}

	// Access tokens: ES256 with the kid, aud written as a string.
	now := time.Now()
	tok, err := k.Sign(&Claims{Subject: NewUUID(), Audience: Audience{"authenticated"}, ExpiresAt: now.Add(time.Hour).Unix(), IssuedAt: now.Unix(), Role: "authenticated", AAL: "aal1"})
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	payload, _ := jwt.NewParser().DecodeSegment(parts[1])
	var raw map[string]any
	_ = json.Unmarshal(payload, &raw)
	if raw["aud"] != "authenticated" {
		t.Fatalf("aud %#v, want a string", raw["aud"])
	}
	c, err := k.Parse(tok)
	if err != nil || c.AAL != "aal1" {
		t.Fatalf("parse: %v", err)
	}
	// The anon key (HS256) parses; its role is anon.
	if c, err := k.Parse(k.APIKey("anon")); err != nil || c.Role != "anon" || c.Subject != "" {
		t.Fatalf("anon key: %+v %v", c, err)
	}
	// Expired, foreign-signed, unsigned and other-algorithm tokens are refused.
	old, _ := k.Sign(&Claims{Subject: NewUUID(), ExpiresAt: now.Add(-time.Hour).Unix()})
	if _, err := k.Parse(old); !errors.Is(err, ErrTokenExpired) {
		t.Fatalf("expired: %v", err)
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	forged := jwt.NewWithClaims(jwt.SigningMethodES256, &Claims{Subject: NewUUID()})
	forged.Header["kid"] = k.KID
	fs, _ := forged.SignedString(other)
	if _, err := k.Parse(fs); err == nil {
		t.Fatal("token signed by another key accepted")
	}
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, &Claims{Subject: NewUUID(), Role: "service_role"}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if _, err := k.Parse(none); err == nil {
		t.Fatal("unsigned token accepted")
	}
	hs384, _ := jwt.NewWithClaims(jwt.SigningMethodHS384, &Claims{Role: "service_role"}).SignedString(k.Secret)
	if _, err := k.Parse(hs384); err == nil {
		t.Fatal("HS384 accepted")
	}
	if jwks := k.JWKS(); len(jwks) != 1 || jwks[0].KID != k.KID || jwks[0].Alg != "ES256" || jwks[0].X == "" {
		t.Fatalf("jwks %+v", jwks)
	}
}

func TestTOTPAndSealer(t *testing.T) {
	enr, err := NewTOTP("review.example.com", "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enr.URI, "otpauth://totp/review.example.com:ada@example.com?") || !strings.HasPrefix(enr.QRCode, "<svg") {
		t.Fatalf("enrolment %+v", enr)
	}
	now := time.Now()
	code, _ := totp.GenerateCode(enr.Secret, now)
	if !ValidateTOTP(enr.Secret, code, now) || !ValidateTOTP(enr.Secret, code, now.Add(30*time.Second)) {
		t.Fatal("valid code refused")
	}
	if ValidateTOTP(enr.Secret, code, now.Add(3*time.Minute)) {
		t.Fatal("code accepted far outside its step")
	}
	s := NewSealer([]byte("0123456789abcdef0123456789abcdef"))
	sealed := s.Seal(enr.Secret)
	if strings.Contains(sealed, enr.Secret) {
		t.Fatal("secret visible when sealed")
	}
	if got, err := s.Open(sealed); err != nil || got != enr.Secret {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := NewSealer([]byte("another secret, another key.....")).Open(sealed); err == nil {
		t.Fatal("opened with another key")
	}
	if _, err := s.Open(enr.Secret); err == nil {
		t.Fatal("unsealed value accepted")
	}
}
