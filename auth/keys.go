package auth

import (
	"crypto/ecdsa"
	"crypto/ed25519"
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
	"strings"
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
	// AuditKey signs the audit trail's checkpoints (Ed25519). It lives in
	// the keys file only, never in the database, so that someone who can
	// rewrite the database cannot sign a checkpoint for the rewritten chain.
	AuditKey ed25519.PrivateKey
	// AuditKeyAdded reports that LoadOrCreateKeys has just added AuditKey to
	// a keys file that had none.
	AuditKeyAdded bool
}

type keysFile struct {
	JWTSecret   string `json:"jwt_secret"`
	SigningKey  string `json:"signing_key"`
	KID         string `json:"kid"`
	RecoveryKey string `json:"recovery_key"`
	AuditKey    string `json:"audit_checkpoint_key,omitempty"`
}

// auditKeyField is AuditKey's name in the keys file.
const auditKeyField = "audit_checkpoint_key"

// KeysFileName is the file in the data directory that holds the keys.
const KeysFileName = "keys.json"

// LoadOrCreateKeys reads the keys from dir, creating them (file mode 0600)
// on first use. created reports whether they were just made. A keys file
// without an audit checkpoint key gets one added, every other field kept
// as it was (see AuditKeyAdded).
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
		auditPEM, err := encodePrivateKey(k.AuditKey)
		if err != nil {
			return nil, false, err
		}
		out, _ := json.MarshalIndent(keysFile{
			JWTSecret:   base64.RawURLEncoding.EncodeToString(k.Secret),
			SigningKey:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
			KID:         k.KID,
			RecoveryKey: k.RecoveryKey,
			AuditKey:    auditPEM,
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
	k = &Keys{Secret: secret, Signing: ec, KID: kf.KID, RecoveryKey: kf.RecoveryKey}
	if kf.AuditKey == "" {
		if k.AuditKey, err = addAuditKey(dir); err != nil {
			return nil, false, err
		}
		k.AuditKeyAdded = true
		return k, false, nil
	}
	if k.AuditKey, err = decodeAuditKey(kf.AuditKey); err != nil {
		return nil, false, fmt.Errorf("auth: %s: %s: %w", path, auditKeyField, err)
	}
	return k, false, nil
}

func encodePrivateKey(key any) (string, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), nil
}

func decodeAuditKey(s string) (ed25519.PrivateKey, error) {
	blk, _ := pem.Decode([]byte(s))
	if blk == nil {
		return nil, errors.New("not a PEM private key")
	}
	pk, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, err
	}
	ed, ok := pk.(ed25519.PrivateKey)
	if !ok {
		return nil, errors.New("must be an Ed25519 key")
	}
	return ed, nil
}

// addAuditKey adds an audit checkpoint key to the keys file in dir and
// returns the key the file then holds. Several processes may start at once
// on one data directory: a lock file makes them take turns, and one that
// finds a key already added (by another) uses that one. The file is
// rewritten whole — every other field kept, unknown ones too — to a
// temporary file that is renamed over it, so it is never half-written.
func addAuditKey(dir string) (ed25519.PrivateKey, error) {
	path := filepath.Join(dir, KeysFileName)
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("auth: %s: %w", path, err)
	}
	if raw, ok := fields[auditKeyField]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil && s != "" {
			key, err := decodeAuditKey(s)
			if err != nil {
				return nil, fmt.Errorf("auth: %s: %s: %w", path, auditKeyField, err)
			}
			return key, nil
		}
	}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	enc, err := encodePrivateKey(key)
	if err != nil {
		return nil, err
	}
	fields[auditKeyField], _ = json.Marshal(enc)
	out, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, KeysFileName+".tmp-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, err
	}
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename survives a crash
		d.Close()
	}
	return key, nil
}

// lockFile takes the lock at path (a file created exclusively) and returns
// its release. A lock older than lockStale was left by a process that died
// holding it and is broken.
func lockFile(path string) (unlock func(), err error) {
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > lockStale {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("auth: %s is held by another process (remove it if none is starting)", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const (
	lockWait  = 15 * time.Second
	lockStale = 10 * time.Second
)

// ReadAuditPublicKey returns the public half of the audit checkpoint key in
// dir's keys file, without creating or changing anything. It fails with an
// error wrapping os.ErrNotExist when there is no keys file or it holds no
// audit checkpoint key yet.
func ReadAuditPublicKey(dir string) (ed25519.PublicKey, error) {
	path := filepath.Join(dir, KeysFileName)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kf keysFile
	if err := json.Unmarshal(b, &kf); err != nil {
		return nil, fmt.Errorf("auth: %s: %w", path, err)
	}
	if kf.AuditKey == "" {
		return nil, fmt.Errorf("auth: %s has no %s: %w", path, auditKeyField, os.ErrNotExist)
	}
	key, err := decodeAuditKey(kf.AuditKey)
	if err != nil {
		return nil, fmt.Errorf("auth: %s: %s: %w", path, auditKeyField, err)
	}
	return key.Public().(ed25519.PublicKey), nil
}

// AuditPublicKey is the public half of AuditKey in its text form (standard
// base64), as ParseAuditPublicKey reads it.
func (k *Keys) AuditPublicKey() string {
	return base64.StdEncoding.EncodeToString(k.AuditKey.Public().(ed25519.PublicKey))
}

// ParseAuditPublicKey reads an audit checkpoint public key in the text
// form of AuditPublicKey.
func ParseAuditPublicKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("an audit checkpoint key is 32 bytes in standard base64")
	}
	return ed25519.PublicKey(b), nil
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
	_, audit, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return &Keys{
		Secret:      secret,
		Signing:     ec,
		KID:         base64.RawURLEncoding.EncodeToString(sum[:12]),
		RecoveryKey: lowerBase32.EncodeToString(rk),
		AuditKey:    audit,
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
