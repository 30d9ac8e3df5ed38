package fairbalance

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strconv"
	"time"
)

// Sealing the audit trail. A person who can write to the database can
// rewrite a chain consistently (change an entry and recompute every later
// hash and the head) or cut its tail and roll the head back; the chain
// alone cannot show either. So at least every minute while a chain grows,
// and on shutdown, the server writes the chain's head as an
// AuditCheckpoint, signed with an Ed25519 key kept outside the database, to
// append-only places outside the database. Verification then checks each
// checkpoint's signature and that the chain still holds every sealed entry
// with its sealed hash (AuditStore.VerifyAudit with the checkpoints' seals).

// checkpointDomain opens the signed encoding of a checkpoint.
const checkpointDomain = "fairbalance.audit.checkpoint.v1"

// AuditCheckpoint is a signed statement that the chain of OrgID had Entries
// entries at time At, the last one being entry Seq with hash Hash. KeyID
// names the key that signed it (AuditKeyID) and Sig is the standard base64
// Ed25519 signature of SignedBytes. Its JSON form is one line of the
// checkpoint log.
type AuditCheckpoint struct {
	OrgID   string    `json:"org_id"`
	Seq     int64     `json:"seq"`
	Hash    string    `json:"hash"`
	Entries int64     `json:"entries"`
	At      time.Time `json:"at"`
	KeyID   string    `json:"key_id"`
	Sig     string    `json:"sig"`
}

// Errors of AuditCheckpoint.Verify.
var (
	// ErrCheckpointUnknownKey: the checkpoint names a key that is not given.
	ErrCheckpointUnknownKey = errors.New("the checkpoint was signed by an unknown key")
	// ErrCheckpointSignature: the signature does not verify, so the
	// checkpoint was changed after it was signed (or forged).
	ErrCheckpointSignature = errors.New("the checkpoint's signature does not verify")
)

// checkpointTimeLayout is At as signed: fixed width, microseconds, UTC.
const checkpointTimeLayout = "2006-01-02T15:04:05.000000Z"

// SignedBytes is the encoding that Sig signs: the tag
// "fairbalance.audit.checkpoint.v1", then OrgID, Seq (decimal), Hash,
// Entries (decimal), At (UTC, microseconds, 2006-01-02T15:04:05.000000Z)
// and KeyID, each written as its length in bytes (8-byte big-endian) and
// then its bytes, so no two checkpoints encode alike.
func (c *AuditCheckpoint) SignedBytes() []byte {
	var b []byte
	field := func(f []byte) {
		b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
		b = append(b, f...)
	}
	field([]byte(checkpointDomain))
	field([]byte(c.OrgID))
	field(strconv.AppendInt(nil, c.Seq, 10))
	field([]byte(c.Hash))
	field(strconv.AppendInt(nil, c.Entries, 10))
	field([]byte(c.At.UTC().Truncate(time.Microsecond).Format(checkpointTimeLayout)))
	field([]byte(c.KeyID))
	return b
}

// Sign sets KeyID to key's id, At to UTC with microsecond precision (as
// signed) and Sig to the signature of the result.
func (c *AuditCheckpoint) Sign(key ed25519.PrivateKey) {
	c.At = c.At.UTC().Truncate(time.Microsecond)
	c.KeyID = AuditKeyID(key.Public().(ed25519.PublicKey))
	c.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(key, c.SignedBytes()))
}

// Verify checks Sig with the key that keys holds under KeyID. It returns
// ErrCheckpointUnknownKey when keys has no such key and
// ErrCheckpointSignature when the signature does not verify.
func (c *AuditCheckpoint) Verify(keys map[string]ed25519.PublicKey) error {
	pub, ok := keys[c.KeyID]
	if !ok {
		return ErrCheckpointUnknownKey
	}
	sig, err := base64.StdEncoding.DecodeString(c.Sig)
	if err != nil || !ed25519.Verify(pub, c.SignedBytes(), sig) {
		return ErrCheckpointSignature
	}
	return nil
}

// Seal is what the checkpoint asserts, for AuditStore.VerifyAudit.
func (c *AuditCheckpoint) Seal() AuditSeal { return AuditSeal{Seq: c.Seq, Hash: c.Hash, At: c.At} }

// AuditKeyID names a checkpoint key: the first 8 bytes of the SHA-256 of
// the public key, in hex.
func AuditKeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// AuditSealStatus is how sealing goes on this instance.
type AuditSealStatus struct {
	// KeyID names the key that signs the checkpoints.
	KeyID string
	// Interval is the longest time a grown chain waits for its checkpoint.
	Interval time.Duration
	// Places names where checkpoints are written ("data directory", "s3").
	Places []string
	// LastRun is when the last sealing pass ended (zero before the first),
	// LastSealed when a checkpoint was last written.
	LastRun    time.Time
	LastSealed time.Time
	// Error says why the last pass could not write its checkpoints, or
	// write them everywhere ("" when it could). It names no organisation.
	Error   string
	ErrorAt time.Time
	// Refused holds, by organisation, why its chain is no longer sealed:
	// it does not match its last checkpoint any more (rewritten or cut), and
	// sealing it again would vouch for the changed chain.
	Refused map[string]string
}

// AuditSealer is the sealing of the audit trail as the service sees it.
type AuditSealer interface {
	// LastCheckpoint returns the newest checkpoint of orgID's chain that
	// this instance wrote or found in its checkpoint log at start; false
	// when there is none.
	LastCheckpoint(orgID string) (AuditCheckpoint, bool)
	// VerifyCheckpoint checks a checkpoint's signature against the
	// instance's checkpoint key (see AuditCheckpoint.Verify).
	VerifyCheckpoint(c *AuditCheckpoint) error
	// SealStatus reports how sealing goes.
	SealStatus() AuditSealStatus
}
