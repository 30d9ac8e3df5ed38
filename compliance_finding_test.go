package fairbalance_test

import (
	"testing"

	"fairbalance"
)

func TestFindingTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllFindingStates, fairbalance.FindingTransitions, fairbalance.FindingState.CanTransition, []string{
		"open>dismissed", "open>fixed",
		"dismissed>open", "dismissed>fixed",
	})
	if got := fairbalance.FindingTransitions.From(fairbalance.FindingFixed); len(got) != 0 {
		t.Errorf("fixed is final, yet moves to %v", got)
	}
}

func TestComplianceVocabularies(t *testing.T) {
	for _, c := range []struct {
		vocab fairbalance.Vocabulary
		want  []string
		valid func(string) bool
	}{
		{fairbalance.FindingStateVocabulary, []string{"open", "dismissed", "fixed"}, func(s string) bool { return fairbalance.FindingState(s).Valid() }},
		{fairbalance.FindingSeverityVocabulary, []string{"info", "warning", "critical"}, func(s string) bool { return fairbalance.FindingSeverity(s).Valid() }},
		{fairbalance.RuleKindVocabulary, []string{"phrases", "regex"}, func(s string) bool { return fairbalance.RuleKind(s).Valid() }},
		{fairbalance.GuidelineSourceVocabulary, []string{"fda", "opdp", "phrma", "abpi", "internal"}, func(s string) bool { return fairbalance.GuidelineSource(s).Valid() }},
	} {
		if len(c.vocab.Values) != len(c.want) {
			t.Errorf("%s: %v", c.vocab.Name, c.vocab.Values)
		}
		for i, s := range c.want {
			if i < len(c.vocab.Values) && c.vocab.Values[i] != s || !c.valid(s) {
				t.Errorf("%s: %q missing or out of order in %v", c.vocab.Name, s, c.vocab.Values)
			}
		}
		for _, bad := range []string{"", "Open", "FDA", "bogus"} {
			if c.valid(bad) {
				t.Errorf("%s: %q is valid", c.vocab.Name, bad)
			}
		}
	}
}

func TestGateComplianceConditions(t *testing.T) {
	p := "p"
	base := fairbalance.GateInput{Asset: fairbalance.Asset{Status: fairbalance.AssetDraft, ProductID: &p, Audience: fairbalance.AudienceHCP,
		Market: "US", Type: fairbalance.AssetOther}}
	for _, c := range []struct {
		name     string
		critical int
		pending  bool
		want     []string
		msg      string
	}{
		{"clean", 0, false, nil, ""},
		{"one critical", 1, false, []string{fairbalance.GateCriticalFindings}, "1 critical compliance finding is open: fix it in a new version or dismiss it with a reason."},
		{"three critical", 3, false, []string{fairbalance.GateCriticalFindings}, "3 critical compliance findings are open: fix them in a new version or dismiss them with a reason."},
		{"pending", 0, true, []string{fairbalance.GateCompliancePending}, ""},
		{"both", 2, true, []string{fairbalance.GateCompliancePending, fairbalance.GateCriticalFindings}, ""},
	} {
		in := base
		in.OpenCriticalFindings, in.CompliancePending = c.critical, c.pending
		got := fairbalance.ReviewGate(in)
		var codes []string
		for _, g := range got {
			codes = append(codes, g.Code)
		}
		if len(codes) != len(c.want) {
			t.Errorf("%s: unmet %v, want %v", c.name, codes, c.want)
			continue
		}
		for i := range codes {
			if codes[i] != c.want[i] {
				t.Errorf("%s: unmet %v, want %v", c.name, codes, c.want)
			}
		}
		if c.msg != "" && got[len(got)-1].Message != c.msg {
			t.Errorf("%s: %q", c.name, got[len(got)-1].Message)
		}
	}
}
