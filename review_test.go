package fairbalance_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"fairbalance"
)

// The review workflow's domain (issue 15): its transition tables, the
// round's roll-up, the ready-for-review gate, due dates, expiry dates and
// the signature seal.

func TestReviewTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllReviewStatuses, fairbalance.ReviewTransitions, fairbalance.ReviewStatus.CanTransition, []string{
		"open>approved", "open>changes_requested", "open>rejected", "open>withdrawn",
	})
	for s, want := range map[fairbalance.ReviewStatus]fairbalance.AssetStatus{
		fairbalance.ReviewOpen: fairbalance.AssetInReview, fairbalance.ReviewApproved: fairbalance.AssetApproved,
		fairbalance.ReviewChangesRequested: fairbalance.AssetChangesRequested, fairbalance.ReviewRejected: fairbalance.AssetRejected,
		fairbalance.ReviewWithdrawn: fairbalance.AssetDraft,
	} {
		if got := s.AssetStatus(); got != want {
			t.Errorf("%s gives the asset %s, want %s", s, got, want)
		}
		// Every outcome is a legal move of the asset from in_review.
		if s != fairbalance.ReviewOpen && !fairbalance.AssetInReview.CanTransition(want) {
			t.Errorf("in_review cannot become %s", want)
		}
	}
}

func TestStepTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllStepStatuses, fairbalance.StepTransitions, fairbalance.StepStatus.CanTransition, []string{
		"waiting>active", "waiting>skipped",
		"active>approved", "active>approved_with_changes", "active>changes_requested", "active>rejected", "active>skipped",
	})
	for _, d := range fairbalance.AllDecisions {
		s := d.StepStatus()
		if !s.Valid() || !s.Decided() || !fairbalance.StepActive.CanTransition(s) {
			t.Errorf("decision %s: step status %s", d, s)
		}
	}
	for _, s := range []fairbalance.StepStatus{fairbalance.StepWaiting, fairbalance.StepActive, fairbalance.StepSkipped} {
		if s.Decided() {
			t.Errorf("%s counts as decided", s)
		}
	}
	if !fairbalance.StepApprovedWithChanges.Approves() || fairbalance.StepChangesRequested.Approves() {
		t.Error("Approves")
	}
}

func TestChangeRequestTransitions(t *testing.T) {
	checkTable(t, fairbalance.AllChangeRequestStatuses, fairbalance.ChangeRequestTransitions, fairbalance.ChangeRequestStatus.CanTransition, []string{
		"open>done", "done>confirmed",
	})
}

func TestDecisionMeanings(t *testing.T) {
	want := map[fairbalance.Decision]fairbalance.SignatureMeaning{
		fairbalance.DecisionApproved: fairbalance.MeaningApproval, fairbalance.DecisionApprovedWithChanges: fairbalance.MeaningApproval,
		fairbalance.DecisionChangesRequested: fairbalance.MeaningReview, fairbalance.DecisionRejected: fairbalance.MeaningRejection,
	}
	for _, d := range fairbalance.AllDecisions {
		if got := d.Meaning(); got != want[d] || !got.Valid() {
			t.Errorf("%s means %s, want %s", d, got, want[d])
		}
		if a := fairbalance.StepDecisionAction(d); a != "review_step_"+string(d) || !fairbalance.IsServerAuditAction(a) {
			t.Errorf("%s: action %s", d, a)
		}
	}
	for _, s := range []fairbalance.AssetStatus{fairbalance.AssetInReview, fairbalance.AssetApproved, fairbalance.AssetChangesRequested,
		fairbalance.AssetRejected, fairbalance.AssetWithdrawn, fairbalance.AssetExpired} {
		if a := fairbalance.AssetStatusAction(s); a == "" || !fairbalance.IsServerAuditAction(a) {
			t.Errorf("asset %s: action %q", s, a)
		}
	}
}

// steps writes a round compactly: "1R:active" is a required step of
// order 1 that is active, "2o:waiting" an optional one of order 2.
func steps(specs ...string) []fairbalance.StepState {
	var out []fairbalance.StepState
	for _, s := range specs {
		head, status, _ := strings.Cut(s, ":")
		out = append(out, fairbalance.StepState{Order: int(head[0] - '0'), Required: head[1] == 'R', Status: fairbalance.StepStatus(status)})
	}
	return out
}

func TestRollUp(t *testing.T) {
	cases := []struct {
		name     string
		steps    []fairbalance.StepState
		activate []int
		skip     []int
		outcome  fairbalance.ReviewStatus
	}{
		{"submission activates the lowest order, in parallel",
			steps("1R:waiting", "1R:waiting", "1R:waiting"), []int{0, 1, 2}, nil, fairbalance.ReviewOpen},
		{"a later order waits", steps("1R:waiting", "2R:waiting"), []int{0}, nil, fairbalance.ReviewOpen},
		{"orders need not start at 1 or be consecutive", steps("7R:waiting", "3R:waiting"), []int{1}, nil, fairbalance.ReviewOpen},
		{"one undecided required step holds the round open",
			steps("1R:approved", "1R:changes_requested", "1R:active"), nil, nil, fairbalance.ReviewOpen},
		{"every required step approved: approved",
			steps("1R:approved", "1R:approved_with_changes", "1R:approved"), nil, nil, fairbalance.ReviewApproved},
		{"any changes requested once all decided: changes_requested",
			steps("1R:approved", "1R:changes_requested", "1R:approved_with_changes"), nil, nil, fairbalance.ReviewChangesRequested},
		{"a rejection closes at once, skipping the undecided",
			steps("1R:rejected", "1R:active", "1R:active", "2R:waiting"), nil, []int{1, 2, 3}, fairbalance.ReviewRejected},
		{"a rejection wins over changes requested",
			steps("1R:changes_requested", "1R:rejected"), nil, nil, fairbalance.ReviewRejected},
		{"an optional step's rejection also closes at once",
			steps("1R:active", "1o:rejected"), nil, []int{0}, fairbalance.ReviewRejected},
		{"optional steps never hold a round open",
			steps("1R:approved", "1o:active"), nil, []int{1}, fairbalance.ReviewApproved},
		{"an optional step's changes count in the outcome",
			steps("1R:approved", "1o:changes_requested"), nil, nil, fairbalance.ReviewChangesRequested},
		{"the next order starts when every required step before approved",
			steps("1R:approved", "1R:approved_with_changes", "2R:waiting", "2o:waiting", "3R:waiting"), []int{2, 3}, nil, fairbalance.ReviewOpen},
		{"an optional step left active does not stop the next order",
			steps("1R:approved", "1o:active", "2R:waiting"), []int{2}, nil, fairbalance.ReviewOpen},
		{"changes requested in an order close the round; later orders never start",
			steps("1R:changes_requested", "1R:approved", "2R:waiting"), nil, []int{2}, fairbalance.ReviewChangesRequested},
		{"an order of optional steps only holds nothing up",
			steps("1o:waiting", "2R:waiting"), []int{0, 1}, nil, fairbalance.ReviewOpen},
		{"a last order decided closes the round",
			steps("1R:approved", "2R:approved", "2o:waiting"), nil, []int{2}, fairbalance.ReviewApproved},
		{"sequential: the second order is active and undecided",
			steps("1R:approved", "2R:active"), nil, nil, fairbalance.ReviewOpen},
		{"skipped steps count as nothing",
			steps("1R:approved", "1o:skipped"), nil, nil, fairbalance.ReviewApproved},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := fairbalance.RollUp(c.steps)
			if p.Outcome != c.outcome || p.Closed != (c.outcome != fairbalance.ReviewOpen) {
				t.Errorf("outcome %s (closed %v), want %s", p.Outcome, p.Closed, c.outcome)
			}
			if !slices.Equal(p.Activate, c.activate) {
				t.Errorf("activate %v, want %v", p.Activate, c.activate)
			}
			if !slices.Equal(p.Skip, c.skip) {
				t.Errorf("skip %v, want %v", p.Skip, c.skip)
			}
			// Whatever the roll-up asks is a legal move of the step.
			for _, i := range p.Activate {
				if !c.steps[i].Status.CanTransition(fairbalance.StepActive) {
					t.Errorf("activates step %d in %s", i, c.steps[i].Status)
				}
			}
			for _, i := range p.Skip {
				if !c.steps[i].Status.CanTransition(fairbalance.StepSkipped) {
					t.Errorf("skips step %d in %s", i, c.steps[i].Status)
				}
			}
		})
	}
}

func TestWorkflowProblems(t *testing.T) {
	if p := fairbalance.WorkflowProblems(fairbalance.DefaultWorkflowSteps()); p != nil {
		t.Fatalf("the default workflow: %v", p)
	}
	d := fairbalance.DefaultWorkflowSteps()
	if len(d) != 3 || d[0].Role != fairbalance.ReviewerMedical || d[1].Role != fairbalance.ReviewerLegal || d[2].Role != fairbalance.ReviewerRegulatory {
		t.Fatalf("default: %+v", d)
	}
	for _, s := range d {
		if !s.Required || s.Order != 1 || s.DueDays != 5 {
			t.Fatalf("default step: %+v", s)
		}
	}
	cases := []struct {
		name  string
		steps []fairbalance.WorkflowStep
		want  int
	}{
		{"no steps", nil, 1},
		{"bad role, order and due days", []fairbalance.WorkflowStep{{Role: "marketer", Required: true, Order: 0, DueDays: 0}}, 3},
		{"order and due days too large", []fairbalance.WorkflowStep{{Role: fairbalance.ReviewerLegal, Required: true, Order: 100, DueDays: 61}}, 2},
		{"no required step", []fairbalance.WorkflowStep{{Role: fairbalance.ReviewerLegal, Order: 1, DueDays: 1}}, 1},
		{"too many steps", slices.Repeat([]fairbalance.WorkflowStep{{Role: fairbalance.ReviewerLegal, Required: true, Order: 1, DueDays: 1}}, 21), 1},
	}
	for _, c := range cases {
		if got := fairbalance.WorkflowProblems(c.steps); len(got) != c.want {
			t.Errorf("%s: %v, want %d problems", c.name, got, c.want)
		}
	}
}

func gateCodes(ps []fairbalance.GateProblem) []string {
	var out []string
	for _, p := range ps {
		if p.Message == "" {
			out = append(out, "(no message)")
		}
		out = append(out, p.Code)
	}
	return out
}

func TestReviewGate(t *testing.T) {
	product, v1, v2 := "p1", "v1", "v2"
	ready := func() fairbalance.GateInput {
		return fairbalance.GateInput{
			Asset: fairbalance.Asset{Type: fairbalance.AssetEmail, Audience: fairbalance.AudienceHCP, Market: "US", ProductID: &product,
				Status: fairbalance.AssetDraft, CurrentVersionID: &v1},
			VersionText: "Zelvora lowers LDL-C.\nIMPORTANT SAFETY\n  INFORMATION: Do not take\fif pregnant.",
			ISITexts:    []string{"", "Important Safety Information: do not take if pregnant."},
		}
	}
	cases := []struct {
		name   string
		change func(in *fairbalance.GateInput)
		want   []string
	}{
		{"ready (ISI text found, case and white space ignored, across pages)", func(in *fairbalance.GateInput) {}, nil},
		{"ISI by module mark", func(in *fairbalance.GateInput) { in.VersionText, in.MarksISIModule = "No text", true }, nil},
		{"type other needs no ISI", func(in *fairbalance.GateInput) { in.VersionText, in.Asset.Type = "No text", fairbalance.AssetOther }, nil},
		{"changes requested with every request done and a new version", func(in *fairbalance.GateInput) {
			in.Asset.Status, in.Asset.CurrentVersionID, in.LastRoundVersionID = fairbalance.AssetChangesRequested, &v2, v1
		}, nil},
		{"wrong status", func(in *fairbalance.GateInput) { in.Asset.Status = fairbalance.AssetInReview }, []string{"status"}},
		{"approved cannot be submitted", func(in *fairbalance.GateInput) { in.Asset.Status = fairbalance.AssetApproved }, []string{"status"}},
		{"no ISI", func(in *fairbalance.GateInput) { in.VersionText = "Zelvora lowers LDL-C." }, []string{"isi"}},
		{"an empty ISI text is no ISI", func(in *fairbalance.GateInput) { in.VersionText, in.ISITexts = "x", []string{"  "} }, []string{"isi"}},
		{"open change requests", func(in *fairbalance.GateInput) { in.OpenChangeRequests = 2 }, []string{"change_requests"}},
		{"same version after changes requested", func(in *fairbalance.GateInput) {
			in.Asset.Status, in.LastRoundVersionID = fairbalance.AssetChangesRequested, v1
		}, []string{"version"}},
		{"every condition at once", func(in *fairbalance.GateInput) {
			in.Asset.Status, in.Asset.ProductID, in.Asset.Audience, in.Asset.Market = fairbalance.AssetRejected, nil, "", " "
			in.OpenChangeRequests = 1
		}, []string{"status", "product_id", "audience", "market", "isi", "change_requests"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := ready()
			c.change(&in)
			if got := gateCodes(fairbalance.ReviewGate(in)); !slices.Equal(got, c.want) {
				t.Errorf("unmet %v, want %v", got, c.want)
			}
		})
	}
}

func TestAddBusinessDays(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		from string
		days int
		want string
	}{
		{"2026-03-02T10:00:00Z", 5, "2026-03-09T10:00:00Z"},  // Monday + 5 = next Monday
		{"2026-03-06T10:00:00Z", 1, "2026-03-09T10:00:00Z"},  // Friday + 1 = Monday
		{"2026-03-07T10:00:00Z", 1, "2026-03-09T10:00:00Z"},  // Saturday + 1 = Monday
		{"2026-03-08T23:30:00Z", 1, "2026-03-09T23:30:00Z"},  // Sunday + 1 = Monday
		{"2026-03-04T09:00:00Z", 3, "2026-03-09T09:00:00Z"},  // Wednesday + 3 = Monday
		{"2026-03-02T10:00:00Z", 10, "2026-03-16T10:00:00Z"}, // two weeks
		{"2026-03-02T10:00:00Z", 0, "2026-03-02T10:00:00Z"},
		{"2026-03-02T01:00:00+02:00", 1, "2026-03-02T23:00:00Z"}, // counted in UTC: Sunday 23:00 + 1
	}
	for _, c := range cases {
		if got := fairbalance.AddBusinessDays(at(c.from), c.days); !got.Equal(at(c.want)) || got.Location() != time.UTC {
			t.Errorf("%s + %d business days = %s, want %s", c.from, c.days, got, c.want)
		}
	}
}

func TestApprovalExpiry(t *testing.T) {
	day := func(s string) time.Time {
		v, _ := time.Parse(time.DateOnly, s)
		return v.Add(15 * time.Hour)
	}
	cases := []struct {
		from   string
		months int
		want   string
	}{
		{"2026-03-15", 12, "2027-03-15"},
		{"2026-01-31", 1, "2026-02-28"},
		{"2028-01-31", 1, "2028-02-29"},
		{"2026-08-31", 6, "2027-02-28"},
		{"2026-12-01", 1, "2027-01-01"},
		{"2024-02-29", 12, "2025-02-28"},
	}
	for _, c := range cases {
		if got := fairbalance.ApprovalExpiry(day(c.from), c.months); got != c.want {
			t.Errorf("%s + %d months = %s, want %s", c.from, c.months, got, c.want)
		}
	}
	now := day("2027-03-15") // 15:00 UTC
	for date, want := range map[string]bool{"2027-03-15": true, "2027-03-14": true, "2027-03-16": false, "bogus": false} {
		if got := fairbalance.ExpiryReached(date, now); got != want {
			t.Errorf("expires %s, reached on 2027-03-15: %v", date, got)
		}
	}
}

func sealedSignature(t *testing.T) (*fairbalance.Signature, ed25519.PrivateKey) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s := &fairbalance.Signature{ID: "s1", OrgID: "o1", ReviewID: "r1", StepID: "st1", AssetID: "a1", VersionID: "v1",
		RenditionSHA256: strings.Repeat("ab", 32), SignerID: "u1", SignerName: "Dr. Mara Lind",
		SignedAt: time.Date(2026, 3, 2, 10, 0, 0, 123456789, time.FixedZone("CET", 3600)), Meaning: fairbalance.MeaningApproval,
		Decision: fairbalance.DecisionApproved}
	s.SealWith(key)
	return s, key
}

func TestSignatureSeal(t *testing.T) {
	s, key := sealedSignature(t)
	keys := map[string]ed25519.PublicKey{fairbalance.AuditKeyID(key.Public().(ed25519.PublicKey)): key.Public().(ed25519.PublicKey)}
	if s.SignedAt.Location() != time.UTC || s.SignedAt.Nanosecond() != 123456000 || len(s.Seal) != 64 || s.KeyID == "" {
		t.Fatalf("sealed: %+v", s)
	}
	if err := s.VerifySeal(keys); err != nil {
		t.Fatalf("a fresh seal: %v", err)
	}
	// The time as read back from a database (another zone, nanoseconds
	// cut to microseconds) verifies alike.
	back := *s
	back.SignedAt = s.SignedAt.In(time.FixedZone("X", -7200))
	if err := back.VerifySeal(keys); err != nil {
		t.Fatalf("the same time in another zone: %v", err)
	}
	alter := map[string]func(s *fairbalance.Signature){
		"signer":         func(s *fairbalance.Signature) { s.SignerID = "u2" },
		"printed name":   func(s *fairbalance.Signature) { s.SignerName = "Dr. Mara Lindt" },
		"time":           func(s *fairbalance.Signature) { s.SignedAt = s.SignedAt.Add(time.Microsecond) },
		"meaning":        func(s *fairbalance.Signature) { s.Meaning = fairbalance.MeaningReview },
		"decision":       func(s *fairbalance.Signature) { s.Decision = fairbalance.DecisionApprovedWithChanges },
		"moved (step)":   func(s *fairbalance.Signature) { s.StepID = "st2" },
		"moved (review)": func(s *fairbalance.Signature) { s.ReviewID = "r2" },
		"copied (id)":    func(s *fairbalance.Signature) { s.ID = "s2" },
		"version":        func(s *fairbalance.Signature) { s.VersionID = "v2" },
		"rendition":      func(s *fairbalance.Signature) { s.RenditionSHA256 = strings.Repeat("cd", 32) },
		"organisation":   func(s *fairbalance.Signature) { s.OrgID = "o2" },
		"seal":           func(s *fairbalance.Signature) { s.Seal = strings.Repeat("0", 64) },
		"signature":      func(s *fairbalance.Signature) { s.Sig = "AAAA" },
		// The fields changed and the seal's hash recomputed: the signature
		// of the instance's key no longer matches.
		"rehashed without the key": func(s *fairbalance.Signature) {
			s.SignerName = "Someone Else"
			sum := sha256.Sum256(s.SignedBytes())
			s.Seal = hex.EncodeToString(sum[:])
		},
	}
	for name, change := range alter {
		c := *s
		change(&c)
		if err := c.VerifySeal(keys); !errors.Is(err, fairbalance.ErrSignatureAltered) {
			t.Errorf("%s: %v", name, err)
		}
	}
	other := *s
	other.KeyID = "0000000000000000"
	if err := other.VerifySeal(keys); !errors.Is(err, fairbalance.ErrSignatureUnknownKey) {
		t.Errorf("unknown key: %v", err)
	}
	// Field boundaries are part of the encoding: moving a character from
	// one field to the next changes the bytes.
	a, b := *s, *s
	a.SignerName, a.Meaning = "ab", "c"
	b.SignerName, b.Meaning = "a", "bc"
	if string(a.SignedBytes()) == string(b.SignedBytes()) {
		t.Error("two signatures encode alike")
	}
}
