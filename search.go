package fairbalance

import "context"

// Kinds of content that full-text search returns.
const (
	SearchAsset     = "asset"
	SearchClaim     = "claim"
	SearchModule    = "module"
	SearchReference = "reference"
)

// SearchKinds lists every searchable kind.
var SearchKinds = []string{SearchAsset, SearchClaim, SearchModule, SearchReference}

// Snippet markers: a search snippet is plain text in which every match is
// wrapped in SnippetStart … SnippetEnd (Unicode private-use characters,
// removed from indexed text so that they only ever mark matches).
const (
	SnippetStart = "\uE000"
	SnippetEnd   = "\uE001"
)

// SearchQuery is a full-text search within one organisation.
type SearchQuery struct {
	// Text is what the user typed. Every word must match (the last one as
	// a prefix); the store quotes words so that no input is query syntax.
	Text string
	// Kinds restricts the result kinds (nil: all).
	Kinds []string
	// Filters ("" for none). A kind without the filtered property is left
	// out: Type, OwnerID and Market only match assets, ProductID assets,
	// claims and modules; Status matches each kind's own status.
	Status, Type, ProductID, OwnerID, Market string
	// Limit caps the results (1..100).
	Limit int
}

// SearchHit is one ranked result.
type SearchHit struct {
	Kind     string  `json:"kind"`
	ID       string  `json:"id"`
	Title    string  `json:"title"`
	Subtitle string  `json:"subtitle"`
	Status   string  `json:"status"`
	Snippet  string  `json:"snippet"`
	Rank     float64 `json:"rank"`
	AssetID  string  `json:"asset_id,omitempty"`
	// Version is the number of the asset version that matched when it is
	// not the current one (0: the match is in the current content).
	Version int `json:"version,omitempty"`
}

// Kinds of object whose search text the server makes from PDF pages.
const (
	SearchTextVersion   = "version"
	SearchTextReference = "reference"
)

// PendingSearchText is a PDF (an asset version or a reference) whose
// search text has not been made from its pages yet.
type PendingSearchText struct {
	// Kind is SearchTextVersion or SearchTextReference.
	Kind string
	ID   string
	// Pages are the extracted pages (page_texts).
	Pages []string
}

// SearchStore runs full-text searches over the content index, which the
// database keeps in step with assets (title, job code and the search text
// of every version), claims, modules and references.
type SearchStore interface {
	// SearchContent returns the best matches of q among orgID's content:
	// first the matches in current content (titles, job codes, the current
	// version of assets, claims, modules, references) by Rank decreasing,
	// then, while the page has room, assets found only in an older
	// version (one hit per asset, naming the newest such version in
	// Version), by Rank decreasing. Text without any letter or digit
	// matches nothing. The work of a search and the matches it finds do
	// not depend on other organisations' content.
	SearchContent(ctx context.Context, orgID string, q SearchQuery) ([]SearchHit, error)
	// SetSearchText sets the text that search holds for an asset version
	// or a reference (kind SearchTextVersion or SearchTextReference, id)
	// in place of its plain text: for a PDF, its pages without running
	// headers and footers. The version or reference itself is unchanged.
	// ErrNotFound when there is no such object.
	SetSearchText(ctx context.Context, kind, id, text string) error
	// PendingSearchTexts returns up to limit PDFs whose search text is
	// still their plain text (written before the server made search texts,
	// or changed since without one), oldest first.
	PendingSearchTexts(ctx context.Context, limit int) ([]PendingSearchText, error)
}
