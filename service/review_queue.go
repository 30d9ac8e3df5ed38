package service

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"fairbalance"
)

// review_queue is the Review Center's listing, one keyset page at a time:
//
//	review_queue(tab?, product_id?, type?, role?, status?, after?, limit?)
//	  → {tab, items, next, counts: {mine, open, submitted}}
//
// Tabs: "mine" (default) — the active steps claimed by the caller, or
// unclaimed and of the caller's role; "open" — the organisation's open
// rounds; "submitted" — the rounds the caller submitted, whatever their
// status. Items come overdue first, then by due time (which is the same
// order: ascending due time), then by id; closed rounds, without a due
// time, last. A "mine" item is a step with its "asset" and "review"; the
// other tabs' items are rounds with their "asset" and "steps". Each item
// has "overdue". Filters: product_id, type (the asset's), role (the step's;
// for rounds, an active step of that role), status ("overdue"; for "mine"
// also "claimed" or "unclaimed"; for rounds a review status). next is the
// cursor of the following page (null on the last), passed back as after.
// Counts are per tab, with the same filters, on the first page (null on
// the next ones: a page's cost stays the page's).

// Queue tabs.
const (
	QueueMine      = "mine"
	QueueOpen      = "open"
	QueueSubmitted = "submitted"
)

// queueCursor is where a page ends: the last item's due time and id.
type queueCursor struct {
	Due *time.Time `json:"d"`
	ID  string     `json:"i"`
}

func (q queueCursor) encode() string {
	b, _ := json.Marshal(q)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeQueueCursor(s string) (*queueCursor, bool) {
	if s == "" {
		return nil, true
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	var c queueCursor
	if json.Unmarshal(b, &c) != nil || c.ID == "" {
		return nil, false
	}
	return &c, true
}

// after is the keyset condition: items past the cursor in (due_at nulls
// last, id) order.
func (q *queueCursor) after() *fairbalance.Cond {
	if q == nil {
		return nil
	}
	isNull := &fairbalance.Cond{Column: "due_at", Operator: "is"}
	idAfter := &fairbalance.Cond{Column: "id", Operator: "gt", Value: q.ID}
	if q.Due == nil {
		return and(isNull, idAfter)
	}
	d := q.Due.UTC()
	return &fairbalance.Cond{Logic: "or", Children: []*fairbalance.Cond{
		{Column: "due_at", Operator: "gt", Value: d},
		and(condEq("due_at", d), idAfter),
		isNull,
	}}
}

// queueInput is review_queue's arguments, checked.
type queueInput struct {
	tab, productID, typ, role, status string
	after                             *queueCursor
	limit                             int
}

func decodeQueue(args map[string]any) (queueInput, error) {
	in := queueInput{tab: argString(args, "tab"), productID: strings.ToLower(argString(args, "product_id")), typ: argString(args, "type"),
		role: argString(args, "role"), status: argString(args, "status"), limit: 25}
	var v inputCheck
	if in.tab == "" {
		in.tab = QueueMine
	}
	if !slices.Contains([]string{QueueMine, QueueOpen, QueueSubmitted}, in.tab) {
		v.raise("tab", "The tab is mine, open or submitted.")
	}
	if in.typ != "" && !fairbalance.AssetType(in.typ).Valid() {
		v.raise("type", fairbalance.AssetTypeVocabulary.Refusal("The type"))
	}
	if in.role != "" && !fairbalance.ReviewerRole(in.role).Valid() {
		v.raise("role", fairbalance.ReviewerRoleVocabulary.Refusal("The role"))
	}
	if in.status != "" && in.status != "overdue" {
		ok := (in.tab == QueueMine && (in.status == "claimed" || in.status == "unclaimed")) || (in.tab != QueueMine && fairbalance.ReviewStatus(in.status).Valid())
		if !ok {
			v.raise("status", "The status is overdue, claimed or unclaimed (my queue), or a round's status (open, approved, changes_requested, rejected, withdrawn).")
		}
	}
	if raw, ok := args["limit"]; ok && raw != nil {
		n, ok := argInt(args, "limit")
		if !ok || n < 1 || n > 100 {
			v.raise("limit", "The limit is 1 to 100.")
		}
		in.limit = int(n)
	}
	var ok bool
	if in.after, ok = decodeQueueCursor(argString(args, "after")); !ok {
		v.raise("after", "The cursor is not one review_queue gave.")
	}
	return in, v.err()
}

func colsOf(t *TableSpec, names ...string) []fairbalance.SelectColumn {
	var out []fairbalance.SelectColumn
	for _, c := range allColumns(t) {
		if slices.Contains(names, c.Alias) {
			out = append(out, c)
		}
	}
	return out
}

var (
	queueAssetCols  = []string{"id", "title", "job_code", "type", "product_id", "status", "owner_id", "current_version_number"}
	queueReviewCols = []string{"id", "round", "status", "version_id", "template_name", "submitted_by", "submitted_at", "due_at", "closed_at"}
	queueStepCols   = []string{"id", "review_id", "asset_id", "role", "required", "step_order", "status", "activated_at", "due_at", "claimed_by", "claimed_at", "decided_by", "decided_at"}
)

// assetEmbed is an item's asset.
func assetEmbed() fairbalance.Embed {
	return fairbalance.Embed{Name: "asset", Table: "assets", Columns: colsOf(AssetsTable(), queueAssetCols...), LocalColumn: "asset_id", ForeignColumn: "id"}
}

// assetFilter is the product and type filter. Rounds and steps carry
// their asset's type and product (asset_type, asset_product_id: copies
// the database keeps equal to the asset's, migration 0022), so that a
// count with a filter reads the queue index alone rather than every
// round's asset.
func (in queueInput) assetFilter() *fairbalance.Cond {
	var conds []*fairbalance.Cond
	if in.productID != "" {
		conds = append(conds, condEq("asset_product_id", in.productID))
	}
	if in.typ != "" {
		conds = append(conds, condEq("asset_type", in.typ))
	}
	if len(conds) == 0 {
		return nil
	}
	return and(conds...)
}

// queuePlans are the reads of a tab for the caller; "mine" has two, whose
// pages are merged: steps claimed by the caller and unclaimed steps of the
// caller's role (each follows an index in due time order).
func (in queueInput) plans(c fairbalance.Caller, tab string, now time.Time) []*fairbalance.ReadPlan {
	org := condEq("org_id", c.OrgID)
	var overdue *fairbalance.Cond
	if in.status == "overdue" {
		overdue = &fairbalance.Cond{Column: "due_at", Operator: "lt", Value: now}
	}
	order := []fairbalance.OrderTerm{{Column: "due_at"}, {Column: "id"}}
	if tab == QueueMine {
		base := and(org, condEq("status", string(fairbalance.StepActive)), overdue, in.assetFilter())
		if in.role != "" {
			base = and(base, condEq("role", in.role))
		}
		embeds := []fairbalance.Embed{assetEmbed(),
			{Name: "review", Table: "reviews", Columns: colsOf(ReviewsTable(), queueReviewCols...), LocalColumn: "review_id", ForeignColumn: "id"}}
		var wheres []*fairbalance.Cond
		if in.status != "unclaimed" {
			wheres = append(wheres, and(base, condEq("claimed_by", c.UserID)))
		}
		if in.status != "claimed" && fairbalance.ReviewerRole(c.Member).Valid() && (in.role == "" || in.role == c.Member) {
			wheres = append(wheres, and(base, condEq("role", c.Member), &fairbalance.Cond{Column: "claimed_by", Operator: "is"}))
		}
		var out []*fairbalance.ReadPlan
		for _, w := range wheres {
			out = append(out, &fairbalance.ReadPlan{Table: "review_steps", Columns: colsOf(ReviewStepsTable(), queueStepCols...), Embeds: embeds, Where: w, Order: order})
		}
		return out
	}
	where := and(org, overdue, in.assetFilter())
	if tab == QueueOpen {
		where = and(where, condEq("status", string(fairbalance.ReviewOpen)))
	} else {
		where = and(where, condEq("submitted_by", c.UserID))
		// Closed rounds have no due time: they come last.
		last := false
		order = []fairbalance.OrderTerm{{Column: "due_at", NullsFirst: &last}, {Column: "id"}}
	}
	if in.status != "" && in.status != "overdue" {
		where = and(where, condEq("status", in.status))
	}
	embeds := []fairbalance.Embed{assetEmbed(),
		{Name: "steps", Table: "review_steps", Columns: colsOf(ReviewStepsTable(), queueStepCols...), LocalColumn: "id", ForeignColumn: "review_id", Many: true}}
	if in.role != "" {
		embeds = append(embeds, fairbalance.Embed{Name: "_role", Table: "review_steps", Columns: colsOf(ReviewStepsTable(), "id"), LocalColumn: "id", ForeignColumn: "review_id",
			Many: true, Inner: true, Where: and(condEq("role", in.role), condEq("status", string(fairbalance.StepActive)))})
	}
	return []*fairbalance.ReadPlan{{Table: "reviews", Columns: colsOf(ReviewsTable(), queueReviewCols...), Embeds: embeds, Where: where, Order: order}}
}

func (rv *Reviews) reviewQueue(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if c.Anon() {
		return nil, denied(c, "permission denied for function review_queue")
	}
	in, err := decodeQueue(args)
	if err != nil {
		return nil, err
	}
	empty := map[string]any{"tab": in.tab, "items": []any{}, "next": nil, "counts": map[string]int64{QueueMine: 0, QueueOpen: 0, QueueSubmitted: 0}}
	if !c.InOrg() {
		return empty, nil
	}
	now := rv.now()
	type item struct {
		due *time.Time
		id  string
		row map[string]any
	}
	var items []item
	for _, p := range in.plans(c, in.tab, now) {
		p.Where = and(p.Where, in.after.after())
		p.Limit = in.limit + 1
		raw, _, err := tx.Read(ctx, p)
		if err != nil {
			return nil, err
		}
		var rows []map[string]any
		if err := json.Unmarshal(raw, &rows); err != nil {
			return nil, err
		}
		for _, r := range rows {
			it := item{id: str(r, "id"), row: r}
			if s, ok := r["due_at"].(string); ok {
				if d, err := time.Parse(time.RFC3339Nano, s); err == nil {
					it.due = &d
				}
			}
			delete(r, "_role")
			r["overdue"] = it.due != nil && it.due.Before(now) && (in.tab == QueueMine || str(r, "status") == string(fairbalance.ReviewOpen))
			items = append(items, it)
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		switch {
		case a.due == nil && b.due != nil:
			return 1
		case a.due != nil && b.due == nil:
			return -1
		case a.due != nil && !a.due.Equal(*b.due):
			return a.due.Compare(*b.due)
		}
		return strings.Compare(a.id, b.id)
	})
	var next any
	if len(items) > in.limit {
		items = items[:in.limit]
		last := items[len(items)-1]
		next = queueCursor{Due: last.due, ID: last.id}.encode()
	}
	rows := make([]map[string]any, len(items))
	for i, it := range items {
		rows[i] = it.row
	}
	if in.after != nil {
		// Counts come with the first page; the next pages keep them.
		empty["items"], empty["next"], empty["counts"] = rows, next, nil
		return empty, nil
	}
	// The three tabs' counts in one statement: a filter on the asset makes
	// each count visit every open round or active step of its tab, and
	// under load every round trip waits for the database's turn as well.
	var countPlans []*fairbalance.ReadPlan
	var countTab []string
	for _, tab := range []string{QueueMine, QueueOpen, QueueSubmitted} {
		for _, p := range in.plans(c, tab, now) {
			var embeds []fairbalance.Embed
			for _, e := range p.Embeds {
				if e.Inner {
					embeds = append(embeds, e)
				}
			}
			countPlans = append(countPlans, &fairbalance.ReadPlan{Table: p.Table, Where: p.Where, Embeds: embeds})
			countTab = append(countTab, tab)
		}
	}
	ns, err := tx.Count(ctx, countPlans)
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{QueueMine: 0, QueueOpen: 0, QueueSubmitted: 0}
	for i, n := range ns {
		counts[countTab[i]] += n
	}
	empty["items"], empty["next"], empty["counts"] = rows, next, counts
	return empty, nil
}
