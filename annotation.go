package fairbalance

import (
	"math"
	"slices"
	"time"
	"unicode/utf8"
)

// Annotations (product design, section 3; issue 16) are comments anchored
// in a version, in the W3C Web Annotation model. An Annotation is one
// version's copy of a thread: when a version is added, every open
// annotation of the previous version is carried forward onto it with the
// same ThreadID, re-anchored (see package anchor), and its replies follow
// the thread. Nothing about an annotation is ever silently dropped: what
// cannot be found on the new version is orphaned and still listed.

// AnnotationCategory is what kind of point an annotation makes.
type AnnotationCategory string

// The annotation categories.
const (
	CategoryClaimNeedsReference AnnotationCategory = "claim_needs_reference"
	CategoryFairBalance         AnnotationCategory = "fair_balance"
	CategoryOffLabel            AnnotationCategory = "off_label"
	CategoryEditorial           AnnotationCategory = "editorial"
	CategoryLegal               AnnotationCategory = "legal"
	CategoryRegulatory          AnnotationCategory = "regulatory"
	CategoryOther               AnnotationCategory = "other"
)

// AllAnnotationCategories lists every AnnotationCategory.
var AllAnnotationCategories = []AnnotationCategory{CategoryClaimNeedsReference, CategoryFairBalance, CategoryOffLabel,
	CategoryEditorial, CategoryLegal, CategoryRegulatory, CategoryOther}

// AnnotationCategoryVocabulary is AllAnnotationCategories as clients know it.
var AnnotationCategoryVocabulary = NewVocabulary("annotation_category", AllAnnotationCategories)

// Valid reports whether c is one of AllAnnotationCategories.
func (c AnnotationCategory) Valid() bool { return slices.Contains(AllAnnotationCategories, c) }

// AnnotationState is whether a thread still needs attention.
type AnnotationState string

// The annotation states.
const (
	AnnotationOpen     AnnotationState = "open"
	AnnotationResolved AnnotationState = "resolved"
)

// AllAnnotationStates lists every AnnotationState.
var AllAnnotationStates = []AnnotationState{AnnotationOpen, AnnotationResolved}

// AnnotationStateVocabulary is AllAnnotationStates as clients know it.
var AnnotationStateVocabulary = NewVocabulary("annotation_state", AllAnnotationStates)

// AnnotationTransitions: an open thread is resolved, a resolved one
// reopened; either as often as people disagree.
var AnnotationTransitions = Transitions[AnnotationState]{
	AnnotationOpen:     {AnnotationResolved},
	AnnotationResolved: {AnnotationOpen},
}

// Valid reports whether s is one of AllAnnotationStates.
func (s AnnotationState) Valid() bool { return slices.Contains(AllAnnotationStates, s) }

// CanTransition reports whether an annotation in state s may move to state to.
func (s AnnotationState) CanTransition(to AnnotationState) bool {
	return AnnotationTransitions.Allows(s, to)
}

// AnchorStatus is how an annotation's target was found on its version.
type AnchorStatus string

// The anchor statuses.
const (
	// AnchorAnchored: made on this version, or carried forward and found
	// at the same place (the surrounding text may have grown or shrunk).
	AnchorAnchored AnchorStatus = "anchored"
	// AnchorMoved: carried forward and found elsewhere, or nearly the same
	// text found; the target holds the new quote and offsets.
	AnchorMoved AnchorStatus = "moved"
	// AnchorOrphaned: carried forward and not found (a region: its page is
	// gone); the target keeps the old quote, listed, never dropped.
	AnchorOrphaned AnchorStatus = "orphaned"
)

// AllAnchorStatuses lists every AnchorStatus.
var AllAnchorStatuses = []AnchorStatus{AnchorAnchored, AnchorMoved, AnchorOrphaned}

// AnchorStatusVocabulary is AllAnchorStatuses as clients know it.
var AnchorStatusVocabulary = NewVocabulary("anchor_status", AllAnchorStatuses)

// Valid reports whether s is one of AllAnchorStatuses.
func (s AnchorStatus) Valid() bool { return slices.Contains(AllAnchorStatuses, s) }

// The target types.
const (
	TargetText   = "text"
	TargetRegion = "region"
)

// Target is where an annotation points, as JSON:
//
//	{"type":"text","exact","prefix","suffix","start","end"}
//	{"type":"region","page","x","y","width","height"}
//
// A text target is a W3C TextQuoteSelector (Exact with up to
// QuoteContext code points of Prefix and Suffix) and a
// TextPositionSelector (Start, End: offsets in Unicode code points into
// the version's plain text, pages joined by form feeds). A region is a
// box on a page (1-based; 1 for an image) in page-relative units, 0..1
// from the top left.
type Target struct {
	Type   string   `json:"type"`
	Exact  string   `json:"exact,omitempty"`
	Prefix string   `json:"prefix,omitempty"`
	Suffix string   `json:"suffix,omitempty"`
	Start  *int     `json:"start,omitempty"`
	End    *int     `json:"end,omitempty"`
	Page   *int     `json:"page,omitempty"`
	X      *float64 `json:"x,omitempty"`
	Y      *float64 `json:"y,omitempty"`
	Width  *float64 `json:"width,omitempty"`
	Height *float64 `json:"height,omitempty"`
}

// QuoteContext is how many code points of prefix and suffix a text
// target keeps on each side of its quote.
const QuoteContext = 32

// MaxQuoteLength bounds a text target's quote, in code points.
const MaxQuoteLength = 4000

// ValidRegion reports whether t is a well-formed region on a version of
// pages pages: a page that exists and a box of positive size inside it.
func (t Target) ValidRegion(pages int) bool {
	if t.Type != TargetRegion || t.Page == nil || t.X == nil || t.Y == nil || t.Width == nil || t.Height == nil {
		return false
	}
	x, y, w, h := *t.X, *t.Y, *t.Width, *t.Height
	for _, v := range []float64{x, y, w, h} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	const slack = 1e-9
	return *t.Page >= 1 && *t.Page <= max(pages, 1) &&
		x >= 0 && y >= 0 && w > 0 && h > 0 && x+w <= 1+slack && y+h <= 1+slack
}

// TextTarget is the text target of the code points [start, end) of text
// (a version's plain text as runes), with its prefix and suffix.
func TextTarget(text []rune, start, end int) Target {
	s, e := start, end
	return Target{
		Type:   TargetText,
		Exact:  string(text[start:end]),
		Prefix: string(text[max(0, start-QuoteContext):start]),
		Suffix: string(text[end:min(len(text), end+QuoteContext)]),
		Start:  &s, End: &e,
	}
}

// QuoteLength is the length of t's quote in code points.
func (t Target) QuoteLength() int { return utf8.RuneCountInString(t.Exact) }

// PageOf is the 1-based page of the code point at offset in a plain text
// whose pages are joined by form feeds.
func PageOf(text []rune, offset int) int {
	page := 1
	for _, r := range text[:min(offset, len(text))] {
		if r == '\f' {
			page++
		}
	}
	return page
}

// Annotation is one version's row of a thread (table annotations).
type Annotation struct {
	ID           string             `json:"id"`
	OrgID        string             `json:"org_id"`
	AssetID      string             `json:"asset_id"`
	VersionID    string             `json:"version_id"`
	ThreadID     string             `json:"thread_id"`
	Category     AnnotationCategory `json:"category"`
	Body         string             `json:"body"`
	State        AnnotationState    `json:"state"`
	AnchorStatus AnchorStatus       `json:"anchor_status"`
	Target       Target             `json:"target"`
	// SortPage and SortPos order a version's annotations for reading
	// (Target.SortKey; orphaned ones come after every page).
	SortPage int `json:"sort_page"`
	SortPos  int `json:"sort_pos"`
	// ReferenceID, ReferencePage and ReferenceQuote: the passage that
	// substantiates a claim (a claim_needs_reference annotation).
	ReferenceID    *string    `json:"reference_id"`
	ReferencePage  *int       `json:"reference_page"`
	ReferenceQuote string     `json:"reference_quote"`
	CreatedBy      string     `json:"created_by"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	ResolvedBy     *string    `json:"resolved_by"`
	ResolvedAt     *time.Time `json:"resolved_at"`
	// CarriedFrom is the previous version's row this one was carried from.
	CarriedFrom *string `json:"carried_from"`
}

// AnnotationReply is a reply in a thread (table annotation_replies),
// written on the thread's row AnnotationID.
type AnnotationReply struct {
	ID           string    `json:"id"`
	OrgID        string    `json:"org_id"`
	AssetID      string    `json:"asset_id"`
	ThreadID     string    `json:"thread_id"`
	AnnotationID string    `json:"annotation_id"`
	Body         string    `json:"body"`
	CreatedBy    string    `json:"created_by"`
	CreatedAt    time.Time `json:"created_at"`
}

// MaxAnnotationBody bounds an annotation's or a reply's text, in code points.
const MaxAnnotationBody = 5000

// SortKey is where t sits on its version, for reading order: the page,
// then the offset (text) or the top of the box in millionths (region).
func (t Target) SortKey(text []rune) (page, pos int) {
	if t.Type == TargetRegion {
		if t.Page != nil && t.Y != nil {
			return *t.Page, int(*t.Y * 1e6)
		}
		return 1, 0
	}
	if t.Start == nil {
		return 1, 0
	}
	return PageOf(text, *t.Start), *t.Start
}
