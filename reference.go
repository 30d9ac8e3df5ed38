package fairbalance

import (
	"slices"
	"time"
)

// ReferenceKind is what kind of supporting document a reference is.
type ReferenceKind string

// The reference kinds.
const (
	ReferencePrescribingInformation ReferenceKind = "prescribing_information"
	ReferenceClinicalStudy          ReferenceKind = "clinical_study"
	ReferenceDataOnFile             ReferenceKind = "data_on_file"
	ReferenceGuideline              ReferenceKind = "guideline"
	ReferencePublication            ReferenceKind = "publication"
	ReferenceOther                  ReferenceKind = "other"
)

// AllReferenceKinds lists every ReferenceKind.
var AllReferenceKinds = []ReferenceKind{ReferencePrescribingInformation, ReferenceClinicalStudy, ReferenceDataOnFile, ReferenceGuideline, ReferencePublication, ReferenceOther}

// ReferenceKindVocabulary is AllReferenceKinds as clients know it.
var ReferenceKindVocabulary = NewVocabulary("reference_kind", AllReferenceKinds)

// Valid reports whether k is one of AllReferenceKinds.
func (k ReferenceKind) Valid() bool { return slices.Contains(AllReferenceKinds, k) }

// ReferenceStatus says whether a reference may still substantiate claims.
type ReferenceStatus string

// The reference statuses. Either may follow the other: a withdrawn
// reference may be reinstated.
const (
	ReferenceActive    ReferenceStatus = "active"
	ReferenceWithdrawn ReferenceStatus = "withdrawn"
)

// AllReferenceStatuses lists every ReferenceStatus.
var AllReferenceStatuses = []ReferenceStatus{ReferenceActive, ReferenceWithdrawn}

// ReferenceStatusVocabulary is AllReferenceStatuses as clients know it.
var ReferenceStatusVocabulary = NewVocabulary("reference_status", AllReferenceStatuses)

// Valid reports whether s is one of AllReferenceStatuses.
func (s ReferenceStatus) Valid() bool { return slices.Contains(AllReferenceStatuses, s) }

// Reference is a supporting document that claims cite (table
// content_references, served as references): its citation and, once
// attached, its file with the text of every page.
type Reference struct {
	ID       string          `json:"id"`
	OrgID    string          `json:"org_id"`
	Title    string          `json:"title"`
	Citation string          `json:"citation"`
	Kind     ReferenceKind   `json:"kind"`
	Status   ReferenceStatus `json:"status"`
	// The attached file; nil until one is attached.
	FileBucket *string `json:"file_bucket"`
	FilePath   *string `json:"file_path"`
	FileName   *string `json:"file_name"`
	SHA256     *string `json:"sha256"`
	// PageCount and PageTexts describe the attached PDF (0 and none
	// before one is attached).
	PageCount int       `json:"page_count"`
	PageTexts []string  `json:"page_texts"`
	PlainText string    `json:"plain_text"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
