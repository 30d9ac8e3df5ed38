package fairbalance

import (
	"slices"
	"time"
)

// AssetType is what kind of piece of content an asset is.
type AssetType string

// The asset types, in the order a picker offers them.
const (
	AssetEmail       AssetType = "email"
	AssetWebPage     AssetType = "web_page"
	AssetDetailAid   AssetType = "detail_aid"
	AssetSocialPost  AssetType = "social_post"
	AssetBanner      AssetType = "banner"
	AssetPrint       AssetType = "print"
	AssetVideoScript AssetType = "video_script"
	AssetOther       AssetType = "other"
)

// AllAssetTypes lists every AssetType.
var AllAssetTypes = []AssetType{AssetEmail, AssetWebPage, AssetDetailAid, AssetSocialPost, AssetBanner, AssetPrint, AssetVideoScript, AssetOther}

// AssetTypeVocabulary is AllAssetTypes as clients know it.
var AssetTypeVocabulary = NewVocabulary("asset_type", AllAssetTypes)

// Valid reports whether t is one of AllAssetTypes.
func (t AssetType) Valid() bool { return slices.Contains(AllAssetTypes, t) }

// Audience is who an asset is written for.
type Audience string

// The audiences.
const (
	AudienceHCP     Audience = "hcp"
	AudiencePatient Audience = "patient"
	AudiencePayer   Audience = "payer"
)

// AllAudiences lists every Audience.
var AllAudiences = []Audience{AudienceHCP, AudiencePatient, AudiencePayer}

// AudienceVocabulary is AllAudiences as clients know it.
var AudienceVocabulary = NewVocabulary("audience", AllAudiences)

// Valid reports whether a is one of AllAudiences.
func (a Audience) Valid() bool { return slices.Contains(AllAudiences, a) }

// AssetStatus is where an asset stands in the review workflow.
type AssetStatus string

// The asset statuses, in workflow order.
const (
	// AssetDraft: the author is writing; nothing is under review.
	AssetDraft AssetStatus = "draft"
	// AssetInReview: a review round reads the current version, which
	// therefore cannot be replaced.
	AssetInReview AssetStatus = "in_review"
	// AssetChangesRequested: a round closed asking for changes; the author
	// makes a new version and resubmits.
	AssetChangesRequested AssetStatus = "changes_requested"
	// AssetApproved: every required step approved; the approved version
	// may be used until the asset expires or is withdrawn.
	AssetApproved AssetStatus = "approved"
	// AssetRejected: a step rejected the asset; it is not used.
	AssetRejected AssetStatus = "rejected"
	// AssetExpired: an approved asset passed its expiry date.
	AssetExpired AssetStatus = "expired"
	// AssetWithdrawn: an approved asset was taken out of use by an admin.
	AssetWithdrawn AssetStatus = "withdrawn"
	// AssetArchived: kept for the record; never changes again.
	AssetArchived AssetStatus = "archived"
)

// AllAssetStatuses lists every AssetStatus in workflow order.
var AllAssetStatuses = []AssetStatus{AssetDraft, AssetInReview, AssetChangesRequested, AssetApproved, AssetRejected, AssetExpired, AssetWithdrawn, AssetArchived}

// AssetStatusVocabulary is AllAssetStatuses as clients know it.
var AssetStatusVocabulary = NewVocabulary("asset_status", AllAssetStatuses)

// AssetTransitions is the review workflow of an asset (product design,
// section 4):
//
//	draft --submit--> in_review --all required steps approve--> approved --expiry/withdraw--> expired | withdrawn
//	                  in_review --any step requests changes--> changes_requested --new version + resubmit--> in_review
//	                  in_review --any step rejects--> rejected
//	                  in_review --withdrawn by the author before any decision--> draft
//
// and, as archive_asset has always allowed, any asset that is not yet
// archived may be archived; archived is final.
var AssetTransitions = Transitions[AssetStatus]{
	AssetDraft:            {AssetInReview, AssetArchived},
	AssetInReview:         {AssetApproved, AssetChangesRequested, AssetRejected, AssetDraft, AssetArchived},
	AssetChangesRequested: {AssetInReview, AssetArchived},
	AssetApproved:         {AssetExpired, AssetWithdrawn, AssetArchived},
	AssetRejected:         {AssetArchived},
	AssetExpired:          {AssetArchived},
	AssetWithdrawn:        {AssetArchived},
	AssetArchived:         nil,
}

// Valid reports whether s is one of AllAssetStatuses.
func (s AssetStatus) Valid() bool { return slices.Contains(AllAssetStatuses, s) }

// CanTransition reports whether an asset in status s may move to status to
// (AssetTransitions).
func (s AssetStatus) CanTransition(to AssetStatus) bool { return AssetTransitions.Allows(s, to) }

// AcceptsVersions reports whether a new version may be added to an asset
// in status s: not while a review round reads the current version, and
// never once the asset is archived.
func (s AssetStatus) AcceptsVersions() bool {
	return s.Valid() && s != AssetInReview && s != AssetArchived
}

// Asset is a piece of content (table assets): its metadata and where it
// stands in review. Its content is in its versions.
type Asset struct {
	ID       string    `json:"id"`
	OrgID    string    `json:"org_id"`
	Title    string    `json:"title"`
	Type     AssetType `json:"type"`
	Audience Audience  `json:"audience"`
	// ProductID is the promoted product; nil for none.
	ProductID *string `json:"product_id"`
	Channel   string  `json:"channel"`
	Market    string  `json:"market"`
	// OwnerID is the member answerable for the asset; nil once that
	// member's profile is gone.
	OwnerID *string `json:"owner_id"`
	// JobCode is unique in the organisation (FB-US-0042).
	JobCode string      `json:"job_code"`
	Status  AssetStatus `json:"status"`
	// CurrentVersionID and CurrentVersionNumber name the newest version
	// (numbered from 1); ApprovedVersionID the one approved, if any.
	CurrentVersionID     *string `json:"current_version_id"`
	CurrentVersionNumber int     `json:"current_version_number"`
	ApprovedVersionID    *string `json:"approved_version_id"`
	// ExpiresAt is the expiry date, YYYY-MM-DD.
	ExpiresAt *string   `json:"expires_at"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
