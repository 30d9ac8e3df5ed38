package fairbalance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The audit trail (21 CFR Part 11 §11.10(e)). Every change writes one
// AuditEntry in the transaction of the change. Entries form one hash chain
// per organisation: each holds the hash of the one before it, so editing,
// removing or re-ordering a stored entry breaks the chain at that entry,
// which VerifyAudit reports. The database refuses UPDATE and DELETE on
// entries; the chain catches what is done around that refusal.
//
// The chain proves integrity against anyone who changes rows without
// recomputing every later hash. Someone able to rewrite the whole tail of a
// chain (or cut it and roll the head back) is caught by the checkpoints:
// signed copies of each chain's head, written at least every minute outside
// the database (see AuditCheckpoint), against which VerifyAudit checks the
// chain.

// GenesisHash is the PrevHash of the first entry of every chain.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// auditHashDomain opens the hashed encoding of an entry the server
// recorded; a new encoding gets a new tag. clientHashDomain opens that of a
// client-reported entry, which adds the flag as a last field: the tag alone
// already tells the two kinds apart, so no one can turn one into the other
// without recomputing the hash, while every entry written before the flag
// existed (all hashed under v1) still verifies.
const (
	auditHashDomain  = "fairbalance.audit.v1"
	clientHashDomain = "fairbalance.audit.v2"
)

// AuditEntry is one entry of an organisation's audit trail.
//
// Before, After and Meta are JSON values (empty when there is none); they
// are stored and hashed in canonical form (see CanonicalJSON), so the hash
// depends on the values, never on their spelling. CreatedAt is UTC with
// microsecond precision.
type AuditEntry struct {
	// ID is the entry's position in its organisation's chain, from 1, with
	// no gaps. It is unique only together with OrgID.
	ID int64
	// OrgID is the organisation whose chain holds the entry; "" is the
	// instance's own chain (events outside any organisation).
	OrgID      string
	ActorID    string
	ActorEmail string
	// Action names what happened, as "object.verb" (e.g. "asset.create");
	// it is required.
	Action     string
	ObjectType string
	ObjectID   string
	// Before and After are the object's values before and after the change
	// (Before empty on create, After empty on delete).
	Before json.RawMessage
	After  json.RawMessage
	// Meta holds anything else worth keeping (reason, request id…).
	Meta      json.RawMessage
	IP        string
	UserAgent string
	CreatedAt time.Time
	// ClientReported marks an entry a client appended through the data API
	// (audit_logs, audit_logs_v2) rather than one the server recorded for a
	// change it made: it says only what the client claims. Such entries
	// never carry a server action name (see IsServerAuditAction). The flag
	// is part of the hash.
	ClientReported bool
	// PrevHash is the Hash of entry ID-1 of the same chain, or GenesisHash.
	PrevHash string
	// Hash is ComputeHash of the entry as stored.
	Hash string
}

// Normalize brings e into the form in which it is stored and hashed:
// CreatedAt in UTC truncated to the microsecond, text fields as valid UTF-8
// without NUL bytes (invalid bytes become U+FFFD; PostgreSQL refuses both in
// text), and Before, After and Meta in canonical JSON. It returns an *Error
// of KindInvalid (code "invalid_audit_entry") when Action is empty or a JSON
// field is not valid JSON. It does not touch ID, PrevHash or Hash.
func (e *AuditEntry) Normalize() error {
	for _, s := range []*string{&e.OrgID, &e.ActorID, &e.ActorEmail, &e.Action, &e.ObjectType, &e.ObjectID, &e.IP, &e.UserAgent} {
		*s = cleanText(*s)
	}
	if e.Action == "" {
		return Errorf(KindInvalid, "invalid_audit_entry", "An audit entry needs an action.")
	}
	for _, f := range []struct {
		name string
		v    *json.RawMessage
	}{{"before", &e.Before}, {"after", &e.After}, {"meta", &e.Meta}} {
		c, err := CanonicalJSON(*f.v)
		if err != nil {
			return &Error{Kind: KindInvalid, Code: "invalid_audit_entry", Message: "The audit entry's " + f.name + " value is not valid JSON.", Err: err}
		}
		*f.v = c
	}
	e.CreatedAt = e.CreatedAt.UTC().Truncate(time.Microsecond)
	return nil
}

func cleanText(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// CanonicalJSON returns the canonical form of the JSON value in m: no
// insignificant white space, object keys sorted by their bytes (for a
// duplicated key the last value counts), strings re-encoded by
// encoding/json without HTML escaping (invalid UTF-8 becomes U+FFFD),
// numbers kept as written. Empty input stays empty. Two spellings of the
// same value — such as PostgreSQL's jsonb output with its own key order —
// have the same canonical form. It fails when m is not valid JSON.
func CanonicalJSON(m json.RawMessage) (json.RawMessage, error) {
	if len(m) == 0 {
		return nil, nil
	}
	if !json.Valid(m) {
		return nil, fmt.Errorf("invalid JSON")
	}
	d := json.NewDecoder(bytes.NewReader(m))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// encoding/json writes map keys sorted and json.Number verbatim.
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte{'\n'})), nil
}

// auditTimeLayout is CreatedAt as hashed: fixed width, microseconds, UTC.
const auditTimeLayout = "2006-01-02T15:04:05.000000Z"

// ComputeHash returns the lowercase hex SHA-256 of e's canonical encoding,
// which covers every field except Hash. It is pure and does not modify e.
//
// The encoding is the tag "fairbalance.audit.v1" followed by the fields
// ID (decimal), OrgID, ActorID, ActorEmail, Action, ObjectType, ObjectID,
// Before, After, Meta, IP, UserAgent, CreatedAt and PrevHash, in that
// order, each written as its length in bytes (8-byte big-endian) and then
// its bytes. Length prefixes make the encoding unambiguous whatever the
// fields contain. The text fields are hashed as they are (AppendAudit
// stores them as Normalize leaves them), CreatedAt as UTC truncated to the microsecond in the layout
// 2006-01-02T15:04:05.000000Z, and the JSON fields in canonical form
// (CanonicalJSON; bytes that are not valid JSON are hashed as they are,
// which no canonical form can equal). Changing this encoding would break
// every stored chain: it is fixed by a test vector.
//
// A ClientReported entry is encoded the same way under the tag
// "fairbalance.audit.v2", with one more field after PrevHash: the byte
// '1'. An entry the server recorded keeps the v1 encoding (entries written
// before the flag existed are all such), so clearing or setting the flag
// changes the hash.
func (e *AuditEntry) ComputeHash() string { return e.hash(true) }

// HashMatches reports whether Hash is ComputeHash of e. It first hashes
// the JSON fields as they are, which is ComputeHash whenever they are
// stored in canonical form (AppendAudit always stores them so) and saves
// re-encoding them; only when that differs does it canonicalise. The
// answer is ComputeHash() == Hash either way: bytes hashed as they are can
// give the recorded hash only if they are the canonical bytes it was
// computed over.
func (e *AuditEntry) HashMatches() bool {
	return e.hash(false) == e.Hash || e.hash(true) == e.Hash
}

func (e *AuditEntry) hash(canonical bool) string {
	h := sha256.New()
	var n [8]byte
	field := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	text := func(s string) { field([]byte(s)) }
	canon := func(m json.RawMessage) {
		if canonical {
			if c, err := CanonicalJSON(m); err == nil {
				m = c
			}
		}
		field(m)
	}
	if e.ClientReported {
		field([]byte(clientHashDomain))
	} else {
		field([]byte(auditHashDomain))
	}
	field(strconv.AppendInt(nil, e.ID, 10))
	text(e.OrgID)
	text(e.ActorID)
	text(e.ActorEmail)
	text(e.Action)
	text(e.ObjectType)
	text(e.ObjectID)
	canon(e.Before)
	canon(e.After)
	canon(e.Meta)
	text(e.IP)
	text(e.UserAgent)
	field([]byte(e.CreatedAt.UTC().Truncate(time.Microsecond).Format(auditTimeLayout)))
	text(e.PrevHash)
	if e.ClientReported {
		text("1")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// AuditFilter selects entries of one chain for ListAudit. Empty fields do
// not filter.
type AuditFilter struct {
	// OrgID is the chain to list; "" is the instance's chain. Chains are
	// never listed together: nothing of one organisation is visible to another.
	OrgID      string
	ActorID    string
	Action     string
	ObjectType string
	// ObjectID selects one object; it needs ObjectType.
	ObjectID string
	// ObjectIDs selects any of these objects (at most MaxAuditObjects);
	// it needs ObjectType and no ObjectID.
	ObjectIDs []string
	// Since and Until bound CreatedAt: Since <= CreatedAt < Until. A zero
	// time does not bound.
	Since time.Time
	Until time.Time
	// Before is the keyset cursor: only entries with ID < Before. Zero
	// starts at the newest entry; the next page starts before the ID of the
	// last entry of this one.
	Before int64
	// Limit is the page size: 50 when zero or negative, at most 1000.
	Limit int
}

// Page sizes of ListAudit, and the most objects one AuditFilter names.
const (
	DefaultAuditPage = 50
	MaxAuditPage     = 1000
	MaxAuditObjects  = 1000
)

// Reasons a chain is broken (AuditVerification.Reason begins with one).
const (
	AuditHashMismatch = "hash mismatch"
	AuditBrokenLink   = "broken link"
	AuditGap          = "gap in sequence"
	AuditHeadMismatch = "chain head mismatch"
	// AuditSealMismatch: an entry no longer has the hash a checkpoint
	// sealed, so the chain up to it was rewritten (hashes recomputed and
	// all) after the checkpoint was written.
	AuditSealMismatch = "checkpoint mismatch"
	// AuditSealMissing: the chain ends before an entry a checkpoint sealed,
	// so entries were removed from its end (and the head rolled back).
	AuditSealMissing = "sealed entries missing"
)

// AuditSeal is what one checkpoint (see AuditCheckpoint) asserts about a
// chain: that entry Seq had the hash Hash when it was sealed at At.
type AuditSeal struct {
	Seq  int64
	Hash string
	At   time.Time
}

// AuditVerification is the outcome of verifying one chain.
type AuditVerification struct {
	OrgID string
	// Entries is the number of entries read.
	Entries int64
	// OK is true when every entry is intact, linked to the one before it,
	// numbered without gaps, and the last one is the recorded chain head.
	OK bool
	// BrokenAt is the ID of the first entry that is not as written (the
	// missing one, for a gap); 0 when OK.
	BrokenAt int64
	// Reason says why, starting with AuditHashMismatch, AuditBrokenLink,
	// AuditGap or AuditHeadMismatch; "" when OK.
	Reason string
	// HeadHash is the Hash of the chain's last entry (GenesisHash for an
	// empty chain). Keeping a copy outside the database lets a later
	// verification show that the chain was not rewritten as a whole.
	HeadHash string
	// HeadID is the ID of the chain's last entry as the chain head records
	// it (0 for an empty chain).
	HeadID int64
	// Seals is the number of checkpoint seals compared with the chain, and
	// SealedSeq the highest sealed entry found as sealed (0 when none was).
	Seals     int
	SealedSeq int64
}

// AuditHead is the last entry of a chain as its chain head records it.
type AuditHead struct {
	OrgID string
	// Seq is the ID of the last entry (0 for an empty chain) and Hash its
	// hash (GenesisHash for an empty chain).
	Seq  int64
	Hash string
	// CreatedAt is the last entry's time (zero for an empty chain).
	CreatedAt time.Time
}

// AuditStore is the audit trail as storage offers it. Its write runs inside
// the transaction of the change it records.
type AuditStore interface {
	// AppendAudit normalises e (see Normalize), sets CreatedAt to now when
	// zero and to the previous entry's CreatedAt when earlier (time never
	// goes backwards along a chain), and appends it to the chain of
	// e.OrgID, filling ID, PrevHash and Hash. It must be called inside a
	// write transaction; outside one it fails. Appends to one chain are
	// serialised until the transaction ends (on PostgreSQL the chain head
	// stays locked), so call it late in the transaction. It returns an
	// *Error of KindInvalid for an entry that Normalize refuses.
	AppendAudit(ctx context.Context, e *AuditEntry) error
	// ListAudit returns up to f.Limit entries of the chain f.OrgID that
	// match f, newest (highest ID) first. It returns an *Error of
	// KindInvalid (code "invalid_filter") for ObjectID or ObjectIDs without
	// ObjectType, for both together, and for more than MaxAuditObjects.
	ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
	// VerifyAudit recomputes the chain of orgID from its first entry, on a
	// consistent snapshot, and reports whether it is intact or where it
	// first breaks. A chain with no entries is OK. An error means the
	// verification could not run, never that the chain is broken.
	//
	// Each seal (from a checkpoint kept outside the database, whose
	// signature the caller has checked) must hold too: entry Seq exists
	// (else AuditSealMissing: the tail was cut and the head rolled back) and
	// has exactly the sealed hash (else AuditSealMismatch: the chain was
	// rewritten consistently). Those are what the chain alone cannot show.
	VerifyAudit(ctx context.Context, orgID string, seals ...AuditSeal) (AuditVerification, error)
	// AuditHeads returns the head of every chain, sorted by organisation.
	AuditHeads(ctx context.Context) ([]AuditHead, error)
	// AuditHashAt returns the Hash of entry seq of orgID's chain, or
	// ErrNotFound when the chain has no such entry.
	AuditHashAt(ctx context.Context, orgID string, seq int64) (string, error)
	// AuditChains lists the organisations that have audit entries, sorted
	// (the instance's chain as "").
	AuditChains(ctx context.Context) ([]string, error)
}
