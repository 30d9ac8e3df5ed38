package fairbalance

import (
	"encoding/json"
	"time"
)

// The review record (product design, section 4; issue 16): what a company
// hands an inspector for one round of review of one version — the asset,
// the exact version with its SHA-256, every annotation with its thread, the
// steps with their decisions and electronic signatures, the change
// requests, and the round's audit entries with the checkpoint that seals
// them. ReviewRecord is its machine-readable form (the JSON export); the
// PDF export prints the same. Everything a verifier needs travels with it:
// each signature's signed fields, seal and Ed25519 signature
// (Signature.VerifySeal), each audit entry's hashed fields
// (AuditEntry.ComputeHash), the checkpoint's signed fields
// (AuditCheckpoint.Verify) and the public keys they were made with.

// ReviewRecordFormat names the layout of ReviewRecord's JSON; a changed
// layout gets a new name.
const ReviewRecordFormat = "fairbalance.review_record.v1"

// ReviewRecord is the record of one review round.
type ReviewRecord struct {
	Format       string        `json:"format"`
	GeneratedAt  time.Time     `json:"generated_at"`
	GeneratedBy  RecordPerson  `json:"generated_by"`
	Organisation RecordOrg     `json:"organisation"`
	Asset        RecordAsset   `json:"asset"`
	Round        RecordRound   `json:"round"`
	Version      RecordVersion `json:"version"`
	// Annotations are every annotation on the version, in reading order,
	// each with its thread's replies and how it is anchored.
	Annotations []RecordAnnotation `json:"annotations"`
	// Compliance is the version's compliance check: its findings in
	// reading order with their states, and every dismissal among them.
	Compliance RecordCompliance `json:"compliance"`
	// Steps are the round's steps in the template's order, each with its
	// decision and signature.
	Steps []RecordStep `json:"steps"`
	// ChangeRequests are the round's checklist (raised in an earlier round
	// and still to be confirmed when this one was submitted) followed by
	// the requests this round raised.
	ChangeRequests []RecordChangeRequest `json:"change_requests"`
	Audit          RecordAudit           `json:"audit"`
	// Keys are the public keys the signatures and the checkpoint name.
	Keys []RecordKey `json:"keys"`
}

// RecordPerson is a member as a record names them: id and printed name
// (the profile's full name, else the e-mail address; "" for an id that no
// longer names an account).
type RecordPerson struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// RecordOrg is the organisation whose record it is.
type RecordOrg struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// RecordProduct is the product an asset promotes.
type RecordProduct struct {
	ID              string `json:"id"`
	BrandName       string `json:"brand_name"`
	EstablishedName string `json:"established_name"`
	PIReference     string `json:"pi_reference"`
}

// RecordAsset is the asset's metadata as it stands at export.
type RecordAsset struct {
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Type     AssetType      `json:"type"`
	Product  *RecordProduct `json:"product"`
	Audience Audience       `json:"audience"`
	Channel  string         `json:"channel"`
	Market   string         `json:"market"`
	JobCode  string         `json:"job_code"`
	Owner    *RecordPerson  `json:"owner"`
	Status   AssetStatus    `json:"status"`
	// ExpiresAt is YYYY-MM-DD; ApprovedVersionID the version approved.
	ExpiresAt         *string `json:"expires_at"`
	ApprovedVersionID *string `json:"approved_version_id"`
}

// RecordRound is the review round.
type RecordRound struct {
	ID           string       `json:"id"`
	Number       int          `json:"number"`
	Status       ReviewStatus `json:"status"`
	TemplateID   *string      `json:"template_id"`
	TemplateName string       `json:"template_name"`
	SubmittedBy  RecordPerson `json:"submitted_by"`
	SubmittedAt  time.Time    `json:"submitted_at"`
	ClosedAt     *time.Time   `json:"closed_at"`
}

// RecordVersion is the exact version the round reviewed. SHA256 is the hex
// SHA-256 of its rendition (the file's bytes, or ContentHTML for a
// composed version), the value every signature of the round binds.
type RecordVersion struct {
	ID         string       `json:"id"`
	Number     int          `json:"number"`
	Kind       VersionKind  `json:"kind"`
	FileName   *string      `json:"file_name"`
	MimeType   *string      `json:"mimetype"`
	FileSize   *int64       `json:"file_size"`
	PageCount  int          `json:"page_count"`
	SHA256     string       `json:"sha256"`
	ChangeNote string       `json:"change_note"`
	CreatedBy  RecordPerson `json:"created_by"`
	CreatedAt  time.Time    `json:"created_at"`
	// ContentHTML (the rendition the SHA-256 covers) and Text are set for
	// composed versions: the record carries what was reviewed. A file
	// version's record carries the file itself (its pages lead the PDF).
	ContentHTML *string `json:"content_html,omitempty"`
	Text        *string `json:"text,omitempty"`
}

// RecordAnnotation is one annotation on the version with its thread.
type RecordAnnotation struct {
	ID           string             `json:"id"`
	ThreadID     string             `json:"thread_id"`
	Category     AnnotationCategory `json:"category"`
	Body         string             `json:"body"`
	State        AnnotationState    `json:"state"`
	AnchorStatus AnchorStatus       `json:"anchor_status"`
	Target       Target             `json:"target"`
	// Page is the 1-based page the target is on (a text target's start;
	// 0 when it cannot be told, as for an orphaned quote).
	Page int `json:"page"`
	// The passage that substantiates a claim: the reference (its title and
	// citation as they stand), the page and the quoted passage.
	ReferenceID       *string       `json:"reference_id"`
	ReferenceTitle    string        `json:"reference_title"`
	ReferenceCitation string        `json:"reference_citation"`
	ReferencePage     *int          `json:"reference_page"`
	ReferenceQuote    string        `json:"reference_quote"`
	Author            RecordPerson  `json:"author"`
	CreatedAt         time.Time     `json:"created_at"`
	ResolvedBy        *RecordPerson `json:"resolved_by"`
	ResolvedAt        *time.Time    `json:"resolved_at"`
	// CarriedFrom is the annotation of the previous version this one was
	// carried forward from (nil: made on this version).
	CarriedFrom *string       `json:"carried_from"`
	Replies     []RecordReply `json:"replies"`
}

// RecordCompliance is the compliance check of the reviewed version.
type RecordCompliance struct {
	// CheckedAt is when the check ran (nil: pending, or a version from
	// before the checks).
	CheckedAt *time.Time      `json:"checked_at"`
	Findings  []RecordFinding `json:"findings"`
	// Dismissals are the findings dismissed, each with who dismissed it,
	// when and why.
	Dismissals []RecordDismissal `json:"dismissals"`
}

// RecordFinding is one compliance finding on the version.
type RecordFinding struct {
	ID          string          `json:"id"`
	Rule        string          `json:"rule"`
	RuleVersion int             `json:"rule_version"`
	Severity    FindingSeverity `json:"severity"`
	State       FindingState    `json:"state"`
	// Start and End are code points of the version's text.
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Quote   string `json:"quote"`
	Message string `json:"message"`
	// Page is the 1-based page of the quote (1 for authored text).
	Page int `json:"page"`
	// FirstVersionID is the version on which the finding was first made.
	FirstVersionID string `json:"first_version_id"`
}

// RecordDismissal is a dismissed finding's dismissal.
type RecordDismissal struct {
	FindingID string       `json:"finding_id"`
	Rule      string       `json:"rule"`
	Quote     string       `json:"quote"`
	By        RecordPerson `json:"by"`
	At        time.Time    `json:"at"`
	Reason    string       `json:"reason"`
}

// RecordReply is a reply in an annotation's thread.
type RecordReply struct {
	ID           string       `json:"id"`
	AnnotationID string       `json:"annotation_id"`
	Body         string       `json:"body"`
	Author       RecordPerson `json:"author"`
	CreatedAt    time.Time    `json:"created_at"`
}

// RecordStep is a step of the round with its decision and signature.
type RecordStep struct {
	ID        string       `json:"id"`
	Position  int          `json:"position"`
	Role      ReviewerRole `json:"role"`
	Required  bool         `json:"required"`
	StepOrder int          `json:"step_order"`
	Status    StepStatus   `json:"status"`
	DueAt     *time.Time   `json:"due_at"`
	// DecidedBy and DecidedAt are nil until decided; Comment is the
	// decision's comment.
	DecidedBy *RecordPerson `json:"decided_by"`
	DecidedAt *time.Time    `json:"decided_at"`
	Comment   string        `json:"comment"`
	// Signature is the decision's electronic signature, every field as
	// recorded (nil until decided); Check is what the server found when it
	// verified it at export.
	Signature *Signature      `json:"signature"`
	Check     *SignatureCheck `json:"signature_check"`
}

// SignatureCheck is the server's verification of a signature: its seal
// intact (the recorded fields hash to it and its Ed25519 signature holds),
// still bound to its step, and the signed version's content unchanged.
type SignatureCheck struct {
	Valid            bool   `json:"valid"`
	Reason           string `json:"reason"`
	SealIntact       bool   `json:"seal_intact"`
	BoundToStep      bool   `json:"bound_to_step"`
	RenditionMatches bool   `json:"rendition_matches"`
}

// The places of a change request in a round's record.
const (
	// ChangeInChecklist: raised in an earlier round, checked by this one.
	ChangeInChecklist = "checklist"
	// ChangeRaisedHere: raised by a decision of this round.
	ChangeRaisedHere = "raised"
)

// RecordChangeRequest is a change request as the round's record lists it.
type RecordChangeRequest struct {
	ID string `json:"id"`
	// Place is ChangeInChecklist or ChangeRaisedHere.
	Place         string              `json:"place"`
	Text          string              `json:"text"`
	Role          ReviewerRole        `json:"role"`
	Status        ChangeRequestStatus `json:"status"`
	RaisedBy      RecordPerson        `json:"raised_by"`
	RaisedInRound int                 `json:"raised_in_round"`
	RaisedAt      time.Time           `json:"raised_at"`
	DoneBy        *RecordPerson       `json:"done_by"`
	DoneAt        *time.Time          `json:"done_at"`
	DoneNote      string              `json:"done_note"`
	ConfirmedBy   *RecordPerson       `json:"confirmed_by"`
	ConfirmedAt   *time.Time          `json:"confirmed_at"`
	// ConfirmedInRound is the number of the round that confirmed it (0:
	// not confirmed).
	ConfirmedInRound int `json:"confirmed_in_round"`
	// AnnotationID is the annotation the request points at (on the
	// version it was raised on), ThreadID its thread: the record's
	// annotation of that thread is the same comment on this version.
	AnnotationID *string `json:"annotation_id"`
	ThreadID     *string `json:"thread_id"`
}

// RecordAudit is the round's audit entries, oldest first, and the
// checkpoint that seals the chain they belong to.
type RecordAudit struct {
	Entries []RecordAuditEntry `json:"entries"`
	// Checkpoint is the organisation's last checkpoint (nil: the chain was
	// never sealed, or sealing is off).
	Checkpoint *RecordCheckpoint `json:"checkpoint"`
	// Export is the entry that records this export (nil in the read-only
	// demo, which records nothing); it follows the entries above.
	Export *RecordAuditEntry `json:"export"`
}

// RecordAuditEntry is an audit entry with every field its hash covers
// (AuditEntry.ComputeHash), plus ActorName and HashValid for the reader.
// Before, After and Meta are left out when the entry has none: an absent
// value is hashed as empty, which differs from a JSON null.
type RecordAuditEntry struct {
	Seq            int64           `json:"seq"`
	OrgID          string          `json:"org_id"`
	ActorID        string          `json:"actor_id"`
	ActorEmail     string          `json:"actor_email"`
	ActorName      string          `json:"actor_name"`
	Action         string          `json:"action"`
	ObjectType     string          `json:"object_type"`
	ObjectID       string          `json:"object_id"`
	Before         json.RawMessage `json:"before,omitempty"`
	After          json.RawMessage `json:"after,omitempty"`
	Meta           json.RawMessage `json:"meta,omitempty"`
	IP             string          `json:"ip"`
	UserAgent      string          `json:"user_agent"`
	CreatedAt      time.Time       `json:"created_at"`
	ClientReported bool            `json:"client_reported"`
	PrevHash       string          `json:"prev_hash"`
	Hash           string          `json:"hash"`
	// HashValid: the fields above still hash to Hash.
	HashValid bool `json:"hash_valid"`
}

// NewRecordAuditEntry is e as a record lists it, actorName beside it.
func NewRecordAuditEntry(e AuditEntry, actorName string) RecordAuditEntry {
	raw := func(m json.RawMessage) json.RawMessage {
		if len(m) == 0 {
			return nil
		}
		return m
	}
	return RecordAuditEntry{Seq: e.ID, OrgID: e.OrgID, ActorID: e.ActorID, ActorEmail: e.ActorEmail, ActorName: actorName,
		Action: e.Action, ObjectType: e.ObjectType, ObjectID: e.ObjectID, Before: raw(e.Before), After: raw(e.After), Meta: raw(e.Meta),
		IP: e.IP, UserAgent: e.UserAgent, CreatedAt: e.CreatedAt.UTC(), ClientReported: e.ClientReported,
		PrevHash: e.PrevHash, Hash: e.Hash, HashValid: e.HashMatches()}
}

// Entry is the audit entry the record lists, for recomputing its hash.
func (r RecordAuditEntry) Entry() AuditEntry {
	return AuditEntry{ID: r.Seq, OrgID: r.OrgID, ActorID: r.ActorID, ActorEmail: r.ActorEmail, Action: r.Action,
		ObjectType: r.ObjectType, ObjectID: r.ObjectID, Before: r.Before, After: r.After, Meta: r.Meta, IP: r.IP,
		UserAgent: r.UserAgent, CreatedAt: r.CreatedAt, ClientReported: r.ClientReported, PrevHash: r.PrevHash, Hash: r.Hash}
}

// RecordCheckpoint is a signed checkpoint of the audit chain (every field
// it signs) and what the server found about it at export: whether its
// signature verifies, whether the chain still has the sealed hash at the
// sealed entry, and whether it seals every entry the record lists.
type RecordCheckpoint struct {
	AuditCheckpoint
	SignatureValid bool `json:"signature_valid"`
	ChainMatches   bool `json:"chain_matches"`
	CoversEntries  bool `json:"covers_entries"`
}

// RecordKey is a public key that a record's signatures or checkpoint name.
type RecordKey struct {
	KeyID string `json:"key_id"`
	// Algorithm is "Ed25519"; PublicKey the raw key, standard base64.
	Algorithm string `json:"algorithm"`
	PublicKey string `json:"public_key"`
}
