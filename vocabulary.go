package fairbalance

import (
	"slices"
	"strings"
)

// Vocabulary is a closed list of text values, such as the statuses an asset
// may have. Each vocabulary of the product is declared once, in this
// package, as typed constants with an All… list; the data API's column
// specs, the SQL CHECK constraints (by a test) and the generated TypeScript
// (as string unions) all take their values from it.
type Vocabulary struct {
	// Name is how clients know the vocabulary: the key of the generated
	// TypeScript's Enums ("asset_status").
	Name string
	// Values are the allowed values in their meaningful order (the order
	// a picker offers them in).
	Values []string
}

// NewVocabulary names a list of typed values.
func NewVocabulary[S ~string](name string, values []S) Vocabulary {
	v := Vocabulary{Name: name, Values: make([]string, len(values))}
	for i, s := range values {
		v.Values[i] = string(s)
	}
	return v
}

// Has reports whether s is one of the vocabulary's values.
func (v Vocabulary) Has(s string) bool { return slices.Contains(v.Values, s) }

// Refusal is the message refusing a value outside the vocabulary to the
// field called label: "The status must be one of: draft, approved."
func (v Vocabulary) Refusal(label string) string {
	return label + " must be one of: " + strings.Join(v.Values, ", ") + "."
}

// Vocabularies lists every vocabulary of the content model and the review
// workflow, for generators
// and the tests that hold the database to them.
func Vocabularies() []Vocabulary {
	return []Vocabulary{
		AssetTypeVocabulary, AudienceVocabulary, AssetStatusVocabulary, VersionKindVocabulary,
		ReferenceKindVocabulary, ReferenceStatusVocabulary, ClaimStatusVocabulary,
		ModuleKindVocabulary, ModuleStatusVocabulary,
		ReviewerRoleVocabulary, ReviewStatusVocabulary, StepStatusVocabulary, DecisionVocabulary,
		SignatureMeaningVocabulary, ChangeRequestStatusVocabulary, NotificationKindVocabulary,
	}
}

// Transitions is a state machine as data: for each state, the states it
// may move to. A state with no entry (or an empty one) is final. Staying
// in a state is not a transition.
type Transitions[S ~string] map[S][]S

// Allows reports whether a move from one state to another is legal.
func (t Transitions[S]) Allows(from, to S) bool {
	return slices.Contains(t[from], to)
}

// From lists the states reachable from a state in one move (nil when it is
// final). The slice is a copy.
func (t Transitions[S]) From(s S) []S { return slices.Clone(t[s]) }
