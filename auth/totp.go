package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boombuler/barcode/qr"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TOTPEnrolment is what a new TOTP factor shows the user once.
type TOTPEnrolment struct {
	Secret string
	URI    string
	QRCode string // SVG markup
}

// NewTOTP creates a TOTP secret for account (the user's e-mail) under issuer:
// SHA-1, 6 digits, period 30 s.
func NewTOTP(issuer, account string) (*TOTPEnrolment, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, err
	}
	svg, err := qrSVG(key.URL())
	if err != nil {
		return nil, err
	}
	return &TOTPEnrolment{Secret: key.Secret(), URI: key.URL(), QRCode: svg}, nil
}

// ValidateTOTP checks code against secret at now, allowing one step of skew.
func ValidateTOTP(secret, code string, now time.Time) bool {
	ok, err := totp.ValidateCustom(code, secret, now, totp.ValidateOpts{Period: 30, Skew: 1, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	return err == nil && ok
}

// qrSVG renders text as a QR code in SVG, one square per module.
func qrSVG(text string) (string, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", err
	}
	b := code.Bounds()
	n := b.Dx()
	const quiet = 4
	size := n + 2*quiet
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="100%%" height="100%%" fill="#fff"/><path fill="#000" d="`, size, size)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			r, _, _, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA()
			if r == 0 {
				fmt.Fprintf(&sb, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	sb.WriteString(`"/></svg>`)
	return sb.String(), nil
}

// Sealer encrypts secrets at rest (TOTP secrets) with AES-256-GCM under a
// key derived from the instance secret.
type Sealer struct{ aead cipher.AEAD }

// NewSealer derives the sealing key from the instance secret.
func NewSealer(secret []byte) *Sealer {
	k := sha256.Sum256(append([]byte("fairbalance/seal/v1:"), secret...))
	blk, err := aes.NewCipher(k[:])
	if err != nil {
		panic(err)
	}
	aead, err := cipher.NewGCM(blk)
	if err != nil {
		panic(err)
	}
	return &Sealer{aead: aead}
}

// Seal returns plaintext encrypted, as text.
func (s *Sealer) Seal(plaintext string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return "v1:" + base64.RawStdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plaintext), nil))
}

// Open decrypts what Seal returned.
func (s *Sealer) Open(sealed string) (string, error) {
	raw, ok := strings.CutPrefix(sealed, "v1:")
	if !ok {
		return "", errors.New("auth: unsealed value")
	}
	b, err := base64.RawStdEncoding.DecodeString(raw)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", errors.New("auth: bad sealed value")
	}
	p, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("auth: bad sealed value")
	}
	return string(p), nil
}
