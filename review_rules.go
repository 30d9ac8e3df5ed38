package fairbalance

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// StepState is what the roll-up of a round needs of one of its steps.
type StepState struct {
	Order    int
	Required bool
	Status   StepStatus
}

// RoundProgress is what RollUp decides for a round: the steps to activate
// and to skip (indices into the steps given), and whether the round is
// closed, with its outcome.
type RoundProgress struct {
	Activate []int
	Skip     []int
	Closed   bool
	// Outcome is ReviewOpen while the round goes on, else how it closed.
	Outcome ReviewStatus
}

// RollUp is the review workflow's roll-up (product design, section 4) over
// the steps of one round as they stand:
//
//   - a rejection closes the round at once, rejected;
//   - steps run by order: the lowest order whose steps wait becomes active;
//     a higher order starts only when every required step of the lower
//     orders has approved (with or without changes); an order without a
//     required step holds nothing up;
//   - the round stays open while an active required step is undecided, so
//     the author gets every reviewer's feedback of a stage at once;
//   - when every active required step has decided and one of them asked for
//     changes, the round closes changes_requested (later orders never start);
//   - when every required step of every order has decided, the round
//     closes: changes_requested when any step (optional ones included) asked
//     for changes, else approved.
//
// Optional steps never hold a round open: when it closes, every step still
// waiting or active is skipped. RollUp is pure; applying it is the
// service's.
func RollUp(steps []StepState) RoundProgress {
	var p RoundProgress
	undecided := func(s StepStatus) bool { return s == StepWaiting || s == StepActive }
	closeRound := func(outcome ReviewStatus) RoundProgress {
		var skip []int
		for i, s := range steps {
			if undecided(s.Status) {
				skip = append(skip, i)
			}
		}
		return RoundProgress{Skip: skip, Closed: true, Outcome: outcome}
	}
	changes := false
	for _, s := range steps {
		if s.Status == StepRejected {
			return closeRound(ReviewRejected)
		}
		changes = changes || s.Status == StepChangesRequested
	}
	var orders []int
	for _, s := range steps {
		if !slices.Contains(orders, s.Order) {
			orders = append(orders, s.Order)
		}
	}
	slices.Sort(orders)
	for _, o := range orders {
		pending, stageChanges := false, false
		for i, s := range steps {
			if s.Order != o {
				continue
			}
			if s.Status == StepWaiting {
				p.Activate = append(p.Activate, i)
			}
			if s.Required && undecided(s.Status) {
				pending = true
			}
			if s.Required && s.Status == StepChangesRequested {
				stageChanges = true
			}
		}
		if pending {
			p.Outcome = ReviewOpen
			return p
		}
		if stageChanges {
			return closeRound(ReviewChangesRequested)
		}
	}
	if changes {
		return closeRound(ReviewChangesRequested)
	}
	return closeRound(ReviewApproved)
}

// The conditions of the ready-for-review gate, as GateProblem.Code names
// them (the asset's field where there is one).
const (
	GateStatus         = "status"
	GateProduct        = "product_id"
	GateAudience       = "audience"
	GateMarket         = "market"
	GateISI            = "isi"
	GateChangeRequests = "change_requests"
	GateVersion        = "version"
	// GateCriticalFindings: the current version has open critical
	// compliance findings; GateCompliancePending: its check still runs.
	GateCriticalFindings  = "critical_findings"
	GateCompliancePending = "compliance_pending"
)

// GateProblem is one unmet condition of the ready-for-review gate.
type GateProblem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// GateInput is what the ready-for-review gate looks at.
type GateInput struct {
	Asset Asset
	// VersionText is the text of the current version (a PDF's pages
	// included).
	VersionText string
	// MarksISIModule tells that the current version holds an ISI module
	// of the asset's product.
	MarksISIModule bool
	// ISITexts are the ISI texts of the asset's product: its ISI text and
	// the bodies of its ISI modules; a version whose text contains one of
	// them (case and white space ignored) carries the ISI.
	ISITexts []string
	// OpenChangeRequests counts the asset's change requests not yet done.
	OpenChangeRequests int
	// LastRoundVersionID is the version the asset's last closed round
	// reviewed ("" for none).
	LastRoundVersionID string
	// OpenCriticalFindings counts the current version's open critical
	// compliance findings; CompliancePending tells that its check has not
	// finished.
	OpenCriticalFindings int
	CompliancePending    bool
}

// ReviewGate is the ready-for-review gate: every condition the asset and
// its current version do not meet, in a fixed order, so that the author
// sees them all at once; none when it may be submitted. The conditions:
// the asset is draft or changes_requested; product, audience and market
// are set; for every type but other, the version carries the product's
// ISI; every change request is done; after changes were requested, the
// version is a new one; the version's compliance check has finished and
// left no open critical finding.
func ReviewGate(in GateInput) []GateProblem {
	var out []GateProblem
	add := func(code, msg string) { out = append(out, GateProblem{Code: code, Message: msg}) }
	a := in.Asset
	if a.Status != AssetDraft && a.Status != AssetChangesRequested {
		add(GateStatus, "Only a draft, or an asset whose changes were requested, can be submitted; this one is "+string(a.Status)+".")
	}
	if a.ProductID == nil || *a.ProductID == "" {
		add(GateProduct, "Choose the product the asset promotes.")
	}
	if !a.Audience.Valid() {
		add(GateAudience, "Choose the asset's audience.")
	}
	if strings.TrimSpace(a.Market) == "" {
		add(GateMarket, "Choose the asset's market.")
	}
	if a.Type != AssetOther && !CarriesISI(in) {
		add(GateISI, "The version must contain the Important Safety Information of the asset's product (its ISI module or the product's ISI text).")
	}
	if in.OpenChangeRequests > 0 {
		msg := "Mark every change request of the last round done before resubmitting; " + strconv.Itoa(in.OpenChangeRequests) + " are open."
		if in.OpenChangeRequests == 1 {
			msg = "Mark every change request of the last round done before resubmitting; 1 is open."
		}
		add(GateChangeRequests, msg)
	}
	if a.Status == AssetChangesRequested && in.LastRoundVersionID != "" && a.CurrentVersionID != nil && *a.CurrentVersionID == in.LastRoundVersionID {
		add(GateVersion, "Changes were requested on this version: add a new version with the changes before resubmitting.")
	}
	if in.CompliancePending {
		add(GateCompliancePending, "The compliance check of this version is still running; submit when it has finished.")
	}
	switch n := in.OpenCriticalFindings; {
	case n == 1:
		add(GateCriticalFindings, "1 critical compliance finding is open: fix it in a new version or dismiss it with a reason.")
	case n > 1:
		add(GateCriticalFindings, strconv.Itoa(n)+" critical compliance findings are open: fix them in a new version or dismiss them with a reason.")
	}
	return out
}

// CarriesISI reports whether the version of in carries the ISI of the
// asset's product: it marks one of its ISI modules, or its text contains
// one of the ISI texts with case and white space ignored.
func CarriesISI(in GateInput) bool {
	if in.Asset.ProductID == nil {
		return false
	}
	if in.MarksISIModule {
		return true
	}
	text := foldText(in.VersionText)
	for _, isi := range in.ISITexts {
		if f := foldText(isi); f != "" && strings.Contains(text, f) {
			return true
		}
	}
	return false
}

// foldText lowers s and drops its white space, so that a text matches
// whatever its line breaks and spacing (PDF extraction joins and splits
// words freely).
func foldText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if !unicode.IsSpace(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// AddBusinessDays is t moved forward by n business days (Monday to
// Friday, in UTC; public holidays are not known): each weekday passed
// counts one, the time of day is kept. A step activated on Friday at 10:00
// with 1 business day is due on Monday at 10:00; one activated on a
// Saturday with 1 is due on Monday at the same time.
func AddBusinessDays(t time.Time, n int) time.Time {
	t = t.UTC()
	for n > 0 {
		t = t.AddDate(0, 0, 1)
		if wd := t.Weekday(); wd != time.Saturday && wd != time.Sunday {
			n--
		}
	}
	return t
}

// ApprovalExpiry is the expiry date (YYYY-MM-DD, UTC) of an approval
// given at approved and valid for months: the same day of the month that
// many months later, or that month's last day when it is shorter (an
// approval of 31 January for 1 month expires on 28 or 29 February).
func ApprovalExpiry(approved time.Time, months int) string {
	approved = approved.UTC()
	y, m, d := approved.Date()
	first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).AddDate(0, months, 0)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(d, last), 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

// ExpiryReached reports whether an asset expiring on expiresAt
// (YYYY-MM-DD) has expired at now: from the start of that day, UTC. A
// date that does not parse never expires.
func ExpiryReached(expiresAt string, now time.Time) bool {
	d, err := time.Parse(time.DateOnly, expiresAt)
	return err == nil && !now.UTC().Before(d)
}
