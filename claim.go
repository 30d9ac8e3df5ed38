package fairbalance

import (
	"slices"
	"time"
)

// ClaimStatus says whether a claim may be made.
type ClaimStatus string

// The claim statuses.
const (
	// ClaimDraft: being written and substantiated.
	ClaimDraft ClaimStatus = "draft"
	// ClaimApproved: may be made, in its text or one of its variants.
	ClaimApproved ClaimStatus = "approved"
	// ClaimWithdrawn: must no longer be made; assets that make it need
	// review again.
	ClaimWithdrawn ClaimStatus = "withdrawn"
	// ClaimExpired: past its expiry; assets that make it need review again.
	ClaimExpired ClaimStatus = "expired"
)

// AllClaimStatuses lists every ClaimStatus.
var AllClaimStatuses = []ClaimStatus{ClaimDraft, ClaimApproved, ClaimWithdrawn, ClaimExpired}

// ClaimStatusVocabulary is AllClaimStatuses as clients know it.
var ClaimStatusVocabulary = NewVocabulary("claim_status", AllClaimStatuses)

// ClaimTransitions is the life of a claim: a draft is approved (or
// abandoned as withdrawn); an approved claim expires or is withdrawn; an
// expired claim may be approved again once its substantiation is renewed.
// Withdrawal is final: a claim taken back is written anew as a new claim.
var ClaimTransitions = Transitions[ClaimStatus]{
	ClaimDraft:     {ClaimApproved, ClaimWithdrawn},
	ClaimApproved:  {ClaimExpired, ClaimWithdrawn},
	ClaimExpired:   {ClaimApproved, ClaimWithdrawn},
	ClaimWithdrawn: nil,
}

// Valid reports whether s is one of AllClaimStatuses.
func (s ClaimStatus) Valid() bool { return slices.Contains(AllClaimStatuses, s) }

// CanTransition reports whether a claim in status s may move to status to
// (ClaimTransitions).
func (s ClaimStatus) CanTransition(to ClaimStatus) bool { return ClaimTransitions.Allows(s, to) }

// Claim is a statement the organisation may make (table claims), with its
// variants; the passages that substantiate it are ClaimReferences.
type Claim struct {
	ID        string  `json:"id"`
	OrgID     string  `json:"org_id"`
	ProductID *string `json:"product_id"`
	Text      string  `json:"text"`
	// Variants are approved alternative wordings.
	Variants []string    `json:"variants"`
	Status   ClaimStatus `json:"status"`
	// ExpiresAt is the expiry date, YYYY-MM-DD.
	ExpiresAt *string   `json:"expires_at"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// ClaimReference is a passage quoted from a page of a reference that
// substantiates a claim (table claim_references). Links are added and
// removed, never edited.
type ClaimReference struct {
	ID          string `json:"id"`
	OrgID       string `json:"org_id"`
	ClaimID     string `json:"claim_id"`
	ReferenceID string `json:"reference_id"`
	// Page is numbered from 1.
	Page      int       `json:"page"`
	Passage   string    `json:"passage"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
