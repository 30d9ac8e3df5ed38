package fairbalance

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"time"
)

// Electronic signatures (21 CFR Part 11, sections 11.50, 11.70, 11.100,
// 11.200, 11.300). Deciding a review step is signing it: the server checks
// the signer's password (and authenticator code) at that moment and
// records a Signature, sealed so that it can be neither altered nor moved
// to another record: Seal is the SHA-256 of SignedBytes (the signer, the
// printed name, the UTC time, the meaning, the step, the version and the
// SHA-256 of the version's rendition), and Sig is the Ed25519 signature of
// SignedBytes by the instance's key (the audit checkpoint key, kept
// outside the database). Someone who can write to the database can
// change a row, but not make a new Sig for it.

// signatureDomain opens the signed encoding of a signature;
// signatureDomainV2 opens that of a signature recording where it was
// given (ClientIP, UserAgent).
const (
	signatureDomain   = "fairbalance.signature.v1"
	signatureDomainV2 = "fairbalance.signature.v2"
)

// Signature is an electronic signature of a review step (table
// signatures). Its manifestation is SignerName, SignedAt (UTC) and Meaning.
type Signature struct {
	ID       string `json:"id"`
	OrgID    string `json:"org_id"`
	ReviewID string `json:"review_id"`
	StepID   string `json:"step_id"`
	AssetID  string `json:"asset_id"`
	// VersionID is the version signed and RenditionSHA256 the hex SHA-256
	// of its rendition: the uploaded file's bytes, or the composed
	// version's sanitised HTML.
	VersionID       string `json:"version_id"`
	RenditionSHA256 string `json:"rendition_sha256"`
	SignerID        string `json:"signer_id"`
	// SignerName is the signer's printed name at the time of signing.
	SignerName string           `json:"signer_name"`
	SignedAt   time.Time        `json:"signed_at"`
	Meaning    SignatureMeaning `json:"meaning"`
	Decision   Decision         `json:"decision"`
	// Seal is the hex SHA-256 of SignedBytes; KeyID names the key that
	// made Sig (AuditKeyID), the standard base64 Ed25519 signature of
	// SignedBytes.
	Seal      string    `json:"seal"`
	KeyID     string    `json:"key_id"`
	Sig       string    `json:"sig"`
	CreatedAt time.Time `json:"created_at"`
	// ClientIP and UserAgent are where the signature was given: the
	// signer's address and user agent as the server saw the request
	// ("" when unknown, as for every signature made before they were
	// recorded).
	ClientIP  string `json:"client_ip"`
	UserAgent string `json:"user_agent"`
}

// signatureTimeLayout is SignedAt as signed: fixed width, microseconds, UTC.
const signatureTimeLayout = "2006-01-02T15:04:05.000000Z"

// SignedBytes is the canonical encoding that Seal hashes and Sig signs:
// the tag "fairbalance.signature.v1", then ID, OrgID, ReviewID, StepID,
// AssetID, VersionID, RenditionSHA256, SignerID, SignerName, SignedAt (UTC,
// microseconds, 2006-01-02T15:04:05.000000Z), Meaning, Decision and KeyID,
// each written as its length in bytes (8-byte big-endian) and then its
// bytes, so that no two signatures encode alike. CreatedAt is not signed.
//
// A signature that records where it was given (ClientIP or UserAgent not
// empty) is encoded as "fairbalance.signature.v2": the same fields, then
// ClientIP and UserAgent. Signatures without them keep the v1 encoding, so
// that every seal made before they were recorded still verifies; emptying
// or filling them in afterwards changes the encoding and breaks the seal.
func (s *Signature) SignedBytes() []byte {
	var b []byte
	field := func(f string) {
		b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
		b = append(b, f...)
	}
	v2 := s.ClientIP != "" || s.UserAgent != ""
	if v2 {
		field(signatureDomainV2)
	} else {
		field(signatureDomain)
	}
	for _, f := range []string{s.ID, s.OrgID, s.ReviewID, s.StepID, s.AssetID, s.VersionID, s.RenditionSHA256, s.SignerID, s.SignerName,
		s.SignedAt.UTC().Truncate(time.Microsecond).Format(signatureTimeLayout), string(s.Meaning), string(s.Decision), s.KeyID} {
		field(f)
	}
	if v2 {
		field(s.ClientIP)
		field(s.UserAgent)
	}
	return b
}

// SealWith sets SignedAt to UTC with microsecond precision (as signed),
// KeyID to key's id, Seal to the SHA-256 of SignedBytes and Sig to its
// Ed25519 signature by key.
func (s *Signature) SealWith(key ed25519.PrivateKey) {
	s.SignedAt = s.SignedAt.UTC().Truncate(time.Microsecond)
	s.KeyID = AuditKeyID(key.Public().(ed25519.PublicKey))
	payload := s.SignedBytes()
	sum := sha256.Sum256(payload)
	s.Seal = hex.EncodeToString(sum[:])
	s.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(key, payload))
}

// Errors of Signature.VerifySeal.
var (
	// ErrSignatureUnknownKey: the signature names a key that is not given.
	ErrSignatureUnknownKey = errors.New("the signature was sealed by an unknown key")
	// ErrSignatureAltered: the recorded fields no longer hash to the seal,
	// or the seal's signature does not verify: the record was changed
	// (or moved to another step) after it was signed.
	ErrSignatureAltered = errors.New("the signature record was altered after signing")
)

// VerifySeal checks that the recorded fields still hash to Seal and that
// Sig is their signature by the key that keys holds under KeyID.
func (s *Signature) VerifySeal(keys map[string]ed25519.PublicKey) error {
	pub, ok := keys[s.KeyID]
	if !ok {
		return ErrSignatureUnknownKey
	}
	payload := s.SignedBytes()
	sum := sha256.Sum256(payload)
	sig, err := base64.StdEncoding.DecodeString(s.Sig)
	if err != nil || hex.EncodeToString(sum[:]) != s.Seal || !ed25519.Verify(pub, payload, sig) {
		return ErrSignatureAltered
	}
	return nil
}
