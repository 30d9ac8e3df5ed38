// Package compliance is Fairbalance's deterministic pre-screening engine:
// pure functions from a document and its context to findings. It does no
// I/O; the service layer feeds it a version's text and the product's
// facts, stores what it returns and shows it as annotations by
// "Compliance check".
//
// Offsets everywhere count Unicode code points of Document.Text, as the
// W3C text position selector does.
//
// The built-in rules and their default severities (Builtins lists them;
// an organisation may switch each off or change its severity):
//
//	superlative       critical  unqualified superlatives and absolutes
//	comparative       critical  comparisons with no reference
//	unsubstantiated   warning   efficacy or safety statements with no reference
//	fair-balance      critical  promotional efficacy claims without ISI
//	established-name  warning   brand without its established name nearby
//	off-label         critical  populations or conditions not in the indications
//	new-claim         warning   "new" more than six months after launch
//	expired-module    critical  module or claim text past its expiry
//	pi-reference      warning   no "see full Prescribing Information" statement
//	channel-length    warning   social post over the channel's length, no ISI link
//	readability       warning   patient text above reading grade 8
//
// Every phrase rule, built-in or the organisation's, is matched in one pass
// of an Aho–Corasick automaton over a normalised copy of the text (lower
// case, curly quotes and dashes made ASCII, whitespace and line breaks made
// one space, hyphens between words made spaces, ® ™ and soft hyphens
// dropped, superscripts and footnote symbols made one reference mark);
// every normalised byte remembers the code point it came from, so matches
// convert back to offsets of the original. Each match is then judged in
// its sentence: qualification ("one of the most"), negation ("not the
// only"), instructions ("to help reduce the risk of thrush"), baselines
// ("compared with the pre-study year"), reference markers, linked claims
// and the safety information section. The reading grade is Flesch–Kincaid
// with a vowel-group syllable count (no maintained Go library for it is
// available to the project).
package compliance

import "time"

// Severity is how much a finding matters. Critical findings block
// submission for review.
type Severity string

// The severities, least to most serious.
const (
	Info     Severity = "info"
	Warning  Severity = "warning"
	Critical Severity = "critical"
)

// Valid reports whether s is one of the three severities.
func (s Severity) Valid() bool { return s == Info || s == Warning || s == Critical }

// The built-in rule codes (product.md section 5).
const (
	RuleSuperlative     = "superlative"
	RuleComparative     = "comparative"
	RuleUnsubstantiated = "unsubstantiated"
	RuleFairBalance     = "fair-balance"
	RuleEstablishedName = "established-name"
	RuleOffLabel        = "off-label"
	RuleNewClaim        = "new-claim"
	RuleExpiredModule   = "expired-module"
	RulePIReference     = "pi-reference"
	RuleChannelLength   = "channel-length"
	RuleReadability     = "readability"
)

// Span is a stretch [Start, End) of Document.Text in code points.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// ModuleSpan is where an inserted module's or claim's text sits in the
// document, with the expiry the expired-module rule checks.
type ModuleSpan struct {
	Span
	// Kind is "module" or "claim".
	Kind  string `json:"kind"`
	ID    string `json:"id"`
	Title string `json:"title"`
	// ExpiresOn is the date (UTC) from which the text may no longer be used;
	// zero when it does not expire. Expired is true when its status already
	// says so (an expired claim, a retired module).
	ExpiresOn time.Time `json:"expires_on"`
	Expired   bool      `json:"expired"`
	// ISI marks a module that carries Important Safety Information.
	ISI bool `json:"isi"`
}

// Document is the text to check with its structure. Text is the plain
// text: paragraphs separated by blank lines, pages by form feeds (U+000C).
type Document struct {
	Text string
	// Pages are the page spans when the text came from a PDF (empty for
	// composed text): the rules skip the running headers and footers
	// repeated on most pages.
	Pages []Span
	// Modules are the inserted modules and claims.
	Modules []ModuleSpan
	// ReferenceMarkers are spans the caller knows are reference markers
	// (for example a composed version's citations); the engine also finds
	// superscript digits, bracketed numbers and footnote symbols itself.
	ReferenceMarkers []Span
}

// Product is what the rules know of the product an asset promotes.
type Product struct {
	BrandName       string
	EstablishedName string
	// Indications is the approved indications as written on the label;
	// the off-label rule reads its terms.
	Indications string
	ISIText     string
	// PIReference is the product's "see full Prescribing Information"
	// wording, when it has one.
	PIReference string
	// LaunchDate is zero when unknown (the new-claim rule then stays quiet).
	LaunchDate time.Time
}

// Context is everything outside the text that a rule may use.
type Context struct {
	// Product is nil when the text belongs to no product.
	Product *Product
	// AssetType, Audience, Channel and Market use the content model's
	// values; empty means unknown (scoped rules then apply).
	AssetType string
	Audience  string
	Channel   string
	Market    string
	// LinkedClaims is how many approved claims with references the asset
	// links; comparative and unsubstantiated statements inside a linked
	// claim's text are substantiated.
	LinkedClaims []Span
	// AsOf is the date the check is for (new-claim, expired-module); the
	// zero time means today (UTC).
	AsOf time.Time
}

// Finding is one thing a rule found.
type Finding struct {
	Rule        string   `json:"rule"`
	RuleVersion int      `json:"rule_version"`
	Severity    Severity `json:"severity"`
	Start       int      `json:"start"`
	End         int      `json:"end"`
	Quote       string   `json:"quote"`
	Message     string   `json:"message"`
	Guidance    string   `json:"guidance"`
}

// Scope limits where an organisation rule applies; an empty list means
// every value.
type Scope struct {
	AssetTypes []string `json:"asset_types"`
	Audiences  []string `json:"audiences"`
	Channels   []string `json:"channels"`
	Markets    []string `json:"markets"`
}

// Rule is an organisation's own rule: a phrase list or one RE2 regular
// expression.
type Rule struct {
	Code    string
	Version int
	// Kind is "phrases" or "regex".
	Kind     string
	Phrases  []string
	Pattern  string
	Severity Severity
	Message  string
	Guidance string
	Scope    Scope
}

// Config is an organisation's rule set: which built-in rules are off, their
// severities where the organisation changed them, and its own rules.
type Config struct {
	Disabled   map[string]bool
	Severities map[string]Severity
	Rules      []Rule
}

// BuiltinRule describes a built-in rule for the Guidelines screen.
type BuiltinRule struct {
	Code     string   `json:"code"`
	Version  int      `json:"version"`
	Title    string   `json:"title"`
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
}
