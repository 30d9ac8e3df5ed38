package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// RefreshToken returns the opaque refresh token at position counter of a
// session's chain: 32 characters of lowercase base32 of an HMAC under the
// instance secret. Deriving it (rather than storing it) lets the server hand
// the active token out again to a client that lost the last response, while
// the database alone holds only hashes.
func (k *Keys) RefreshToken(sessionID string, counter int64) string {
	m := hmac.New(sha256.New, k.Secret)
	fmt.Fprintf(m, "refresh:%s:%d", sessionID, counter)
	return lowerBase32.EncodeToString(m.Sum(nil)[:20])
}

// HashRefreshToken is what the store keeps of a refresh token.
func HashRefreshToken(t string) string {
	s := sha256.Sum256([]byte(t))
	return hex.EncodeToString(s[:])
}

var refreshTokenRE = regexp.MustCompile(`^[a-z0-9]{12,64}$`)

// ValidRefreshTokenFormat reports whether t could be a refresh token.
func ValidRefreshTokenFormat(t string) bool { return refreshTokenRE.MatchString(t) }

// NewOTP returns a 6-digit one-time code.
func NewOTP() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// TokenHash is the hash sent in e-mail links and stored for a one-time
// token: lowercase hex SHA-224 of the address followed by the OTP, as GoTrue.
func TokenHash(address, otp string) string {
	s := sha256.Sum224([]byte(strings.ToLower(address) + otp))
	return hex.EncodeToString(s[:])
}

// NewUUID returns a random (version 4) UUID.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// IsUUID reports whether s is a UUID in canonical text form.
func IsUUID(s string) bool { return uuidRE.MatchString(s) }

var challengeRE = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// ValidCodeChallenge reports whether a PKCE challenge and method are
// acceptable: 43 to 128 unreserved characters, method s256 or plain.
func ValidCodeChallenge(challenge, method string) bool {
	m := strings.ToLower(method)
	return challengeRE.MatchString(challenge) && (m == "s256" || m == "plain")
}

// VerifyCodeVerifier checks a PKCE verifier against the stored challenge.
func VerifyCodeVerifier(verifier, challenge, method string) bool {
	var got string
	switch strings.ToLower(method) {
	case "s256":
		s := sha256.Sum256([]byte(verifier))
		got = base64.RawURLEncoding.EncodeToString(s[:])
	case "plain":
		got = verifier
	default:
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}
