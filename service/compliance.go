package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/compliance"
)

// Compliance checks (issue 17), served at /rest/v1/rpc:
//
//	check_text(text, product_id?, asset_type?, audience?, channel?, market?, as_of?)
//	version_findings(version_id)
//	dismiss_finding(finding_id, reason)    reopen_finding(finding_id)
//	save_compliance_rule(id?, code, title, kind, phrases?, pattern?, severity, message, guidance?, scope?, enabled?)
//	set_builtin_rule(code, enabled, severity?)    compliance_rule_list()
//	save_guideline(id?, title, source, body)      delete_guideline(id)
//
// Every new version is checked (versionAdded, in add_asset_version's and
// create_asset's transaction): in that transaction when its text is
// small, by a background job (CheckVersion) for a PDF of more than
// fairbalance.LargePDFPages pages, the version being pending until then.
// The previous version's open and dismissed findings are carried onto the
// new one when their (rule, quote) is found again and closed as fixed
// otherwise.

// Compliance holds the compliance functions and the compiled rule set of
// each organisation.
type Compliance struct {
	rv *Reviews

	mu      sync.Mutex
	engines map[string]cachedEngine // by organisation
}

// cachedEngine is an organisation's compiled rule set and the revision of
// its rules it was compiled from.
type cachedEngine struct {
	rev    string
	engine *compliance.Engine
}

func newCompliance(rv *Reviews) *Compliance {
	return &Compliance{rv: rv, engines: map[string]cachedEngine{}}
}

// Functions are the compliance functions.
func (cp *Compliance) Functions() []*FunctionSpec {
	return []*FunctionSpec{
		{Name: "check_text", ReadOnly: true, Args: []string{"text", "product_id", "asset_type", "audience", "channel", "market", "as_of"},
			Optional: []string{"product_id", "asset_type", "audience", "channel", "market", "as_of"}, Call: cp.checkText},
		{Name: "version_findings", ReadOnly: true, Args: []string{"version_id"}, Call: cp.versionFindings},
		{Name: "dismiss_finding", Args: []string{"finding_id", "reason"}, Call: cp.dismissFinding},
		{Name: "reopen_finding", Args: []string{"finding_id"}, Call: cp.reopenFinding},
		{Name: "save_compliance_rule", Args: []string{"id", "code", "title", "kind", "phrases", "pattern", "severity", "message", "guidance", "scope", "enabled"},
			Optional: []string{"id", "phrases", "pattern", "guidance", "scope", "enabled"},
			ArgTypes: map[string]fairbalance.ColumnType{"phrases": fairbalance.TypeJSON, "scope": fairbalance.TypeJSON, "enabled": fairbalance.TypeBoolean},
			Call:     cp.saveRule},
		{Name: "set_builtin_rule", Args: []string{"code", "enabled", "severity"}, Optional: []string{"severity"},
			ArgTypes: map[string]fairbalance.ColumnType{"enabled": fairbalance.TypeBoolean}, Call: cp.setBuiltinRule},
		{Name: "compliance_rule_list", ReadOnly: true, Call: cp.ruleList},
		{Name: "save_guideline", Args: []string{"id", "title", "source", "body"}, Optional: []string{"id"}, Call: cp.saveGuideline},
		{Name: "delete_guideline", Args: []string{"id"}, Call: cp.deleteGuideline},
	}
}

// builtinCodes are the codes of the built-in rules; an organisation rule
// may not take one.
var builtinCodes = []string{compliance.RuleSuperlative, compliance.RuleComparative, compliance.RuleUnsubstantiated,
	compliance.RuleFairBalance, compliance.RuleEstablishedName, compliance.RuleOffLabel, compliance.RuleNewClaim,
	compliance.RuleExpiredModule, compliance.RulePIReference, compliance.RuleChannelLength, compliance.RuleReadability}

// ---- the rule set

// engine is the compiled rule set of organisation orgID, compiled again
// only when its rules changed since (the revision: each rule's id,
// version and switch, and the built-in settings).
func (cp *Compliance) engine(ctx context.Context, tx fairbalance.Tx, orgID string) (*compliance.Engine, error) {
	settings, _, err := rowsOf[fairbalance.RuleSetting](ctx, tx, ComplianceRuleSettingsTable(), condEq("org_id", orgID), fairbalance.OrderTerm{Column: "code"})
	if err != nil {
		return nil, err
	}
	light, err := readDBRows(ctx, tx, "compliance_rules", condEq("org_id", orgID), 0,
		selCol("id", fairbalance.TypeText), selCol("version", fairbalance.TypeInteger), selCol("enabled", fairbalance.TypeBoolean))
	if err != nil {
		return nil, err
	}
	slices.SortFunc(light, func(a, b map[string]any) int { return strings.Compare(str(a, "id"), str(b, "id")) })
	sum := sha256.Sum256(append(mustRaw(settings), mustRaw(light)...))
	rev := hex.EncodeToString(sum[:])
	cp.mu.Lock()
	cached, ok := cp.engines[orgID]
	cp.mu.Unlock()
	if ok && cached.rev == rev {
		return cached.engine, nil
	}
	cfg := compliance.Config{Disabled: map[string]bool{}, Severities: map[string]compliance.Severity{}}
	for _, s := range settings {
		if !s.Enabled {
			cfg.Disabled[s.Code] = true
		}
		if s.Severity != nil {
			cfg.Severities[s.Code] = compliance.Severity(*s.Severity)
		}
	}
	rules, _, err := rowsOf[fairbalance.ComplianceRule](ctx, tx, ComplianceRulesTable(), and(condEq("org_id", orgID), condEq("enabled", true)),
		fairbalance.OrderTerm{Column: "code"})
	if err != nil {
		return nil, err
	}
	for _, r := range rules {
		cfg.Rules = append(cfg.Rules, engineRule(&r))
	}
	e, err := compliance.Compile(cfg)
	if err != nil {
		// Every rule was compiled when it was saved; a rule set that no
		// longer compiles (a newer engine refusing an old rule) is a
		// server fault, not the caller's.
		return nil, fmt.Errorf("compliance: rules of %s: %w", orgID, err)
	}
	cp.mu.Lock()
	cp.engines[orgID] = cachedEngine{rev: rev, engine: e}
	cp.mu.Unlock()
	return e, nil
}

// forget drops the compiled rule set of orgID (its rules changed).
func (cp *Compliance) forget(orgID string) {
	cp.mu.Lock()
	delete(cp.engines, orgID)
	cp.mu.Unlock()
}

func engineRule(r *fairbalance.ComplianceRule) compliance.Rule {
	return compliance.Rule{Code: r.Code, Version: r.Version, Kind: string(r.Kind), Phrases: r.Phrases, Pattern: r.Pattern,
		Severity: compliance.Severity(r.Severity), Message: r.Message, Guidance: r.Guidance,
		Scope: compliance.Scope{AssetTypes: r.Scope.AssetTypes, Audiences: r.Scope.Audiences, Channels: r.Scope.Channels, Markets: r.Scope.Markets}}
}

// ---- what a check looks at

// subject is what the engine is given: the document and its context.
type subject struct {
	doc compliance.Document
	ctx compliance.Context
}

// newSubject builds the document of text (pages at its form feeds) and
// its context: the product productID of organisation orgID (none when
// empty), the asset's values and the date.
func newSubject(ctx context.Context, tx fairbalance.Tx, orgID, text, productID, assetType, audience, channel, market string, asOf time.Time) (*subject, error) {
	s := &subject{doc: compliance.Document{Text: text, Pages: pageSpans(text)},
		ctx: compliance.Context{AssetType: assetType, Audience: audience, Channel: channel, Market: market, AsOf: asOf}}
	if productID == "" {
		return s, nil
	}
	rows, err := readDBRows(ctx, tx, "products", and(condEq("id", productID), condEq("org_id", orgID)), 1,
		selCol("brand_name", fairbalance.TypeText), selCol("established_name", fairbalance.TypeText), selCol("indications", fairbalance.TypeText),
		selCol("isi_text", fairbalance.TypeText), selCol("pi_reference", fairbalance.TypeText), selCol("launch_date", fairbalance.TypeText))
	if err != nil || len(rows) == 0 {
		return s, err
	}
	p := rows[0]
	s.ctx.Product = &compliance.Product{BrandName: str(p, "brand_name"), EstablishedName: str(p, "established_name"),
		Indications: str(p, "indications"), ISIText: str(p, "isi_text"), PIReference: str(p, "pi_reference")}
	if d, err := time.Parse("2006-01-02", str(p, "launch_date")); err == nil {
		s.ctx.Product.LaunchDate = d
	}
	// The product's approved claims that have references substantiate the
	// statements they make wherever the text quotes them.
	claims, err := readDBRows(ctx, tx, "claims", and(condEq("org_id", orgID), condEq("product_id", productID), condEq("status", string(fairbalance.ClaimApproved))), 0,
		selCol("id", fairbalance.TypeText), selCol("text", fairbalance.TypeText), selCol("variants", fairbalance.TypeJSON))
	if err != nil || len(claims) == 0 {
		return s, err
	}
	ids := make([]any, len(claims))
	for i, c := range claims {
		ids[i] = str(c, "id")
	}
	refs, err := readDBRows(ctx, tx, "claim_references", condIn("claim_id", ids), 0, selCol("claim_id", fairbalance.TypeText))
	if err != nil {
		return s, err
	}
	referenced := map[string]bool{}
	for _, r := range refs {
		referenced[str(r, "claim_id")] = true
	}
	for _, c := range claims {
		if !referenced[str(c, "id")] {
			continue
		}
		texts := []string{str(c, "text")}
		var variants []string
		if raw, err := json.Marshal(c["variants"]); err == nil {
			_ = json.Unmarshal(raw, &variants)
		}
		for _, t := range append(texts, variants...) {
			s.ctx.LinkedClaims = append(s.ctx.LinkedClaims, spansOf(text, t)...)
		}
	}
	return s, nil
}

// addModules adds the modules and claims that version versionID inserted,
// where their text sits, with their expiry.
func (s *subject) addModules(ctx context.Context, tx fairbalance.Tx, versionID string) error {
	marks, err := readDBRows(ctx, tx, "version_modules", condEq("version_id", versionID), 0, selCol("module_id", fairbalance.TypeText))
	if err != nil || len(marks) == 0 {
		return err
	}
	ids := make([]any, len(marks))
	for i, m := range marks {
		ids[i] = str(m, "module_id")
	}
	mods, err := readDBRows(ctx, tx, "modules", condIn("id", ids), 0, selCol("id", fairbalance.TypeText), selCol("kind", fairbalance.TypeText),
		selCol("title", fairbalance.TypeText), selCol("body", fairbalance.TypeText), selCol("status", fairbalance.TypeText),
		selCol("expires_at", fairbalance.TypeText), selCol("claim_id", fairbalance.TypeText))
	if err != nil {
		return err
	}
	var claimIDs []any
	for _, m := range mods {
		if id := str(m, "claim_id"); id != "" {
			claimIDs = append(claimIDs, id)
		}
	}
	claims := map[string]map[string]any{}
	if len(claimIDs) > 0 {
		rows, err := readDBRows(ctx, tx, "claims", condIn("id", claimIDs), 0, selCol("id", fairbalance.TypeText),
			selCol("status", fairbalance.TypeText), selCol("expires_at", fairbalance.TypeText))
		if err != nil {
			return err
		}
		for _, r := range rows {
			claims[str(r, "id")] = r
		}
	}
	for _, m := range mods {
		ms := compliance.ModuleSpan{Kind: "module", ID: str(m, "id"), Title: str(m, "title"),
			Expired: str(m, "status") == string(fairbalance.ModuleRetired), ISI: str(m, "kind") == string(fairbalance.ModuleISI)}
		expiry := str(m, "expires_at")
		if c, ok := claims[str(m, "claim_id")]; ok {
			ms.Kind = "claim"
			if str(c, "status") == string(fairbalance.ClaimExpired) || str(c, "status") == string(fairbalance.ClaimWithdrawn) {
				ms.Expired = true
			}
			if e := str(c, "expires_at"); e != "" && (expiry == "" || e < expiry) {
				expiry = e
			}
		}
		if d, err := time.Parse("2006-01-02", expiry); err == nil {
			ms.ExpiresOn = d
		}
		for _, sp := range spansOf(s.doc.Text, strings.TrimSpace(plainOf(str(m, "body")))) {
			ms.Span = sp
			s.doc.Modules = append(s.doc.Modules, ms)
		}
	}
	return nil
}

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// plainOf is a module body's text: bodies may be stored as HTML.
func plainOf(body string) string {
	if !strings.Contains(body, "<") {
		return body
	}
	return strings.Join(strings.Fields(tagPattern.ReplaceAllString(body, " ")), " ")
}

// pageSpans are the pages of text, split at its form feeds, in code
// points; none for text without form feeds (it has no pages).
func pageSpans(text string) []compliance.Span {
	if !strings.Contains(text, "\f") {
		return nil
	}
	var out []compliance.Span
	start, pos := 0, 0
	for _, r := range text {
		if r == '\f' {
			out = append(out, compliance.Span{Start: start, End: pos})
			start = pos + 1
		}
		pos++
	}
	return append(out, compliance.Span{Start: start, End: pos})
}

// spansOf finds every occurrence of sub in text, in code points.
func spansOf(text, sub string) []compliance.Span {
	if strings.TrimSpace(sub) == "" {
		return nil
	}
	var out []compliance.Span
	n := utf8.RuneCountInString(sub)
	runes, at := 0, 0
	for {
		i := strings.Index(text[at:], sub)
		if i < 0 {
			return out
		}
		runes += utf8.RuneCountInString(text[at : at+i])
		out = append(out, compliance.Span{Start: runes, End: runes + n})
		runes += n
		at += i + len(sub)
	}
}

// ---- check_text

// checkText checks text against the caller's organisation's rules and
// saves nothing.
func (cp *Compliance) checkText(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if !c.InOrg() || c.UserID == "" && !c.Service() {
		return nil, denied(c, "permission denied for function check_text")
	}
	var in inputCheck
	// The text as sent: offsets count its code points, so it is not trimmed.
	text, ok := args["text"].(string)
	switch {
	case !ok:
		in.check("text", "The text is required.")
	case len(text) > fairbalance.MaxCheckText:
		in.check("text", "The text is longer than 1 MB.")
	case !utf8.ValidString(text):
		in.check("text", "The text is not valid UTF-8.")
	}
	assetType, audience := argString(args, "asset_type"), argString(args, "audience")
	if assetType != "" && !fairbalance.AssetType(assetType).Valid() {
		in.check("asset_type", fairbalance.AssetTypeVocabulary.Refusal("The asset type"))
	}
	if audience != "" && !fairbalance.Audience(audience).Valid() {
		in.check("audience", fairbalance.AudienceVocabulary.Refusal("The audience"))
	}
	asOf := cp.rv.now()
	asOf = time.Date(asOf.Year(), asOf.Month(), asOf.Day(), 0, 0, 0, 0, time.UTC)
	if s := argString(args, "as_of"); s != "" {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			in.check("as_of", "as_of must be a date written YYYY-MM-DD.")
		}
		asOf = d
	}
	productID := strings.ToLower(argString(args, "product_id"))
	if productID != "" {
		p, err := orgRow(ctx, tx, c, ProductsTable(), productID)
		if err != nil {
			return nil, err
		}
		if p == nil {
			in.check("product_id", "No such product in your organisation.")
		}
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	e, err := cp.engine(ctx, tx, c.OrgID)
	if err != nil {
		return nil, err
	}
	s, err := newSubject(ctx, tx, c.OrgID, text, productID, assetType, audience, argString(args, "channel"), argString(args, "market"), asOf)
	if err != nil {
		return nil, err
	}
	findings := e.Check(s.doc, s.ctx)
	if findings == nil {
		findings = []compliance.Finding{}
	}
	return map[string]any{"findings": findings}, nil
}

// ---- checking versions

// versionAdded checks version v, just added to its asset in the caller's
// transaction (prevID: the version before it, "" for the first): now,
// or, for a large PDF, by a job enqueued with the version.
func (cp *Compliance) versionAdded(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, prevID string, v map[string]any) error {
	id := str(v, "id")
	var pages int64
	switch n := v["page_count"].(type) {
	case json.Number:
		pages, _ = n.Int64()
	case float64:
		pages = int64(n)
	case int64:
		pages = n
	}
	row := map[string]any{"version_id": id, "org_id": str(v, "org_id"), "asset_id": str(v, "asset_id"), "prev_version_id": nil,
		"created_by": c.UserID, "created_at": cp.rv.now(), "checked_at": nil, "findings": 0}
	if prevID != "" {
		row["prev_version_id"] = prevID
	}
	if _, err := insertRow(ctx, tx, ComplianceChecksTable(), row); err != nil {
		return err
	}
	if str(v, "mimetype") == "application/pdf" && pages > fairbalance.LargePDFPages {
		return tx.EnqueueComplianceCheck(ctx, id)
	}
	_, err := cp.runCheck(ctx, tx, id, c.UserID)
	return err
}

// CheckVersion runs the pending check of version id (nothing when it
// already ran or there is none), in a transaction of its own: the
// background job of a large PDF.
func (cp *Compliance) CheckVersion(ctx context.Context, id string) error {
	return cp.rv.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		_, err := cp.runCheck(ctx, tx, id, SystemActor)
		return err
	})
}

// CheckPending runs up to limit pending checks, oldest first: those whose
// job was lost. It returns how many it ran.
func (cp *Compliance) CheckPending(ctx context.Context, limit int) (int, error) {
	raw, _, err := cp.rv.reg.store.View().Read(ctx, &fairbalance.ReadPlan{Table: "compliance_checks",
		Columns: []fairbalance.SelectColumn{selCol("version_id", fairbalance.TypeText)},
		Where:   &fairbalance.Cond{Column: "checked_at", Operator: "is"}, Order: []fairbalance.OrderTerm{{Column: "created_at"}}, Limit: limit})
	if err != nil {
		return 0, err
	}
	var rows []map[string]any
	if err := json.Unmarshal(raw, &rows); err != nil {
		return 0, err
	}
	for i, r := range rows {
		if err := cp.CheckVersion(ctx, str(r, "version_id")); err != nil {
			return i, err
		}
	}
	return len(rows), nil
}

// runCheck checks version id if its check is pending: stores its
// findings, carrying the previous version's, marks the check done and
// records it. actor is who added the version (SystemActor for a job).
// It returns how many findings the version has.
func (cp *Compliance) runCheck(ctx context.Context, tx fairbalance.Tx, id, actor string) (int, error) {
	sys := fairbalance.Caller{Role: "service_role"}
	checks, err := readDBRows(ctx, tx, "compliance_checks", and(condEq("version_id", id), &fairbalance.Cond{Column: "checked_at", Operator: "is"}), 1,
		selCol("prev_version_id", fairbalance.TypeText))
	if err != nil || len(checks) == 0 {
		return 0, err
	}
	prevID := str(checks[0], "prev_version_id")
	v, err := readVersion(ctx, tx, sys, id)
	if err != nil || v == nil {
		return 0, err
	}
	a, _, err := rowOf[fairbalance.Asset](ctx, tx, sys, AssetsTable(), v.AssetID)
	if err != nil || a == nil {
		return 0, err
	}
	text := string(v.Text)
	product := ""
	if a.ProductID != nil {
		product = *a.ProductID
	}
	now := cp.rv.now()
	s, err := newSubject(ctx, tx, a.OrgID, text, product, string(a.Type), string(a.Audience), a.Channel, a.Market,
		time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC))
	if err != nil {
		return 0, err
	}
	if err := s.addModules(ctx, tx, id); err != nil {
		return 0, err
	}
	e, err := cp.engine(ctx, tx, a.OrgID)
	if err != nil {
		return 0, err
	}
	found := e.Check(s.doc, s.ctx)

	// The previous version's findings still in question, by (rule, quote):
	// each new finding takes the first of its key.
	carried := map[fairbalance.FindingKey][]fairbalance.ComplianceFinding{}
	if prevID != "" {
		prev, _, err := rowsOf[fairbalance.ComplianceFinding](ctx, tx, ComplianceFindingsTable(),
			and(condEq("version_id", prevID), condIn("state", []any{string(fairbalance.FindingOpen), string(fairbalance.FindingDismissed)})),
			fairbalance.OrderTerm{Column: "sort_page"}, fairbalance.OrderTerm{Column: "sort_pos"}, fairbalance.OrderTerm{Column: "id"})
		if err != nil {
			return 0, err
		}
		for _, f := range prev {
			carried[f.Key()] = append(carried[f.Key()], f)
		}
	}
	cols := []string{"id", "org_id", "asset_id", "version_id", "product_id", "asset_type", "rule", "rule_version", "severity", "state",
		"start_pos", "end_pos", "quote", "message", "guidance", "target", "sort_page", "sort_pos", "first_version_id", "fixed_in_version_id",
		"dismissed_by", "dismissed_at", "dismiss_reason", "created_at", "updated_at"}
	batch := make([]map[string]any, 0, len(found))
	nCarried := 0
	for _, f := range found {
		t := findingTarget(v.Text, f)
		page, pos := t.SortKey(v.Text)
		row := map[string]any{
			"id": auth.NewUUID(), "org_id": a.OrgID, "asset_id": a.ID, "version_id": id, "product_id": a.ProductID, "asset_type": string(a.Type),
			"rule": f.Rule, "rule_version": f.RuleVersion, "severity": string(f.Severity), "state": string(fairbalance.FindingOpen),
			"start_pos": f.Start, "end_pos": f.End, "quote": f.Quote, "message": f.Message, "guidance": f.Guidance,
			"target": string(mustRaw(t)), "sort_page": page, "sort_pos": pos, "first_version_id": id, "fixed_in_version_id": nil,
			"dismissed_by": nil, "dismissed_at": nil, "dismiss_reason": nil, "created_at": now, "updated_at": now,
		}
		key := fairbalance.FindingKey{Rule: f.Rule, Quote: f.Quote}
		if prev := carried[key]; len(prev) > 0 {
			p := prev[0]
			carried[key] = prev[1:]
			row["state"], row["first_version_id"], row["created_at"] = string(p.State), p.FirstVersionID, p.CreatedAt
			row["dismissed_by"], row["dismissed_at"], row["dismiss_reason"] = p.DismissedBy, p.DismissedAt, p.DismissReason
			nCarried++
		}
		batch = append(batch, row)
	}
	if len(batch) > 0 {
		if _, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "compliance_findings", Columns: cols, Rows: batch}); err != nil {
			return 0, err
		}
	}
	// What was not found again is fixed by this version.
	var gone []any
	for _, left := range carried {
		for _, f := range left {
			gone = append(gone, f.ID)
		}
	}
	if len(gone) > 0 {
		if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "compliance_findings", Columns: []string{"state", "fixed_in_version_id", "updated_at"},
			Rows:  []map[string]any{{"state": string(fairbalance.FindingFixed), "fixed_in_version_id": id, "updated_at": now}},
			Where: condIn("id", gone)}); err != nil {
			return 0, err
		}
	}
	if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "compliance_checks", Columns: []string{"checked_at", "findings"},
		Rows:  []map[string]any{{"checked_at": now, "findings": len(found)}},
		Where: and(condEq("version_id", id), &fairbalance.Cond{Column: "checked_at", Operator: "is"})}); err != nil {
		return 0, err
	}
	counts := map[string]int{}
	for _, f := range found {
		counts[string(f.Severity)]++
	}
	e2 := &fairbalance.AuditEntry{OrgID: a.OrgID, ActorID: actor, Action: fairbalance.ActionComplianceChecked, ObjectType: "asset_versions", ObjectID: id,
		Meta: mustRaw(map[string]any{"via": "data_api", "asset_id": a.ID, "from_version_id": prevID, "findings": len(found), "carried": nCarried,
			"fixed": len(gone), "critical": counts["critical"], "warning": counts["warning"], "info": counts["info"]})}
	if actor == SystemActor {
		e2.Meta = mustRaw(map[string]any{"via": "job", "asset_id": a.ID, "from_version_id": prevID, "findings": len(found), "carried": nCarried,
			"fixed": len(gone), "critical": counts["critical"], "warning": counts["warning"], "info": counts["info"]})
	} else if u, err := tx.UserByID(ctx, actor); err == nil {
		e2.ActorEmail = u.Email
	}
	if err := tx.AppendAudit(ctx, e2); err != nil {
		return 0, err
	}
	return len(found), nil
}

// findingTarget is the annotation target of finding f on text: its
// quote, the code points around it, and where it is.
func findingTarget(text []rune, f compliance.Finding) fairbalance.Target {
	start, end := max(0, min(f.Start, len(text))), max(0, min(f.End, len(text)))
	start = min(start, end)
	t := fairbalance.Target{Type: fairbalance.TargetText, Exact: string(text[start:end]), Start: &start, End: &end}
	t.Prefix = string(text[max(0, start-fairbalance.QuoteContext):start])
	t.Suffix = string(text[end:min(len(text), end+fairbalance.QuoteContext)])
	return t
}

// ---- findings

// FindingView is a finding as version_findings gives it.
type FindingView struct {
	ID              string                      `json:"id"`
	Rule            string                      `json:"rule"`
	RuleVersion     int                         `json:"rule_version"`
	Severity        fairbalance.FindingSeverity `json:"severity"`
	State           fairbalance.FindingState    `json:"state"`
	Start           int                         `json:"start"`
	End             int                         `json:"end"`
	Quote           string                      `json:"quote"`
	Message         string                      `json:"message"`
	Guidance        string                      `json:"guidance"`
	Target          json.RawMessage             `json:"target"`
	SortPage        int                         `json:"sort_page"`
	SortPos         int                         `json:"sort_pos"`
	DismissedBy     *string                     `json:"dismissed_by"`
	DismissedByName *string                     `json:"dismissed_by_name"`
	DismissedAt     *time.Time                  `json:"dismissed_at"`
	DismissReason   *string                     `json:"dismiss_reason"`
	FirstVersionID  string                      `json:"first_version_id"`
	VersionID       string                      `json:"version_id"`
}

// VersionFindings is version_findings' answer.
type VersionFindings struct {
	Pending   bool          `json:"pending"`
	CheckedAt *time.Time    `json:"checked_at"`
	Findings  []FindingView `json:"findings"`
}

func (cp *Compliance) versionFindings(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if !c.InOrg() && !c.Service() {
		return nil, denied(c, "permission denied for function version_findings")
	}
	v, err := readVersion(ctx, tx, c, argString(args, "version_id"))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, notFound("Version")
	}
	return cp.ForVersion(ctx, tx, v.ID)
}

// ForVersion is the check of version versionID and its findings in
// reading order, each dismissal with its dismisser's name.
func (cp *Compliance) ForVersion(ctx context.Context, tx fairbalance.Tx, versionID string) (*VersionFindings, error) {
	out := &VersionFindings{Findings: []FindingView{}}
	checks, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: "compliance_checks", Columns: []fairbalance.SelectColumn{selCol("checked_at", fairbalance.TypeTimestamp)},
		Where: condEq("version_id", versionID), Limit: 1})
	if err != nil {
		return nil, err
	}
	var check []struct {
		CheckedAt *time.Time `json:"checked_at"`
	}
	if err := json.Unmarshal(checks, &check); err != nil {
		return nil, err
	}
	if len(check) == 1 {
		out.Pending, out.CheckedAt = check[0].CheckedAt == nil, check[0].CheckedAt
	}
	rows, _, err := rowsOf[fairbalance.ComplianceFinding](ctx, tx, ComplianceFindingsTable(), condEq("version_id", versionID),
		fairbalance.OrderTerm{Column: "sort_page"}, fairbalance.OrderTerm{Column: "sort_pos"}, fairbalance.OrderTerm{Column: "rule"}, fairbalance.OrderTerm{Column: "id"})
	if err != nil {
		return nil, err
	}
	var people []any
	for _, r := range rows {
		if r.DismissedBy != nil {
			people = append(people, *r.DismissedBy)
		}
	}
	names := map[string]string{}
	if len(people) > 0 {
		if names, err = personNames(ctx, tx, people); err != nil {
			return nil, err
		}
	}
	for i := range rows {
		out.Findings = append(out.Findings, findingView(&rows[i], names))
	}
	return out, nil
}

func findingView(r *fairbalance.ComplianceFinding, names map[string]string) FindingView {
	v := FindingView{ID: r.ID, Rule: r.Rule, RuleVersion: r.RuleVersion, Severity: r.Severity, State: r.State, Start: r.Start, End: r.End,
		Quote: r.Quote, Message: r.Message, Guidance: r.Guidance, Target: r.Target, SortPage: r.SortPage, SortPos: r.SortPos,
		DismissedBy: r.DismissedBy, DismissedAt: r.DismissedAt, DismissReason: r.DismissReason, FirstVersionID: r.FirstVersionID, VersionID: r.VersionID}
	if r.DismissedBy != nil {
		n := names[*r.DismissedBy]
		v.DismissedByName = &n
	}
	return v
}

// view reads finding id as dismiss_finding and reopen_finding
// answer it.
func (cp *Compliance) view(ctx context.Context, tx fairbalance.Tx, id string) (*FindingView, error) {
	rows, _, err := rowsOf[fairbalance.ComplianceFinding](ctx, tx, ComplianceFindingsTable(), condEq("id", id))
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	names := map[string]string{}
	if rows[0].DismissedBy != nil {
		if names, err = personNames(ctx, tx, []any{*rows[0].DismissedBy}); err != nil {
			return nil, err
		}
	}
	v := findingView(&rows[0], names)
	return &v, nil
}

// dismissFinding dismisses an open finding with a reason: by those who
// write content and by reviewers.
func (cp *Compliance) dismissFinding(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	switch {
	case c.Demo:
		return nil, demoRefusal()
	case !c.InOrg() || c.UserID == "":
		return nil, denied(c, "permission denied for function dismiss_finding")
	case !c.WritesContent() && !strings.HasPrefix(c.Member, "reviewer_"):
		return nil, denied(c, "Only owners, admins, marketers and reviewers dismiss findings.")
	}
	f, before, err := mustRowOf[fairbalance.ComplianceFinding](ctx, tx, c, ComplianceFindingsTable(), argString(args, "finding_id"), "Finding")
	if err != nil {
		return nil, err
	}
	var in inputCheck
	reason := argString(args, "reason")
	in.text("reason", "The reason", reason, 1, fairbalance.MaxDismissReason)
	if err := in.err(); err != nil {
		return nil, err
	}
	if !f.State.CanTransition(fairbalance.FindingDismissed) {
		return nil, illegal(MsgStatusMove, "finding", f.State, fairbalance.FindingDismissed)
	}
	now := cp.rv.now()
	after, err := updateRow(ctx, tx, ComplianceFindingsTable(), f.ID,
		map[string]any{"state": string(fairbalance.FindingDismissed), "dismissed_by": c.UserID, "dismissed_at": now, "dismiss_reason": reason, "updated_at": now},
		condEq("state", string(f.State)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The finding changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionFindingDismissed, "compliance_findings", f.ID, before, after,
		map[string]any{"asset_id": f.AssetID, "version_id": f.VersionID, "rule": f.Rule, "severity": string(f.Severity), "reason": reason}); err != nil {
		return nil, err
	}
	return cp.view(ctx, tx, f.ID)
}

// reopenFinding takes a dismissal back: by reviewers and admins.
func (cp *Compliance) reopenFinding(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	switch {
	case c.Demo:
		return nil, demoRefusal()
	case !c.InOrg() || c.UserID == "":
		return nil, denied(c, "permission denied for function reopen_finding")
	case !c.IsAdmin() && !strings.HasPrefix(c.Member, "reviewer_"):
		return nil, denied(c, "Only reviewers, owners and admins reopen a dismissed finding.")
	}
	f, before, err := mustRowOf[fairbalance.ComplianceFinding](ctx, tx, c, ComplianceFindingsTable(), argString(args, "finding_id"), "Finding")
	if err != nil {
		return nil, err
	}
	if f.State != fairbalance.FindingDismissed || !f.State.CanTransition(fairbalance.FindingOpen) {
		return nil, illegal(MsgStatusMove, "finding", f.State, fairbalance.FindingOpen)
	}
	now := cp.rv.now()
	after, err := updateRow(ctx, tx, ComplianceFindingsTable(), f.ID,
		map[string]any{"state": string(fairbalance.FindingOpen), "dismissed_by": nil, "dismissed_at": nil, "dismiss_reason": nil, "updated_at": now},
		condEq("state", string(f.State)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The finding changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionFindingReopened, "compliance_findings", f.ID, before, after,
		map[string]any{"asset_id": f.AssetID, "version_id": f.VersionID, "rule": f.Rule}); err != nil {
		return nil, err
	}
	return cp.view(ctx, tx, f.ID)
}

// gateCompliance adds the compliance conditions of the ready-for-review gate for
// version versionID to in.
func gateCompliance(ctx context.Context, tx fairbalance.Tx, in *fairbalance.GateInput, versionID string) error {
	_, n, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: "compliance_checks", Columns: []fairbalance.SelectColumn{selCol("version_id", fairbalance.TypeText)},
		Where: and(condEq("version_id", versionID), &fairbalance.Cond{Column: "checked_at", Operator: "is"}), Limit: -1, Count: true})
	if err != nil {
		return err
	}
	in.CompliancePending = n > 0
	_, n, err = tx.Read(ctx, &fairbalance.ReadPlan{Table: "compliance_findings", Columns: []fairbalance.SelectColumn{selCol("id", fairbalance.TypeText)},
		Where: and(condEq("version_id", versionID), condEq("state", string(fairbalance.FindingOpen)), condEq("severity", string(fairbalance.SeverityCritical))),
		Limit: -1, Count: true})
	in.OpenCriticalFindings = int(n)
	return err
}

// ---- rules

// refuseRuleAdmin refuses callers who may not change the organisation's
// rules and guidelines: anyone but its owners and admins.
func refuseRuleAdmin(c fairbalance.Caller, what string) error {
	switch {
	case c.Demo:
		return demoRefusal()
	case !c.InOrg() || c.UserID == "":
		return denied(c, "permission denied for function "+what)
	case !c.IsAdmin():
		return denied(c, "Only owners and admins change the compliance rules and guidelines.")
	}
	return nil
}

// stringList reads a JSON array of strings (ok false when v is not one).
func stringList(v any) ([]string, bool) {
	if v == nil {
		return nil, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out []string
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, false
	}
	return out, true
}

func (cp *Compliance) saveRule(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseRuleAdmin(c, "save_compliance_rule"); err != nil {
		return nil, err
	}
	var existing *fairbalance.ComplianceRule
	var before map[string]any
	if id := argString(args, "id"); id != "" {
		var err error
		if existing, before, err = mustRowOf[fairbalance.ComplianceRule](ctx, tx, c, ComplianceRulesTable(), id, "Rule"); err != nil {
			return nil, err
		}
	}
	var in inputCheck
	r := fairbalance.ComplianceRule{Code: strings.ToLower(argString(args, "code")), Title: argString(args, "title"),
		Kind: fairbalance.RuleKind(argString(args, "kind")), Severity: fairbalance.FindingSeverity(argString(args, "severity")),
		Message: argString(args, "message"), Guidance: argString(args, "guidance"), Enabled: true}
	switch {
	case !fairbalance.RuleCodePattern.MatchString(r.Code):
		in.check("code", "The code is 2 to 40 lower-case letters, digits and hyphens.")
	case slices.Contains(builtinCodes, r.Code):
		in.check("code", "The code "+r.Code+" is a built-in rule's.")
	}
	in.text("title", "The title", r.Title, 1, 200)
	if !r.Kind.Valid() {
		in.check("kind", fairbalance.RuleKindVocabulary.Refusal("The kind"))
	}
	if !r.Severity.Valid() {
		in.check("severity", fairbalance.FindingSeverityVocabulary.Refusal("The severity"))
	}
	in.text("message", "The message", r.Message, 1, 500)
	if utf8.RuneCountInString(r.Guidance) > 2000 {
		in.check("guidance", "The guidance is longer than 2000 characters.")
	}
	if b, ok := args["enabled"].(bool); ok {
		r.Enabled = b
	} else if args["enabled"] != nil {
		in.check("enabled", "enabled is true or false.")
	}
	phrases, ok := stringList(args["phrases"])
	if !ok {
		in.check("phrases", "The phrases are a list of texts.")
	}
	r.Phrases = []string{}
	for _, p := range phrases {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(r.Phrases, p) {
			r.Phrases = append(r.Phrases, p)
		}
	}
	r.Pattern = argString(args, "pattern")
	switch r.Kind {
	case fairbalance.RulePhrases:
		switch {
		case len(r.Phrases) == 0:
			in.check("phrases", "A phrase rule lists at least one phrase.")
		case len(r.Phrases) > fairbalance.MaxRulePhrases:
			in.check("phrases", fmt.Sprintf("A rule lists at most %d phrases.", fairbalance.MaxRulePhrases))
		}
		for _, p := range r.Phrases {
			if utf8.RuneCountInString(p) > 200 {
				in.check("phrases", "A phrase is at most 200 characters long.")
			}
		}
		r.Pattern = ""
	case fairbalance.RuleRegex:
		if r.Pattern == "" {
			in.check("pattern", "A regular-expression rule has a pattern.")
		} else if utf8.RuneCountInString(r.Pattern) > 2000 {
			in.check("pattern", "The pattern is longer than 2000 characters.")
		} else if _, err := regexp.Compile(r.Pattern); err != nil {
			in.check("pattern", "The pattern is not a valid RE2 regular expression: "+strings.TrimPrefix(err.Error(), "error parsing regexp: ")+".")
		}
		r.Phrases = []string{}
	}
	if raw := args["scope"]; raw != nil {
		b, _ := json.Marshal(raw)
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r.Scope); err != nil {
			in.check("scope", "The scope is {asset_types, audiences, channels, markets}, each a list of texts.")
		}
	}
	for _, t := range r.Scope.AssetTypes {
		if !fairbalance.AssetType(t).Valid() {
			in.check("scope", fairbalance.AssetTypeVocabulary.Refusal("An asset type of the scope"))
		}
	}
	for _, a := range r.Scope.Audiences {
		if !fairbalance.Audience(a).Valid() {
			in.check("scope", fairbalance.AudienceVocabulary.Refusal("An audience of the scope"))
		}
	}
	for _, l := range []*[]string{&r.Scope.AssetTypes, &r.Scope.Audiences, &r.Scope.Channels, &r.Scope.Markets} {
		if *l == nil {
			*l = []string{}
		}
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	// The engine is the judge of what it can compile.
	if _, err := compliance.Compile(compliance.Config{Rules: []compliance.Rule{engineRule(&r)}}); err != nil {
		field := "phrases"
		if r.Kind == fairbalance.RuleRegex {
			field = "pattern"
		}
		in.check(field, err.Error())
		return nil, in.err()
	}
	dup, err := readDBRows(ctx, tx, "compliance_rules", and(condEq("org_id", c.OrgID), condEq("code", r.Code)), 1, selCol("id", fairbalance.TypeText))
	if err != nil {
		return nil, err
	}
	if len(dup) > 0 && (existing == nil || str(dup[0], "id") != existing.ID) {
		return nil, uniqueViolation("compliance_rules", "compliance_rules_code_uq", "The code "+r.Code+" is already used by another rule.")
	}
	now := cp.rv.now()
	values := map[string]any{"code": r.Code, "title": r.Title, "kind": string(r.Kind), "phrases": string(mustRaw(r.Phrases)), "pattern": r.Pattern,
		"severity": string(r.Severity), "message": r.Message, "guidance": r.Guidance, "scope": string(mustRaw(r.Scope)), "enabled": r.Enabled, "updated_at": now}
	var after map[string]any
	if existing == nil {
		values["id"], values["org_id"], values["version"], values["created_by"], values["created_at"] = auth.NewUUID(), c.OrgID, 1, c.UserID, now
		after, err = insertRow(ctx, tx, ComplianceRulesTable(), values)
	} else {
		values["version"] = existing.Version + 1
		after, err = updateRow(ctx, tx, ComplianceRulesTable(), existing.ID, values, condEq("version", existing.Version))
		if err == nil && after == nil {
			return nil, illegal("The rule changed meanwhile; reload it and try again.")
		}
	}
	if err != nil {
		return nil, err
	}
	if _, err := insertRow(ctx, tx, ComplianceRuleVersionsTable(), map[string]any{"rule_id": str(after, "id"), "org_id": c.OrgID,
		"version": after["version"], "rule": string(mustRaw(after)), "created_by": c.UserID, "created_at": now}); err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionComplianceRuleSaved, "compliance_rules", str(after, "id"), before, after,
		map[string]any{"code": r.Code, "version": after["version"]}); err != nil {
		return nil, err
	}
	cp.forget(c.OrgID)
	return after, nil
}

func (cp *Compliance) setBuiltinRule(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseRuleAdmin(c, "set_builtin_rule"); err != nil {
		return nil, err
	}
	var in inputCheck
	code := argString(args, "code")
	if !slices.Contains(builtinCodes, code) {
		in.check("code", "The code is one of the built-in rules: "+strings.Join(builtinCodes, ", ")+".")
	}
	enabled, ok := args["enabled"].(bool)
	if !ok {
		in.check("enabled", "enabled is true or false.")
	}
	var severity any
	if s := argString(args, "severity"); s != "" {
		if !fairbalance.FindingSeverity(s).Valid() {
			in.check("severity", fairbalance.FindingSeverityVocabulary.Refusal("The severity"))
		}
		severity = s
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	where := and(condEq("org_id", c.OrgID), condEq("code", code))
	old, err := readDBRows(ctx, tx, "compliance_rule_settings", where, 1, allColumns(ComplianceRuleSettingsTable())...)
	if err != nil {
		return nil, err
	}
	now := cp.rv.now()
	row := map[string]any{"org_id": c.OrgID, "code": code, "enabled": enabled, "severity": severity, "updated_by": c.UserID, "updated_at": now}
	var before any
	if len(old) > 0 {
		before = old[0]
		if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "compliance_rule_settings", Columns: []string{"enabled", "severity", "updated_by", "updated_at"},
			Rows: []map[string]any{{"enabled": enabled, "severity": severity, "updated_by": c.UserID, "updated_at": now}}, Where: where}); err != nil {
			return nil, err
		}
	} else if _, err := insertRow(ctx, tx, ComplianceRuleSettingsTable(), row); err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionComplianceRuleSaved, "compliance_rule_settings", code, before, row,
		map[string]any{"code": code, "builtin": true}); err != nil {
		return nil, err
	}
	cp.forget(c.OrgID)
	return row, nil
}

// BuiltinView is a built-in rule as compliance_rule_list gives it: the
// engine's description with the organisation's switch and severity.
type BuiltinView struct {
	compliance.BuiltinRule
	Enabled         bool                `json:"enabled"`
	DefaultSeverity compliance.Severity `json:"default_severity"`
}

func (cp *Compliance) ruleList(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, _ map[string]any) (any, error) {
	if !c.InOrg() {
		return nil, denied(c, "permission denied for function compliance_rule_list")
	}
	settings, _, err := rowsOf[fairbalance.RuleSetting](ctx, tx, ComplianceRuleSettingsTable(), condEq("org_id", c.OrgID))
	if err != nil {
		return nil, err
	}
	byCode := map[string]fairbalance.RuleSetting{}
	for _, s := range settings {
		byCode[s.Code] = s
	}
	builtins := []BuiltinView{}
	for _, b := range compliance.Builtins() {
		v := BuiltinView{BuiltinRule: b, Enabled: true, DefaultSeverity: b.Severity}
		if s, ok := byCode[b.Code]; ok {
			v.Enabled = s.Enabled
			if s.Severity != nil {
				v.Severity = compliance.Severity(*s.Severity)
			}
		}
		builtins = append(builtins, v)
	}
	_, rules, err := rowsOf[fairbalance.ComplianceRule](ctx, tx, ComplianceRulesTable(), condEq("org_id", c.OrgID), fairbalance.OrderTerm{Column: "code"})
	if err != nil {
		return nil, err
	}
	if rules == nil {
		rules = []map[string]any{}
	}
	return map[string]any{"builtins": builtins, "rules": rules}, nil
}

// ---- guidelines

func (cp *Compliance) saveGuideline(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseRuleAdmin(c, "save_guideline"); err != nil {
		return nil, err
	}
	var before map[string]any
	id := argString(args, "id")
	if id != "" {
		var err error
		if _, before, err = mustRowOf[map[string]any](ctx, tx, c, GuidelineDocumentsTable(), id, "Guideline"); err != nil {
			return nil, err
		}
	}
	var in inputCheck
	title, source := argString(args, "title"), fairbalance.GuidelineSource(argString(args, "source"))
	body, _ := args["body"].(string)
	in.text("title", "The title", title, 1, 200)
	if !source.Valid() {
		in.check("source", fairbalance.GuidelineSourceVocabulary.Refusal("The source"))
	}
	if utf8.RuneCountInString(body) > fairbalance.MaxGuidelineBody {
		in.check("body", fmt.Sprintf("The document is longer than %d characters.", fairbalance.MaxGuidelineBody))
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	now := cp.rv.now()
	values := map[string]any{"title": title, "source": string(source), "body": body, "updated_at": now}
	var after map[string]any
	var err error
	if before == nil {
		values["id"], values["org_id"], values["created_by"], values["created_at"] = auth.NewUUID(), c.OrgID, c.UserID, now
		after, err = insertRow(ctx, tx, GuidelineDocumentsTable(), values)
	} else {
		after, err = updateRow(ctx, tx, GuidelineDocumentsTable(), str(before, "id"), values, nil)
	}
	if err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionGuidelineSaved, "guideline_documents", str(after, "id"), before, after, nil); err != nil {
		return nil, err
	}
	return after, nil
}

func (cp *Compliance) deleteGuideline(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseRuleAdmin(c, "delete_guideline"); err != nil {
		return nil, err
	}
	_, before, err := mustRowOf[map[string]any](ctx, tx, c, GuidelineDocumentsTable(), argString(args, "id"), "Guideline")
	if err != nil {
		return nil, err
	}
	if _, _, err := tx.Delete(ctx, &fairbalance.WritePlan{Table: "guideline_documents", Where: condEq("id", str(before, "id"))}); err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionGuidelineDeleted, "guideline_documents", str(before, "id"), before, nil, nil); err != nil {
		return nil, err
	}
	return map[string]any{"id": str(before, "id"), "deleted": true}, nil
}
