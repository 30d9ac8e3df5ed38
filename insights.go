package fairbalance

import (
	"context"
	"time"
)

// InsightsQuery is what the Compliance Intelligence insights cover: one
// organisation, optionally one product, the history within [From, To), and
// the present state (open and overdue steps, coming expiries) as of Now.
type InsightsQuery struct {
	OrgID     string
	ProductID string // "" for every product
	From, To  time.Time
	Now       time.Time
}

// Insights are the Compliance Intelligence series (product.md section 5).
// Durations are in hours; a median over nothing is nil.
type Insights struct {
	// FirstPass: rounds that approved an asset within the period, and how
	// many of them were the asset's first round of that review cycle.
	FirstPass FirstPassRate `json:"first_pass"`
	// CycleTime: from the submission of a cycle's first round to the
	// approval, over the approvals of the period.
	CycleTime CycleTime `json:"cycle_time"`
	// RoundsPerAsset: for each approval of the period, how many rounds the
	// cycle took; Rounds 4 means four or more.
	RoundsPerAsset []RoundsBucket `json:"rounds_per_asset"`
	// FindingsByRule: compliance findings raised in the period, per month
	// (UTC, "YYYY-MM") and rule.
	FindingsByRule []FindingsMonth `json:"findings_by_rule"`
	// Reasons: why rounds did not pass — decisions and change requests.
	Reasons Reasons `json:"reasons"`
	// Workload per reviewer role: steps open now, overdue now, decided in
	// the period, and the median time from a step's activation to its
	// decision.
	Workload []RoleWorkload `json:"workload"`
	// Overdue: active steps past their due time now, the most overdue
	// first (at most 50; OverdueTotal counts them all).
	Overdue      []OverdueStep `json:"overdue"`
	OverdueTotal int           `json:"overdue_total"`
	// Expiring: approved assets expiring within 30, 60 and 90 days of Now
	// (each window includes the shorter ones), and the assets themselves
	// (at most 50, soonest first).
	Expiring       []ExpiryWindow  `json:"expiring"`
	ExpiringAssets []ExpiringAsset `json:"expiring_assets"`
}

// FirstPassRate is the first-pass approval rate; Rate is nil without
// approvals.
type FirstPassRate struct {
	Approved  int      `json:"approved"`
	FirstPass int      `json:"first_pass"`
	Rate      *float64 `json:"rate"`
}

// CycleTime is the time from submission to approval.
type CycleTime struct {
	Approved    int      `json:"approved"`
	MedianHours *float64 `json:"median_hours"`
	P90Hours    *float64 `json:"p90_hours"`
}

// RoundsBucket counts the approvals that took Rounds rounds.
type RoundsBucket struct {
	Rounds int `json:"rounds"`
	Assets int `json:"assets"`
}

// FindingsMonth counts the findings of one rule raised in one month.
type FindingsMonth struct {
	Month string `json:"month"`
	Rule  string `json:"rule"`
	Count int    `json:"count"`
}

// Reasons groups why rounds did not pass: decisions (rejected, changes
// requested) per reviewer role, change requests per role and the category
// of the annotation they point at ("general" when none), and the most
// frequent change requests (same text, ignoring case and spacing).
type Reasons struct {
	Decisions      []ReasonCount   `json:"decisions"`
	ByCategory     []ReasonCount   `json:"by_category"`
	TopRequests    []FrequentText  `json:"top_requests"`
	RecentRejected []RejectionNote `json:"recent_rejections"`
}

// ReasonCount is one group of reasons: a role and a decision or category.
type ReasonCount struct {
	Role     string `json:"role"`
	Decision string `json:"decision,omitempty"`
	Category string `json:"category,omitempty"`
	Count    int    `json:"count"`
}

// FrequentText is a change request's text and how often it was raised.
type FrequentText struct {
	Text  string `json:"text"`
	Role  string `json:"role"`
	Count int    `json:"count"`
}

// RejectionNote is a rejection's comment.
type RejectionNote struct {
	Role       string    `json:"role"`
	AssetID    string    `json:"asset_id"`
	AssetTitle string    `json:"asset_title"`
	Comment    string    `json:"comment"`
	DecidedAt  time.Time `json:"decided_at"`
}

// RoleWorkload is one reviewer role's workload and turnaround.
type RoleWorkload struct {
	Role                  string   `json:"role"`
	OpenSteps             int      `json:"open_steps"`
	OverdueSteps          int      `json:"overdue_steps"`
	CompletedSteps        int      `json:"completed_steps"`
	MedianTurnaroundHours *float64 `json:"median_turnaround_hours"`
}

// OverdueStep is an active review step past its due time.
type OverdueStep struct {
	StepID     string    `json:"step_id"`
	ReviewID   string    `json:"review_id"`
	AssetID    string    `json:"asset_id"`
	AssetTitle string    `json:"asset_title"`
	Role       string    `json:"role"`
	ClaimedBy  *string   `json:"claimed_by"`
	DueAt      time.Time `json:"due_at"`
	DaysLate   int       `json:"days_overdue"`
}

// ExpiryWindow counts the approved assets expiring within Days days.
type ExpiryWindow struct {
	Days  int `json:"days"`
	Count int `json:"count"`
}

// ExpiringAsset is an approved asset that expires soon.
type ExpiringAsset struct {
	AssetID   string `json:"asset_id"`
	Title     string `json:"title"`
	JobCode   string `json:"job_code"`
	ExpiresAt string `json:"expires_at"`
	DaysLeft  int    `json:"days_left"`
}

// InsightsStore computes the insights.
type InsightsStore interface {
	// ComplianceInsights computes every series of q in the database.
	ComplianceInsights(ctx context.Context, q InsightsQuery) (*Insights, error)
}
