package service

import (
	"context"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// compliance_insights(product_id?, from?, to?) is the Compliance
// Intelligence screen's data, one JSON of every series (fairbalance.Insights):
// first-pass approval rate, cycle time from submission to approval, rounds
// per approval, findings by rule per month, the reasons rounds did not
// pass, reviewer workload and turnaround by role, overdue steps and assets
// expiring in 30/60/90 days. Any member of the organisation may read it.
// from and to are dates (YYYY-MM-DD, UTC, both included); without them the
// period is the last twelve months: from the first day of the month eleven
// months ago to today. product_id narrows everything to one product of the
// caller's organisation (another's is not found). The history series
// cover the period; open steps, overdue steps and expiries are as of now.

// maxInsightsDays bounds the period (five years), so that one call never
// walks an organisation's whole history twice over.
const maxInsightsDays = 5*366 + 1

// InsightsResult is what compliance_insights returns: the period it
// covers (dates, both included) and the series.
type InsightsResult struct {
	ProductID *string `json:"product_id"`
	From      string  `json:"from"`
	To        string  `json:"to"`
	AsOf      string  `json:"as_of"`
	*fairbalance.Insights
}

func (r *Registry) insightsFunctions() []*FunctionSpec {
	return []*FunctionSpec{{Name: "compliance_insights", ReadOnly: true, Args: []string{"product_id", "from", "to"},
		Optional: []string{"product_id", "from", "to"}, Call: r.complianceInsights}}
}

// insightsPeriod checks from and to, and gives the defaults.
func insightsPeriod(args map[string]any, now time.Time) (from, to time.Time, err error) {
	var v inputCheck
	today := now.UTC().Truncate(24 * time.Hour)
	to = today
	from = time.Date(today.Year(), today.Month()-11, 1, 0, 0, 0, 0, time.UTC)
	parse := func(field string, dst *time.Time) {
		s := strings.TrimSpace(argString(args, field))
		if s == "" {
			return
		}
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			v.raise(field, "The date is YYYY-MM-DD.")
			return
		}
		*dst = d
	}
	parse("from", &from)
	parse("to", &to)
	if v.fields == nil {
		switch {
		case from.After(to):
			v.raise("from", "The period starts on or before its last day.")
		case to.Sub(from) > maxInsightsDays*24*time.Hour:
			v.raise("from", "The period is at most five years.")
		}
	}
	return from, to, v.err()
}

func (r *Registry) complianceInsights(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if !c.InOrg() {
		return nil, denied(c, "Only members of an organisation read its insights.")
	}
	now := r.Reviews.now()
	from, to, err := insightsPeriod(args, now)
	if err != nil {
		return nil, err
	}
	q := fairbalance.InsightsQuery{OrgID: c.OrgID, From: from, To: to.AddDate(0, 0, 1), Now: now}
	res := &InsightsResult{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), AsOf: now.Format(time.RFC3339)}
	if id := strings.TrimSpace(argString(args, "product_id")); id != "" {
		if !auth.IsUUID(id) {
			return nil, onField(notFound("product"), "product_id")
		}
		p, _, err := rowOf[map[string]any](ctx, tx, c, ProductsTable(), id)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, onField(notFound("product"), "product_id")
		}
		q.ProductID = strings.ToLower(id)
		res.ProductID = &q.ProductID
	}
	if res.Insights, err = tx.ComplianceInsights(ctx, q); err != nil {
		return nil, err
	}
	return res, nil
}
