package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Keys are the instance's secrets: the HS256 secret behind the anon and
// service-role API keys, and the ES256 key that signs access tokens.
type Keys struct {
	Secret  []byte
	Signing *ecdsa.PrivateKey
	KID     string
	// RecoveryKey authorises the safe-mode repair actions.
	RecoveryKey string
}

type keysFile struct {
	JWTSecret   string `json:"jwt_secret"`
	SigningKey  string `json:"signing_key"`
	KID         string `json:"kid"`
	RecoveryKey string `json:"recovery_key"`
}

// KeysFileName is the file in the data directory that holds the keys.
const KeysFileName = "keys.json"

// LoadOrCreateKeys reads the keys from dir, creating them (file mode 0600)
// on first use. created reports whether they were just made.
func LoadOrCreateKeys(dir string) (k *Keys, created bool, err error) {
	path := filepath.Join(dir, KeysFileName)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		k, err = generateKeys()
		if err != nil {
			return nil, false, err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, false, err
		}
		der, err := x509.MarshalPKCS8PrivateKey(k.Signing)
		if err != nil {
			return nil, false, err
		}
		out, _ := json.MarshalIndent(keysFile{
			JWTSecret:   base64.RawURLEncoding.EncodeToString(k.Secret),
			SigningKey:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
			KID:         k.KID,
			RecoveryKey: k.RecoveryKey,
		}, "", "  ")
		// O_EXCL: two processes starting at once must not both write keys.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			return LoadOrCreateKeys(dir)
		}
		if err != nil {
			return nil, false, err
		}
		if _, err := f.Write(out); err != nil {
			f.Close()
			return nil, false, err
		}
		return k, true, f.Close()
	}
	if err != nil {
		return nil, false, err
	}
	var kf keysFile
	if err := json.Unmarshal(b, &kf); err != nil {
		return nil, false, fmt.Errorf("auth: %s: %w", path, err)
	}
	secret, err := base64.RawURLEncoding.DecodeString(kf.JWTSecret)
	if err != nil || len(secret) < 32 {
		return nil, false, fmt.Errorf("auth: %s: bad jwt_secret", path)
	}
	blk, _ := pem.Decode([]byte(kf.SigningKey))
	if blk == nil {
		return nil, false, fmt.Errorf("auth: %s: bad signing_key", path)
	}
	pk, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, false, fmt.Errorf("auth: %s: %w", path, err)
	}
	ec, ok := pk.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		return nil, false, fmt.Errorf("auth: %s: signing_key must be P-256", path)
	}
	return &Keys{Secret: secret, Signing: ec, KID: kf.KID, RecoveryKey: kf.RecoveryKey}, false, nil
}

func generateKeys() (*Keys, error) {
	secret := make([]byte, 48)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	pub, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	sum := sha256.Sum256(pub)
	rk := make([]byte, 24)
	_, _ = rand.Read(rk)
	return &Keys{
		Secret:      secret,
		Signing:     ec,
		KID:         base64.RawURLEncoding.EncodeToString(sum[:12]),
		RecoveryKey: lowerBase32.EncodeToString(rk),
	}, nil
}

// APIKey returns the HS256 API key for role ("anon" or "service_role").
// It is deterministic for the instance, valid for ten years from a fixed
// issue time so that it is stable across restarts.
func (k *Keys) APIKey(role string) string {
	iat := int64(1767225600) // 2026-01-01T00:00:00Z
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss":  "fairbalance",
		"role": role,
		"iat":  iat,
		"exp":  iat + 10*365*24*3600,
	})
	s, err := t.SignedString(k.Secret)
	if err != nil {
		panic(err)
	}
	return s
}

// JWK is a public key as published in the JWKS.
type JWK struct {
	Kty    string   `json:"kty"`
	Crv    string   `json:"crv"`
	X      string   `json:"x"`
	Y      string   `json:"y"`
	KID    string   `json:"kid"`
	Alg    string   `json:"alg"`
	Use    string   `json:"use"`
	KeyOps []string `json:"key_ops"`
}

// JWKS returns the public signing keys; the HS256 secret is never listed.
func (k *Keys) JWKS() []JWK {
	pub := k.Signing.PublicKey
	bx, by := make([]byte, 32), make([]byte, 32)
	pb, _ := pub.Bytes() // 0x04 || X || Y
	copy(bx, pb[1:33])
	copy(by, pb[33:65])
	return []JWK{{
		Kty: "EC", Crv: "P-256",
		X: base64.RawURLEncoding.EncodeToString(bx), Y: base64.RawURLEncoding.EncodeToString(by),
		KID: k.KID, Alg: "ES256", Use: "sig", KeyOps: []string{"verify"},
	}}
}

// AMR is one authentication method reference in an access token.
type AMR struct {
	Method    string `json:"method"`
	Timestamp int64  `json:"timestamp"`
}

// Claims are the claims of access tokens and API keys.
type Claims struct {
	Issuer       string          `json:"iss,omitempty"`
	Subject      string          `json:"sub,omitempty"`
	Audience     Audience        `json:"aud,omitempty"`
	ExpiresAt    int64           `json:"exp,omitempty"`
	IssuedAt     int64           `json:"iat,omitempty"`
	Email        string          `json:"email"`
	Phone        string          `json:"phone"`
	AppMetadata  json.RawMessage `json:"app_metadata,omitempty"`
	UserMetadata json.RawMessage `json:"user_metadata,omitempty"`
	Role         string          `json:"role"`
	AAL          string          `json:"aal,omitempty"`
	AMR          []AMR           `json:"amr,omitempty"`
	SessionID    string          `json:"session_id,omitempty"`
	IsAnonymous  bool            `json:"is_anonymous"`
}

// Audience is the aud claim: written as a single string, read from a string
// or an array of strings.
type Audience []string

// MarshalJSON writes one audience as a string.
func (a Audience) MarshalJSON() ([]byte, error) {
	if len(a) == 1 {
		return json.Marshal(a[0])
	}
	return json.Marshal([]string(a))
}

// UnmarshalJSON accepts a string or an array of strings.
func (a *Audience) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*a = Audience{s}
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*a = l
	return nil
}

func numericDate(v int64) *jwt.NumericDate {
	if v == 0 {
		return nil
	}
	return jwt.NewNumericDate(time.Unix(v, 0))
}

// The jwt.Claims interface.
func (c *Claims) GetExpirationTime() (*jwt.NumericDate, error) { return numericDate(c.ExpiresAt), nil }
func (c *Claims) GetIssuedAt() (*jwt.NumericDate, error)       { return numericDate(c.IssuedAt), nil }
func (c *Claims) GetNotBefore() (*jwt.NumericDate, error)      { return nil, nil }
func (c *Claims) GetIssuer() (string, error)                   { return c.Issuer, nil }
func (c *Claims) GetSubject() (string, error)                  { return c.Subject, nil }
func (c *Claims) GetAudience() (jwt.ClaimStrings, error)       { return jwt.ClaimStrings(c.Audience), nil }

// Sign returns claims signed with ES256 under the instance's kid.
func (k *Keys) Sign(c *Claims) (string, error) {
	t := jwt.NewWithClaims(jwt.SigningMethodES256, c)
	t.Header["kid"] = k.KID
	return t.SignedString(k.Signing)
}

// ErrTokenExpired distinguishes an expired token from an invalid one.
var ErrTokenExpired = errors.New("token is expired")

// Parse verifies a JWT (ES256 with the instance's kid, or HS256 with the
// secret; no other algorithm) and returns its claims. An expired token gives
// an error wrapping ErrTokenExpired.
func (k *Keys) Parse(token string) (*Claims, error) {
	var c Claims
	_, err := jwt.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		switch t.Method.Alg() {
		case "ES256":
			if kid, _ := t.Header["kid"].(string); kid != k.KID {
				return nil, errors.New("unknown kid")
			}
			return &k.Signing.PublicKey, nil
		case "HS256":
			return k.Secret, nil
		}
		return nil, errors.New("unexpected signing method")
	}, jwt.WithValidMethods([]string{"ES256", "HS256"}), jwt.WithLeeway(5*time.Second))
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, fmt.Errorf("%w: %w", ErrTokenExpired, err)
		}
		return nil, err
	}
	return &c, nil
}
