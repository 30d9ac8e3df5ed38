package fairbalance

import (
	"slices"
	"time"
)

// ModuleKind is what a reusable module holds.
type ModuleKind string

// The module kinds.
const (
	ModuleClaim      ModuleKind = "claim"
	ModuleISI        ModuleKind = "isi"
	ModuleDisclaimer ModuleKind = "disclaimer"
	ModuleCopy       ModuleKind = "copy"
	ModuleImage      ModuleKind = "image"
)

// AllModuleKinds lists every ModuleKind.
var AllModuleKinds = []ModuleKind{ModuleClaim, ModuleISI, ModuleDisclaimer, ModuleCopy, ModuleImage}

// ModuleKindVocabulary is AllModuleKinds as clients know it.
var ModuleKindVocabulary = NewVocabulary("module_kind", AllModuleKinds)

// Valid reports whether k is one of AllModuleKinds.
func (k ModuleKind) Valid() bool { return slices.Contains(AllModuleKinds, k) }

// ModuleStatus says whether a module may be inserted into assets.
type ModuleStatus string

// The module statuses.
const (
	// ModuleDraft: being prepared; not yet pre-approved.
	ModuleDraft ModuleStatus = "draft"
	// ModuleApproved: pre-approved for reuse.
	ModuleApproved ModuleStatus = "approved"
	// ModuleRetired: no longer to be inserted; versions that hold it keep it.
	ModuleRetired ModuleStatus = "retired"
)

// AllModuleStatuses lists every ModuleStatus.
var AllModuleStatuses = []ModuleStatus{ModuleDraft, ModuleApproved, ModuleRetired}

// ModuleStatusVocabulary is AllModuleStatuses as clients know it.
var ModuleStatusVocabulary = NewVocabulary("module_status", AllModuleStatuses)

// ModuleTransitions is the life of a module: a draft is approved (or
// retired unused); an approved module is retired; retirement is final.
var ModuleTransitions = Transitions[ModuleStatus]{
	ModuleDraft:    {ModuleApproved, ModuleRetired},
	ModuleApproved: {ModuleRetired},
	ModuleRetired:  nil,
}

// Valid reports whether s is one of AllModuleStatuses.
func (s ModuleStatus) Valid() bool { return slices.Contains(AllModuleStatuses, s) }

// CanTransition reports whether a module in status s may move to status to
// (ModuleTransitions).
func (s ModuleStatus) CanTransition(to ModuleStatus) bool { return ModuleTransitions.Allows(s, to) }

// Module is a pre-approved reusable block that authors insert into assets
// (table modules): a claim, the ISI, a disclaimer, a copy block or an image.
type Module struct {
	ID    string     `json:"id"`
	OrgID string     `json:"org_id"`
	Kind  ModuleKind `json:"kind"`
	Title string     `json:"title"`
	Body  string     `json:"body"`
	// ClaimID is the claim a claim module states; ProductID the product
	// it belongs to; ImagePath the image of an image module.
	ClaimID   *string      `json:"claim_id"`
	ProductID *string      `json:"product_id"`
	ImagePath *string      `json:"image_path"`
	Status    ModuleStatus `json:"status"`
	// ExpiresAt is the expiry date, YYYY-MM-DD; inserting a module past
	// it is a critical finding.
	ExpiresAt *string   `json:"expires_at"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
