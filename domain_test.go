package fairbalance_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fairbalance"
)

// checkTable walks every (from, to) pair of a state machine's states and
// compares its answer with legal, the moves written out here as
// "from>to". Staying put is never a transition, and the table may name
// only states of its own vocabulary.
func checkTable[S ~string](t *testing.T, all []S, table fairbalance.Transitions[S], can func(from, to S) bool, legal []string) {
	t.Helper()
	want := map[string]bool{}
	for _, m := range legal {
		want[m] = true
	}
	for _, from := range all {
		for _, to := range all {
			move := fmt.Sprintf("%s>%s", from, to)
			t.Run(move, func(t *testing.T) {
				if got := can(from, to); got != want[move] {
					t.Errorf("%s: got %v, want %v", move, got, want[move])
				}
				if got := table.Allows(from, to); got != want[move] {
					t.Errorf("table %s: got %v, want %v", move, got, want[move])
				}
			})
			delete(want, move)
		}
	}
	for m := range want {
		t.Errorf("the expected move %s names a state that is not in the vocabulary", m)
	}
	for from, tos := range table {
		if !slices.Contains(all, from) {
			t.Errorf("the table has a state %q outside the vocabulary", from)
		}
		for _, to := range tos {
			if !slices.Contains(all, to) {
				t.Errorf("the table moves %s to %q, outside the vocabulary", from, to)
			}
		}
	}
}

func TestAssetTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllAssetStatuses, fairbalance.AssetTransitions, fairbalance.AssetStatus.CanTransition, []string{
		// Submit; the round's outcomes; the author withdraws before any decision.
		"draft>in_review",
		"in_review>approved", "in_review>changes_requested", "in_review>rejected", "in_review>draft",
		// Resubmitted with a new version.
		"changes_requested>in_review",
		// Approved content expires or is withdrawn.
		"approved>expired", "approved>withdrawn",
		// Anything not yet archived may be archived; archived is final.
		"draft>archived", "in_review>archived", "changes_requested>archived", "approved>archived",
		"rejected>archived", "expired>archived", "withdrawn>archived",
	})
	for _, s := range fairbalance.AllAssetStatuses {
		want := s != fairbalance.AssetInReview && s != fairbalance.AssetArchived
		if got := s.AcceptsVersions(); got != want {
			t.Errorf("%s accepts versions: got %v, want %v", s, got, want)
		}
	}
	if fairbalance.AssetStatus("published").AcceptsVersions() {
		t.Error("an unknown status accepts versions")
	}
	if got := fairbalance.AssetTransitions.From(fairbalance.AssetArchived); len(got) != 0 {
		t.Errorf("archived leads to %v", got)
	}
}

func TestClaimTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllClaimStatuses, fairbalance.ClaimTransitions, fairbalance.ClaimStatus.CanTransition, []string{
		"draft>approved", "draft>withdrawn",
		"approved>expired", "approved>withdrawn",
		"expired>approved", "expired>withdrawn",
	})
}

func TestModuleTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllModuleStatuses, fairbalance.ModuleTransitions, fairbalance.ModuleStatus.CanTransition, []string{
		"draft>approved", "draft>retired",
		"approved>retired",
	})
}

// Every state of a machine has an entry (final states an empty one), so
// that a state added to a vocabulary without a decision about its moves
// shows up here.
func TestTransitionTablesCoverTheirVocabularies(t *testing.T) {
	covers := func(name string, all []string, keys []string) {
		slices.Sort(all)
		slices.Sort(keys)
		if !slices.Equal(all, keys) {
			t.Errorf("%s: table states %v, vocabulary %v", name, keys, all)
		}
	}
	covers("assets", fairbalance.AssetStatusVocabulary.Values, keysOf(fairbalance.AssetTransitions))
	covers("claims", fairbalance.ClaimStatusVocabulary.Values, keysOf(fairbalance.ClaimTransitions))
	covers("modules", fairbalance.ModuleStatusVocabulary.Values, keysOf(fairbalance.ModuleTransitions))
	covers("reviews", slices.Clone(fairbalance.ReviewStatusVocabulary.Values), keysOf(fairbalance.ReviewTransitions))
	covers("review_steps", slices.Clone(fairbalance.StepStatusVocabulary.Values), keysOf(fairbalance.StepTransitions))
	covers("change_requests", slices.Clone(fairbalance.ChangeRequestStatusVocabulary.Values), keysOf(fairbalance.ChangeRequestTransitions))
}

func keysOf[S ~string](t fairbalance.Transitions[S]) []string {
	var out []string
	for k := range t {
		out = append(out, string(k))
	}
	return out
}

func TestVocabularies(t *testing.T) {
	names := map[string]bool{}
	for _, v := range fairbalance.Vocabularies() {
		if v.Name == "" || names[v.Name] {
			t.Errorf("vocabulary name %q is empty or taken twice", v.Name)
		}
		names[v.Name] = true
		seen := map[string]bool{}
		for _, s := range v.Values {
			// Values are written into SQL string literals and TypeScript
			// unions: lower-case words only.
			if s == "" || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz_") != "" || seen[s] {
				t.Errorf("%s: value %q is empty, not a lower-case word or repeated", v.Name, s)
			}
			seen[s] = true
			if !v.Has(s) {
				t.Errorf("%s does not have its own value %q", v.Name, s)
			}
		}
		if v.Has("") || v.Has("bogus") {
			t.Errorf("%s has a value it does not list", v.Name)
		}
	}
	if len(names) != 16 {
		t.Errorf("%d vocabularies", len(names))
	}

	// Valid agrees with the All… lists; the zero value and near misses
	// are not valid.
	valid := []struct {
		name  string
		vocab fairbalance.Vocabulary
		valid func(string) bool
	}{
		{"asset type", fairbalance.AssetTypeVocabulary, func(s string) bool { return fairbalance.AssetType(s).Valid() }},
		{"audience", fairbalance.AudienceVocabulary, func(s string) bool { return fairbalance.Audience(s).Valid() }},
		{"asset status", fairbalance.AssetStatusVocabulary, func(s string) bool { return fairbalance.AssetStatus(s).Valid() }},
		{"version kind", fairbalance.VersionKindVocabulary, func(s string) bool { return fairbalance.VersionKind(s).Valid() }},
		{"reference kind", fairbalance.ReferenceKindVocabulary, func(s string) bool { return fairbalance.ReferenceKind(s).Valid() }},
		{"reference status", fairbalance.ReferenceStatusVocabulary, func(s string) bool { return fairbalance.ReferenceStatus(s).Valid() }},
		{"claim status", fairbalance.ClaimStatusVocabulary, func(s string) bool { return fairbalance.ClaimStatus(s).Valid() }},
		{"module kind", fairbalance.ModuleKindVocabulary, func(s string) bool { return fairbalance.ModuleKind(s).Valid() }},
		{"module status", fairbalance.ModuleStatusVocabulary, func(s string) bool { return fairbalance.ModuleStatus(s).Valid() }},
		{"reviewer role", fairbalance.ReviewerRoleVocabulary, func(s string) bool { return fairbalance.ReviewerRole(s).Valid() }},
		{"review status", fairbalance.ReviewStatusVocabulary, func(s string) bool { return fairbalance.ReviewStatus(s).Valid() }},
		{"step status", fairbalance.StepStatusVocabulary, func(s string) bool { return fairbalance.StepStatus(s).Valid() }},
		{"decision", fairbalance.DecisionVocabulary, func(s string) bool { return fairbalance.Decision(s).Valid() }},
		{"signature meaning", fairbalance.SignatureMeaningVocabulary, func(s string) bool { return fairbalance.SignatureMeaning(s).Valid() }},
		{"change request status", fairbalance.ChangeRequestStatusVocabulary, func(s string) bool { return fairbalance.ChangeRequestStatus(s).Valid() }},
		{"notification kind", fairbalance.NotificationKindVocabulary, func(s string) bool { return fairbalance.NotificationKind(s).Valid() }},
	}
	for _, c := range valid {
		for _, s := range c.vocab.Values {
			if !c.valid(s) || c.valid(strings.ToUpper(s)) || c.valid(s+" ") {
				t.Errorf("%s: %q", c.name, s)
			}
		}
		if c.valid("") {
			t.Errorf("%s: the empty value is valid", c.name)
		}
	}

	// The review workflow's states are all declared (product design, section 4).
	for _, s := range []string{"draft", "in_review", "changes_requested", "approved", "rejected", "expired", "withdrawn", "archived"} {
		if !fairbalance.AssetStatus(s).Valid() {
			t.Errorf("asset status %s is missing", s)
		}
	}
}
