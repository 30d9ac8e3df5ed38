package sqlstore

import (
	"context"
	"database/sql"
	"math"
	"slices"
	"strings"
	"time"

	"fairbalance"
)

// The Compliance Intelligence insights: a handful of statements, each
// reading one index range of the organisation (and product) in the period
// and grouping in the database; medians are taken here from the sorted
// durations the database computed. Every time the server writes is UTC,
// so SQLite's stored text compares and buckets as the time it spells.

// decidedStatuses are a step's decisions.
const decidedStatuses = `('approved','approved_with_changes','changes_requested','rejected')`

// ComplianceInsights computes the insights of q.
func (q *querier) ComplianceInsights(ctx context.Context, in fairbalance.InsightsQuery) (*fairbalance.Insights, error) {
	out := &fairbalance.Insights{RoundsPerAsset: []fairbalance.RoundsBucket{}, FindingsByRule: []fairbalance.FindingsMonth{},
		Reasons: fairbalance.Reasons{Decisions: []fairbalance.ReasonCount{}, ByCategory: []fairbalance.ReasonCount{},
			TopRequests: []fairbalance.FrequentText{}, RecentRejected: []fairbalance.RejectionNote{}},
		Workload: []fairbalance.RoleWorkload{}, Overdue: []fairbalance.OverdueStep{}, Expiring: []fairbalance.ExpiryWindow{},
		ExpiringAssets: []fairbalance.ExpiringAsset{}}
	from, to, now := in.From.UTC(), in.To.UTC(), in.Now.UTC()
	for _, step := range []func(context.Context, fairbalance.InsightsQuery, time.Time, time.Time, time.Time, *fairbalance.Insights) error{
		q.insightApprovals, q.insightFindings, q.insightReasons, q.insightWorkload, q.insightOverdue, q.insightExpiring,
	} {
		if err := step(ctx, in, from, to, now, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// product is the product filter on col, and its argument.
func product(in fairbalance.InsightsQuery, col string, args []any) (string, []any) {
	if in.ProductID == "" {
		return "", args
	}
	return " AND " + col + " = ?", append(args, in.ProductID)
}

// hours is the SQL of the hours from a to b.
func (q *querier) hours(a, b string) string {
	if q.d.postgres {
		return "EXTRACT(EPOCH FROM (" + b + " - " + a + ")) / 3600.0"
	}
	return "(julianday(" + b + ") - julianday(" + a + ")) * 24.0"
}

// quantile is the q-quantile of sorted values (linear between ranks); nil
// for none.
func quantile(sorted []float64, p float64) *float64 {
	if len(sorted) == 0 {
		return nil
	}
	pos := p * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	v := sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo))
	v = math.Round(v*10) / 10
	return &v
}

// insightApprovals: the approvals of the period, each with the round that
// began its cycle (the first after the asset's previous approval or
// rejection) — first pass, cycle time and rounds per asset.
func (q *querier) insightApprovals(ctx context.Context, in fairbalance.InsightsQuery, from, to, _ time.Time, out *fairbalance.Insights) error {
	cond, args := product(in, "r.asset_product_id", []any{in.OrgID, from, to})
	start := `COALESCE((SELECT MAX(p.round) FROM reviews p WHERE p.asset_id = r.asset_id AND p.round < r.round AND p.status IN ('approved','rejected')), 0) + 1`
	rows, err := q.query(ctx, `SELECT x.round - x.first + 1, `+q.hours("(SELECT s.submitted_at FROM reviews s WHERE s.asset_id = x.asset_id AND s.round = x.first)", "x.closed_at")+`
FROM (SELECT r.asset_id, r.round, r.closed_at, `+start+` AS first FROM reviews r
  WHERE r.org_id = ? AND r.status = 'approved' AND r.closed_at >= ? AND r.closed_at < ?`+cond+`) x`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	buckets := map[int]int{}
	var durations []float64
	for rows.Next() {
		var n int
		var h sql.NullFloat64
		if err := rows.Scan(&n, &h); err != nil {
			return translate(err)
		}
		out.FirstPass.Approved++
		if n == 1 {
			out.FirstPass.FirstPass++
		}
		buckets[min(n, 4)]++
		if h.Valid {
			durations = append(durations, max(h.Float64, 0))
		}
	}
	if err := rows.Err(); err != nil {
		return translate(err)
	}
	if a := out.FirstPass.Approved; a > 0 {
		r := math.Round(float64(out.FirstPass.FirstPass)/float64(a)*1000) / 1000
		out.FirstPass.Rate = &r
	}
	for n := 1; n <= 4; n++ {
		out.RoundsPerAsset = append(out.RoundsPerAsset, fairbalance.RoundsBucket{Rounds: n, Assets: buckets[n]})
	}
	slices.Sort(durations)
	out.CycleTime = fairbalance.CycleTime{Approved: len(durations), MedianHours: quantile(durations, 0.5), P90Hours: quantile(durations, 0.9)}
	return nil
}

// insightFindings: compliance findings by month and rule. A finding
// carried onto a later version is counted once, where it was first raised.
func (q *querier) insightFindings(ctx context.Context, in fairbalance.InsightsQuery, from, to, _ time.Time, out *fairbalance.Insights) error {
	month := "substr(created_at, 1, 7)"
	if q.d.postgres {
		month = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM')"
	}
	cond, args := product(in, "product_id", []any{in.OrgID, from, to})
	rows, err := q.query(ctx, `SELECT `+month+` AS m, rule, COUNT(*) FROM compliance_findings
WHERE org_id = ? AND created_at >= ? AND created_at < ? AND (first_version_id IS NULL OR first_version_id = version_id)`+cond+`
GROUP BY m, rule ORDER BY m, rule`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var f fairbalance.FindingsMonth
		if err := rows.Scan(&f.Month, &f.Rule, &f.Count); err != nil {
			return translate(err)
		}
		out.FindingsByRule = append(out.FindingsByRule, f)
	}
	return translate(rows.Err())
}

// insightReasons: decisions that stopped a round per role, change
// requests per role and the category of the annotation they point at, the
// most frequent requests, and the latest rejections' comments.
func (q *querier) insightReasons(ctx context.Context, in fairbalance.InsightsQuery, from, to, _ time.Time, out *fairbalance.Insights) error {
	cond, args := product(in, "asset_product_id", []any{in.OrgID, from, to})
	rows, err := q.query(ctx, `SELECT role, status, COUNT(*) FROM review_steps
WHERE org_id = ? AND decided_at >= ? AND decided_at < ? AND status IN ('rejected','changes_requested')`+cond+`
GROUP BY role, status ORDER BY role, status`, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var r fairbalance.ReasonCount
		if err := rows.Scan(&r.Role, &r.Decision, &r.Count); err != nil {
			rows.Close()
			return translate(err)
		}
		out.Reasons.Decisions = append(out.Reasons.Decisions, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err)
	}

	cond, args = product(in, "r.asset_product_id", []any{in.OrgID, from, to})
	join := ""
	if cond != "" {
		join = " JOIN reviews r ON r.id = cr.review_id"
	}
	crFrom := ` FROM change_requests cr` + join + `
WHERE cr.org_id = ? AND cr.created_at >= ? AND cr.created_at < ?` + cond
	rows, err = q.query(ctx, `SELECT cr.role, COALESCE((SELECT a.category FROM annotations a WHERE a.id = cr.annotation_id), 'general') AS cat, COUNT(*)`+
		crFrom+` GROUP BY cr.role, cat ORDER BY cr.role, cat`, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var r fairbalance.ReasonCount
		if err := rows.Scan(&r.Role, &r.Category, &r.Count); err != nil {
			rows.Close()
			return translate(err)
		}
		out.Reasons.ByCategory = append(out.Reasons.ByCategory, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err)
	}

	rows, err = q.query(ctx, `SELECT MIN(cr.text), cr.role, COUNT(*) AS n`+crFrom+`
GROUP BY lower(trim(cr.text)), cr.role ORDER BY n DESC, MIN(cr.text), cr.role LIMIT 10`, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var r fairbalance.FrequentText
		if err := rows.Scan(&r.Text, &r.Role, &r.Count); err != nil {
			rows.Close()
			return translate(err)
		}
		r.Text = strings.Join(strings.Fields(r.Text), " ")
		out.Reasons.TopRequests = append(out.Reasons.TopRequests, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err)
	}

	cond, args = product(in, "s.asset_product_id", []any{in.OrgID, from, to})
	rows, err = q.query(ctx, `SELECT s.role, s.asset_id, a.title, s.comment, s.decided_at FROM review_steps s JOIN assets a ON a.id = s.asset_id
WHERE s.org_id = ? AND s.decided_at >= ? AND s.decided_at < ? AND s.status = 'rejected'`+cond+`
ORDER BY s.decided_at DESC, s.id LIMIT 10`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r fairbalance.RejectionNote
		var at any
		if err := rows.Scan(&r.Role, &r.AssetID, &r.AssetTitle, &r.Comment, &at); err != nil {
			return translate(err)
		}
		if r.DecidedAt, err = timeValue(at); err != nil {
			return err
		}
		out.Reasons.RecentRejected = append(out.Reasons.RecentRejected, r)
	}
	return translate(rows.Err())
}

// insightWorkload: per reviewer role, the steps active now (and overdue
// now), and the steps decided in the period with their turnaround.
func (q *querier) insightWorkload(ctx context.Context, in fairbalance.InsightsQuery, from, to, now time.Time, out *fairbalance.Insights) error {
	roles := map[string]*fairbalance.RoleWorkload{}
	turn := map[string][]float64{}
	for _, r := range fairbalance.ReviewerRoleVocabulary.Values {
		roles[r] = &fairbalance.RoleWorkload{Role: r}
	}
	cond, args := product(in, "asset_product_id", []any{now, in.OrgID})
	rows, err := q.query(ctx, `SELECT role, COUNT(*), COALESCE(SUM(CASE WHEN due_at < ? THEN 1 ELSE 0 END), 0) FROM review_steps
WHERE org_id = ? AND status = 'active'`+cond+` GROUP BY role`, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var role string
		var open, overdue int
		if err := rows.Scan(&role, &open, &overdue); err != nil {
			rows.Close()
			return translate(err)
		}
		if w := roles[role]; w != nil {
			w.OpenSteps, w.OverdueSteps = open, overdue
			out.OverdueTotal += overdue
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err)
	}

	// The median of each role's turnarounds is read from the database
	// sorted, one or two rows each, rather than every decision.
	cond, args = product(in, "asset_product_id", []any{in.OrgID, from, to})
	decided := ` FROM review_steps WHERE org_id = ? AND decided_at >= ? AND decided_at < ? AND status IN ` + decidedStatuses + cond
	rows, err = q.query(ctx, `SELECT role, COUNT(*)`+decided+` GROUP BY role`, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var role string
		var n int
		if err := rows.Scan(&role, &n); err != nil {
			rows.Close()
			return translate(err)
		}
		if w := roles[role]; w != nil {
			w.CompletedSteps = n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err)
	}
	for _, r := range fairbalance.ReviewerRoleVocabulary.Values {
		n := roles[r].CompletedSteps
		if n == 0 {
			continue
		}
		rows, err := q.query(ctx, `SELECT `+q.hours("activated_at", "decided_at")+` AS h`+decided+` AND role = ? AND activated_at IS NOT NULL ORDER BY h LIMIT ? OFFSET ?`,
			append(append([]any{}, args...), r, 2-n%2, (n-1)/2)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var h float64
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return translate(err)
			}
			turn[r] = append(turn[r], max(h, 0))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return translate(err)
		}
	}
	for _, r := range fairbalance.ReviewerRoleVocabulary.Values {
		w := roles[r]
		w.MedianTurnaroundHours = quantile(turn[r], 0.5)
		out.Workload = append(out.Workload, *w)
	}
	return nil
}

// insightOverdue: the most overdue active steps.
func (q *querier) insightOverdue(ctx context.Context, in fairbalance.InsightsQuery, _, _, now time.Time, out *fairbalance.Insights) error {
	cond, args := product(in, "s.asset_product_id", []any{in.OrgID, now})
	rows, err := q.query(ctx, `SELECT s.id, s.review_id, s.asset_id, a.title, s.role, s.claimed_by, s.due_at FROM review_steps s JOIN assets a ON a.id = s.asset_id
WHERE s.org_id = ? AND s.status = 'active' AND s.due_at < ?`+cond+` ORDER BY s.due_at, s.id LIMIT 50`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var o fairbalance.OverdueStep
		var claimed sql.NullString
		var due any
		if err := rows.Scan(&o.StepID, &o.ReviewID, &o.AssetID, &o.AssetTitle, &o.Role, &claimed, &due); err != nil {
			return translate(err)
		}
		if o.DueAt, err = timeValue(due); err != nil {
			return err
		}
		if claimed.Valid {
			o.ClaimedBy = &claimed.String
		}
		o.DaysLate = int(now.Sub(o.DueAt).Hours() / 24)
		out.Overdue = append(out.Overdue, o)
	}
	return translate(rows.Err())
}

// insightExpiring: approved assets expiring within 90 days (expires_at is
// a date, YYYY-MM-DD, which compares as text).
func (q *querier) insightExpiring(ctx context.Context, in fairbalance.InsightsQuery, _, _, now time.Time, out *fairbalance.Insights) error {
	today := now.Format(time.DateOnly)
	cond, args := product(in, "product_id", []any{in.OrgID, today, now.AddDate(0, 0, 90).Format(time.DateOnly)})
	rows, err := q.query(ctx, `SELECT id, title, job_code, expires_at FROM assets
WHERE org_id = ? AND status = 'approved' AND expires_at >= ? AND expires_at <= ?`+cond+` ORDER BY expires_at, id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	counts := [3]int{}
	day, _ := time.Parse(time.DateOnly, today)
	for rows.Next() {
		var a fairbalance.ExpiringAsset
		if err := rows.Scan(&a.AssetID, &a.Title, &a.JobCode, &a.ExpiresAt); err != nil {
			return translate(err)
		}
		a.ExpiresAt = a.ExpiresAt[:min(len(a.ExpiresAt), 10)]
		exp, err := time.Parse(time.DateOnly, a.ExpiresAt)
		if err != nil {
			continue
		}
		a.DaysLeft = int(exp.Sub(day).Hours() / 24)
		for i, w := range []int{30, 60, 90} {
			if a.DaysLeft <= w {
				counts[i]++
			}
		}
		if len(out.ExpiringAssets) < 50 {
			out.ExpiringAssets = append(out.ExpiringAssets, a)
		}
	}
	for i, w := range []int{30, 60, 90} {
		out.Expiring = append(out.Expiring, fairbalance.ExpiryWindow{Days: w, Count: counts[i]})
	}
	return translate(rows.Err())
}
