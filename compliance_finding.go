package fairbalance

import (
	"encoding/json"
	"regexp"
	"slices"
	"time"
)

// Compliance checks (product design, section 5; issue 17). The engine
// (package compliance) finds; what it found is kept per version as a
// ComplianceFinding, shown as an annotation by "Compliance check", and
// followed from version to version: a finding whose (rule, quote) is
// still in the next version keeps its state there, one whose quote is
// gone is fixed by that version.

// FindingState is where a finding stands.
type FindingState string

// The finding states.
const (
	// FindingOpen: found and not dealt with; an open critical finding
	// blocks submission.
	FindingOpen FindingState = "open"
	// FindingDismissed: a member judged it acceptable, with a reason.
	FindingDismissed FindingState = "dismissed"
	// FindingFixed: a later version no longer has its quote.
	FindingFixed FindingState = "fixed"
)

// AllFindingStates lists every FindingState.
var AllFindingStates = []FindingState{FindingOpen, FindingDismissed, FindingFixed}

// FindingStateVocabulary is AllFindingStates as clients know it.
var FindingStateVocabulary = NewVocabulary("finding_state", AllFindingStates)

// FindingTransitions: an open finding is dismissed (with a reason) or
// fixed by a new version; a dismissal may be reopened by a reviewer; a
// dismissed finding whose quote is gone is fixed too. Fixed is final:
// the text it quoted no longer exists.
var FindingTransitions = Transitions[FindingState]{
	FindingOpen:      {FindingDismissed, FindingFixed},
	FindingDismissed: {FindingOpen, FindingFixed},
}

// Valid reports whether s is one of AllFindingStates.
func (s FindingState) Valid() bool { return slices.Contains(AllFindingStates, s) }

// CanTransition reports whether a finding in state s may move to state to.
func (s FindingState) CanTransition(to FindingState) bool { return FindingTransitions.Allows(s, to) }

// FindingSeverity is a finding's or a rule's severity (the engine's
// compliance.Severity, as the database and clients know it).
type FindingSeverity string

// The severities, least to most serious.
const (
	SeverityInfo     FindingSeverity = "info"
	SeverityWarning  FindingSeverity = "warning"
	SeverityCritical FindingSeverity = "critical"
)

// AllFindingSeverities lists every FindingSeverity.
var AllFindingSeverities = []FindingSeverity{SeverityInfo, SeverityWarning, SeverityCritical}

// FindingSeverityVocabulary is AllFindingSeverities as clients know it.
var FindingSeverityVocabulary = NewVocabulary("finding_severity", AllFindingSeverities)

// Valid reports whether s is one of AllFindingSeverities.
func (s FindingSeverity) Valid() bool { return slices.Contains(AllFindingSeverities, s) }

// RuleKind is how an organisation rule matches.
type RuleKind string

// The rule kinds.
const (
	RulePhrases RuleKind = "phrases"
	RuleRegex   RuleKind = "regex"
)

// AllRuleKinds lists every RuleKind.
var AllRuleKinds = []RuleKind{RulePhrases, RuleRegex}

// RuleKindVocabulary is AllRuleKinds as clients know it.
var RuleKindVocabulary = NewVocabulary("compliance_rule_kind", AllRuleKinds)

// Valid reports whether k is one of AllRuleKinds.
func (k RuleKind) Valid() bool { return slices.Contains(AllRuleKinds, k) }

// GuidelineSource is who issued a guideline document.
type GuidelineSource string

// The guideline sources.
const (
	GuidelineFDA      GuidelineSource = "fda"
	GuidelineOPDP     GuidelineSource = "opdp"
	GuidelinePhRMA    GuidelineSource = "phrma"
	GuidelineABPI     GuidelineSource = "abpi"
	GuidelineInternal GuidelineSource = "internal"
)

// AllGuidelineSources lists every GuidelineSource.
var AllGuidelineSources = []GuidelineSource{GuidelineFDA, GuidelineOPDP, GuidelinePhRMA, GuidelineABPI, GuidelineInternal}

// GuidelineSourceVocabulary is AllGuidelineSources as clients know it.
var GuidelineSourceVocabulary = NewVocabulary("guideline_source", AllGuidelineSources)

// Valid reports whether s is one of AllGuidelineSources.
func (s GuidelineSource) Valid() bool { return slices.Contains(AllGuidelineSources, s) }

// Limits of the compliance functions.
const (
	// MaxCheckText is the most text check_text takes, in bytes (1 MB).
	MaxCheckText = 1 << 20
	// MaxDismissReason is the longest dismissal reason, in characters.
	MaxDismissReason = 2000
	// MaxRulePhrases is the most phrases one organisation rule lists.
	MaxRulePhrases = 5000
	// MaxGuidelineBody is the longest guideline document, in characters.
	MaxGuidelineBody = 200_000
	// LargePDFPages: a PDF version with more pages is checked by a
	// background job after its upload commits, not in the upload's
	// transaction.
	LargePDFPages = 20
)

// ComplianceFinding is one finding on one version (compliance_findings).
type ComplianceFinding struct {
	ID               string          `json:"id"`
	OrgID            string          `json:"org_id"`
	AssetID          string          `json:"asset_id"`
	VersionID        string          `json:"version_id"`
	ProductID        *string         `json:"product_id"`
	AssetType        string          `json:"asset_type"`
	Rule             string          `json:"rule"`
	RuleVersion      int             `json:"rule_version"`
	Severity         FindingSeverity `json:"severity"`
	State            FindingState    `json:"state"`
	Start            int             `json:"start_pos"`
	End              int             `json:"end_pos"`
	Quote            string          `json:"quote"`
	Message          string          `json:"message"`
	Guidance         string          `json:"guidance"`
	Target           json.RawMessage `json:"target"`
	SortPage         int             `json:"sort_page"`
	SortPos          int             `json:"sort_pos"`
	FirstVersionID   string          `json:"first_version_id"`
	FixedInVersionID *string         `json:"fixed_in_version_id"`
	DismissedBy      *string         `json:"dismissed_by"`
	DismissedAt      *time.Time      `json:"dismissed_at"`
	DismissReason    *string         `json:"dismiss_reason"`
	CreatedAt        time.Time       `json:"created_at"`
	UpdatedAt        time.Time       `json:"updated_at"`
}

// FindingKey is what identifies a finding from one version to the next:
// the rule that made it and the text it quotes.
type FindingKey struct{ Rule, Quote string }

// Key is f's FindingKey.
func (f *ComplianceFinding) Key() FindingKey { return FindingKey{f.Rule, f.Quote} }

// RuleScope limits where an organisation rule applies; an empty list
// means every value.
type RuleScope struct {
	AssetTypes []string `json:"asset_types"`
	Audiences  []string `json:"audiences"`
	Channels   []string `json:"channels"`
	Markets    []string `json:"markets"`
}

// ComplianceRule is an organisation's own rule (compliance_rules).
type ComplianceRule struct {
	ID        string          `json:"id"`
	OrgID     string          `json:"org_id"`
	Code      string          `json:"code"`
	Title     string          `json:"title"`
	Kind      RuleKind        `json:"kind"`
	Phrases   []string        `json:"phrases"`
	Pattern   string          `json:"pattern"`
	Severity  FindingSeverity `json:"severity"`
	Message   string          `json:"message"`
	Guidance  string          `json:"guidance"`
	Scope     RuleScope       `json:"scope"`
	Enabled   bool            `json:"enabled"`
	Version   int             `json:"version"`
	CreatedBy string          `json:"created_by"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
}

// RuleSetting is an organisation's switch of a built-in rule
// (compliance_rule_settings); Severity nil keeps the default.
type RuleSetting struct {
	OrgID     string           `json:"org_id"`
	Code      string           `json:"code"`
	Enabled   bool             `json:"enabled"`
	Severity  *FindingSeverity `json:"severity"`
	UpdatedBy string           `json:"updated_by"`
	UpdatedAt time.Time        `json:"updated_at"`
}

// RuleCodePattern is what an organisation rule's code looks like.
var RuleCodePattern = regexp.MustCompile(`^[a-z0-9-]{2,40}$`)
