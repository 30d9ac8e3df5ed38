package service_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/pdftext"
	"fairbalance/recordpdf"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// Compliance checks (issue 17): check_text and its refusals, the findings
// of every new version carried or fixed on the next, dismissals, the
// gate, the background check of a large PDF, and who may do what.

// hcpEmail is the e-mail: every sentence of its body is one the
// built-in rules flag. An accented name and an emoji come first, so that
// offsets counted in bytes or UTF-16 units would be wrong.
const hcpEmail = "Dear Dr. Müller 👋,\n\nZelvora is the best treatment for your patients. Guaranteed results with no side effects. Better than lisinopril.\n\nImportant safety information: Zelvora can cause liver problems."

// houseRules are an organisation's own rules used throughout: phrase
// rules flag exactly their phrases, whatever the built-in rules make of
// the same text.
func houseRules(t *testing.T, e *reviewEnv, admin fairbalance.Caller) {
	t.Helper()
	e.must(t, admin, "save_compliance_rule", map[string]any{"code": "house-guarantee", "title": "Guarantees", "kind": "phrases",
		"phrases": []any{"Guaranteed results"}, "severity": "critical", "message": "Nothing is guaranteed.", "guidance": "Say what the study showed."})
	e.must(t, admin, "save_compliance_rule", map[string]any{"code": "house-lisinopril", "title": "Named comparators", "kind": "phrases",
		"phrases": []any{"lisinopril"}, "severity": "warning", "message": "A named comparator needs a head-to-head study."})
}

// findingsOf is version_findings(versionID) as c.
func (e *reviewEnv) findingsOf(t *testing.T, c fairbalance.Caller, versionID string) (pending bool, findings []map[string]any) {
	t.Helper()
	out := e.must(t, c, "version_findings", map[string]any{"version_id": versionID})
	for _, f := range out["findings"].([]any) {
		findings = append(findings, f.(map[string]any))
	}
	return out["pending"].(bool), findings
}

// ofRule are the findings of rule among fs.
func ofRule(fs []map[string]any, rule string) []map[string]any {
	var out []map[string]any
	for _, f := range fs {
		if f["rule"] == rule {
			out = append(out, f)
		}
	}
	return out
}

// gateCodes are the codes of the unmet conditions of the asset's gate.
func (e *reviewEnv) gateCodes(t *testing.T, assetID string) []string {
	t.Helper()
	out := e.must(t, e.own[fairbalance.RoleMarketer], "review_gate", map[string]any{"asset_id": assetID})
	var codes []string
	for _, u := range out["unmet"].([]any) {
		codes = append(codes, u.(map[string]any)["code"].(string))
	}
	return codes
}

// codePoints is s[start:end] counted in code points.
func codePoints(s string, start, end int) string {
	r := []rune(s)
	if start < 0 || end > len(r) || start > end {
		return fmt.Sprintf("<%d..%d outside %d>", start, end, len(r))
	}
	return string(r[start:end])
}

func TestCheckText(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			admin, viewer := e.own[fairbalance.RoleAdmin], e.own[fairbalance.RoleViewer]
			houseRules(t, e, admin)
			audit := e.auditLength(t)
			out := e.must(t, viewer, "check_text", map[string]any{"text": hcpEmail, "product_id": e.product["id"], "asset_type": "email",
				"audience": "hcp", "channel": "Email", "market": "US", "as_of": "2026-03-02"})
			var fs []map[string]any
			for _, f := range out["findings"].([]any) {
				fs = append(fs, f.(map[string]any))
			}
			// Offsets are code points of the text as sent; each finding
			// quotes exactly what its offsets span.
			for _, f := range fs {
				start, end := int(f["start"].(float64)), int(f["end"].(float64))
				if got := codePoints(hcpEmail, start, end); got != f["quote"] {
					t.Errorf("%s: [%d, %d) spans %q, quote %q", f["rule"], start, end, got, f["quote"])
				}
				for _, k := range []string{"rule", "rule_version", "severity", "start", "end", "quote", "message", "guidance"} {
					if _, ok := f[k]; !ok {
						t.Errorf("finding without %s: %v", k, f)
					}
				}
			}
			g := ofRule(fs, "house-guarantee")
			if len(g) != 1 || g[0]["severity"] != "critical" || g[0]["rule_version"] != 1.0 || g[0]["message"] != "Nothing is guaranteed." {
				t.Fatalf("house-guarantee: %v", g)
			}
			if want := strings.Index(hcpEmail, "Guaranteed"); int(g[0]["start"].(float64)) != utf8.RuneCountInString(hcpEmail[:want]) {
				t.Errorf("start %v, want code point %d (byte %d)", g[0]["start"], utf8.RuneCountInString(hcpEmail[:want]), want)
			}
			// The built-in rules flag the sentences.
			for _, rule := range []string{"superlative", "comparative"} {
				if len(ofRule(fs, rule)) == 0 {
					t.Errorf("no %s finding in %v", rule, fs)
				}
			}
			if e.auditLength(t) != audit {
				t.Error("check_text wrote to the audit trail")
			}
			if rows := readRows(t, e.matrixEnv, viewer, "compliance_findings", "select=id"); len(rows) != 0 {
				t.Errorf("check_text saved %d findings", len(rows))
			}

			// Refusals: 400 naming the field.
			for _, c := range []struct {
				args  map[string]any
				field string
			}{
				{map[string]any{}, "text"},
				{map[string]any{"text": 42}, "text"},
				{map[string]any{"text": strings.Repeat("a", fairbalance.MaxCheckText+1)}, "text"},
				{map[string]any{"text": "x", "asset_type": "billboard"}, "asset_type"},
				{map[string]any{"text": "x", "audience": "everyone"}, "audience"},
				{map[string]any{"text": "x", "as_of": "02/03/2026"}, "as_of"},
				{map[string]any{"text": "x", "product_id": "00000000-0000-4000-8000-000000000000"}, "product_id"},
				{map[string]any{"text": "x", "product_id": "not-a-uuid"}, "product_id"},
			} {
				_, err := e.call(viewer, "check_text", c.args)
				var fe *fairbalance.Error
				if !asError(err, &fe) || fe.Kind != fairbalance.KindInvalid || fe.Fields[c.field] == "" {
					t.Errorf("check_text %v: %v, want 400 on %s", keys(c.args), err, c.field)
				}
			}
			// Exactly 1 MB is taken.
			if _, err := e.call(viewer, "check_text", map[string]any{"text": strings.Repeat("a", fairbalance.MaxCheckText)}); err != nil {
				t.Errorf("1 MB: %v", err)
			}
			// Another organisation's product is not the caller's.
			other, _ := e.productOf(t, e.members["other"])
			_, err := e.call(viewer, "check_text", map[string]any{"text": "x", "product_id": other["id"]})
			var fe *fairbalance.Error
			if !asError(err, &fe) || fe.Fields["product_id"] == "" {
				t.Errorf("another organisation's product: %v", err)
			}
			// Another organisation's rules are its own.
			out = e.must(t, e.members["other"][fairbalance.RoleViewer], "check_text", map[string]any{"text": hcpEmail})
			for _, f := range out["findings"].([]any) {
				if strings.HasPrefix(f.(map[string]any)["rule"].(string), "house-") {
					t.Errorf("another organisation's rule applied: %v", f)
				}
			}
		})
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func asError(err error, target **fairbalance.Error) bool {
	fe, ok := err.(*fairbalance.Error)
	if ok {
		*target = fe
	}
	return ok
}

const findingsV1 = "<p>Zelvora is the best treatment for adults.</p><p>Guaranteed results with no side effects.</p><p>Better than lisinopril.</p>" +
	"<p>Important safety information: Zelvora can cause liver problems.</p>"

const findingsV2 = "<p>Zelvora is a treatment for adults.</p><p>Results vary from patient to patient.</p><p>Better than lisinopril.</p>" +
	"<p>Important safety information: Zelvora can cause liver problems.</p>"

func TestComplianceFindingsAcrossVersions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			admin, marketer, med := e.own[fairbalance.RoleAdmin], e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleReviewerMedical]
			houseRules(t, e, admin)
			a := e.must(t, marketer, "create_asset", map[string]any{"title": "Findings email", "type": "email", "audience": "hcp",
				"channel": "Email", "market": "US", "product_id": e.product["id"], "content_html": findingsV1})
			v1 := a["current_version_id"].(string)
			pending, fs := e.findingsOf(t, e.own[fairbalance.RoleViewer], v1)
			if pending {
				t.Fatal("a composed version is checked with its upload")
			}
			guarantee, lisinopril := ofRule(fs, "house-guarantee"), ofRule(fs, "house-lisinopril")
			if len(guarantee) != 1 || len(lisinopril) != 1 {
				t.Fatalf("findings on v1: %v", fs)
			}
			g := guarantee[0]
			if g["state"] != "open" || g["quote"] != "Guaranteed results" || g["first_version_id"] != v1 {
				t.Errorf("v1 guarantee: %v", g)
			}
			target := g["target"].(map[string]any)
			if target["type"] != "text" || target["exact"] != "Guaranteed results" || !strings.Contains(target["prefix"].(string), "for adults.") {
				t.Errorf("target %v", target)
			}
			// Reading order.
			for i := 1; i < len(fs); i++ {
				if fs[i-1]["sort_pos"].(float64) > fs[i]["sort_pos"].(float64) {
					t.Errorf("findings out of reading order: %v", fs)
				}
			}
			if e.auditCount(t, fairbalance.ActionComplianceChecked) != 1 {
				t.Error("the check is not in the audit trail")
			}
			// An open critical finding blocks submission.
			if codes := e.gateCodes(t, a["id"].(string)); !slices.Contains(codes, fairbalance.GateCriticalFindings) {
				t.Errorf("gate %v", codes)
			}
			_, err := e.call(marketer, "submit_for_review", map[string]any{"asset_id": a["id"]})
			if err == nil || !strings.Contains(err.Error(), "critical compliance finding") {
				t.Errorf("submitted past a critical finding: %v", err)
			}

			// The marketer dismisses the comparator with a reason.
			_, err = e.call(marketer, "dismiss_finding", map[string]any{"finding_id": lisinopril[0]["id"], "reason": "   "})
			var fe *fairbalance.Error
			if !asError(err, &fe) || fe.Fields["reason"] == "" {
				t.Errorf("dismissed without a reason: %v", err)
			}
			_, err = e.call(marketer, "dismiss_finding", map[string]any{"finding_id": lisinopril[0]["id"], "reason": strings.Repeat("x", 2001)})
			if !asError(err, &fe) || fe.Fields["reason"] == "" {
				t.Errorf("a reason of 2001 characters: %v", err)
			}
			d := e.must(t, marketer, "dismiss_finding", map[string]any{"finding_id": lisinopril[0]["id"], "reason": "Head-to-head study on file (ref 4)."})
			if d["state"] != "dismissed" || d["dismissed_by"] != marketer.UserID || d["dismiss_reason"] != "Head-to-head study on file (ref 4)." ||
				d["dismissed_by_name"] == "" || d["dismissed_at"] == nil {
				t.Errorf("dismissed %v", d)
			}
			if _, err := e.call(med, "dismiss_finding", map[string]any{"finding_id": lisinopril[0]["id"], "reason": "again"}); err == nil || !strings.Contains(pgMessage(err), "dismissed") {
				t.Errorf("dismissed twice: %v", err)
			}
			if e.auditCount(t, fairbalance.ActionFindingDismissed) != 1 {
				t.Error("the dismissal is not in the audit trail")
			}

			// Version 2 drops the guarantee and keeps the comparator.
			v2 := e.must(t, marketer, "add_asset_version", map[string]any{"asset_id": a["id"], "content_html": findingsV2, "change_note": "No guarantees"})["id"].(string)
			_, fs2 := e.findingsOf(t, marketer, v2)
			if got := ofRule(fs2, "house-guarantee"); len(got) != 0 {
				t.Errorf("the guarantee is still found on v2: %v", got)
			}
			l2 := ofRule(fs2, "house-lisinopril")
			if len(l2) != 1 || l2[0]["state"] != "dismissed" || l2[0]["first_version_id"] != v1 || l2[0]["dismiss_reason"] != "Head-to-head study on file (ref 4)." ||
				l2[0]["dismissed_by"] != marketer.UserID || l2[0]["version_id"] != v2 {
				t.Errorf("the dismissal did not carry to v2: %v", l2)
			}
			_, fs1 := e.findingsOf(t, marketer, v1)
			g1 := ofRule(fs1, "house-guarantee")
			if len(g1) != 1 || g1[0]["state"] != "fixed" {
				t.Errorf("v1's guarantee after v2: %v", g1)
			}
			if row := e.row(t, "compliance_findings", g1[0]["id"].(string)); row["fixed_in_version_id"] != v2 {
				t.Errorf("fixed in %v", row["fixed_in_version_id"])
			}
			// A reviewer reopens the dismissal on v2; another dismisses it again.
			if _, err := e.call(marketer, "reopen_finding", map[string]any{"finding_id": l2[0]["id"]}); err == nil {
				t.Error("a marketer reopened a dismissal")
			}
			r := e.must(t, med, "reopen_finding", map[string]any{"finding_id": l2[0]["id"]})
			if r["state"] != "open" || r["dismissed_by"] != nil || r["dismiss_reason"] != nil {
				t.Errorf("reopened %v", r)
			}
			if e.auditCount(t, fairbalance.ActionFindingReopened) != 1 {
				t.Error("the reopening is not in the audit trail")
			}
			// Whatever the built-in rules still find critical on v2, once
			// dismissed the gate has no critical finding left.
			for _, f := range fs2 {
				if f["severity"] == "critical" && f["state"] == "open" {
					e.must(t, med, "dismiss_finding", map[string]any{"finding_id": f["id"], "reason": "Substantiated in the label."})
				}
			}
			if codes := e.gateCodes(t, a["id"].(string)); slices.Contains(codes, fairbalance.GateCriticalFindings) || slices.Contains(codes, fairbalance.GateCompliancePending) {
				t.Errorf("gate on v2 %v", codes)
			}
		})
	}
}

func TestComplianceLargePDFJob(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			houseRules(t, e, e.own[fairbalance.RoleAdmin])
			marketer := e.own[fairbalance.RoleMarketer]
			pdf := detailAid(t, "first", fairbalance.LargePDFPages+5, "Guaranteed results with no side effects.")
			path := upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "big.pdf", pdf)
			a := e.must(t, marketer, "create_asset", map[string]any{"title": "Big detail aid", "type": "detail_aid", "audience": "hcp",
				"channel": "Field force", "market": "US", "product_id": e.product["id"], "file_path": path, "file_name": "big.pdf"})
			v1 := a["current_version_id"].(string)
			pending, fs := e.findingsOf(t, marketer, v1)
			if !pending || len(fs) != 0 {
				t.Fatalf("a large PDF is checked after its upload: pending %v, %d findings", pending, len(fs))
			}
			if codes := e.gateCodes(t, a["id"].(string)); !slices.Contains(codes, fairbalance.GateCompliancePending) {
				t.Errorf("gate while pending %v", codes)
			}
			// The job (as River runs it), then again: nothing more.
			if err := e.data.Compliance.CheckVersion(e.ctx, v1); err != nil {
				t.Fatal(err)
			}
			if n, err := e.data.Compliance.CheckPending(e.ctx, 10); err != nil || n != 0 {
				t.Errorf("pending after the job: %d %v", n, err)
			}
			pending, fs = e.findingsOf(t, marketer, v1)
			g := ofRule(fs, "house-guarantee")
			if pending || len(g) != 1 || g[0]["sort_page"] != 1.0 {
				t.Fatalf("after the job: pending %v, %v", pending, g)
			}
			if e.auditCount(t, fairbalance.ActionComplianceChecked) != 1 {
				t.Error("the job's check is not in the audit trail")
			}
			codes := e.gateCodes(t, a["id"].(string))
			if slices.Contains(codes, fairbalance.GateCompliancePending) || !slices.Contains(codes, fairbalance.GateCriticalFindings) {
				t.Errorf("gate after the job %v", codes)
			}
			// The sweep runs checks whose job was lost.
			path = upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "big2.pdf", detailAid(t, "second", fairbalance.LargePDFPages+1))
			v2 := e.must(t, marketer, "add_asset_version", map[string]any{"asset_id": a["id"], "file_path": path, "file_name": "big2.pdf", "change_note": "Second edition"})["id"].(string)
			if n, err := e.data.Compliance.CheckPending(e.ctx, 10); err != nil || n != 1 {
				t.Fatalf("sweep: %d %v", n, err)
			}
			_, fs = e.findingsOf(t, marketer, v1)
			if g := ofRule(fs, "house-guarantee"); len(g) != 1 || g[0]["state"] != "fixed" {
				t.Errorf("v1 after v2's job: %v", g)
			}
			if pending, _ := e.findingsOf(t, marketer, v2); pending {
				t.Error("v2 still pending")
			}
		})
	}
}

func TestComplianceRules(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			admin, viewer := e.own[fairbalance.RoleAdmin], e.own[fairbalance.RoleViewer]
			rule := e.must(t, admin, "save_compliance_rule", map[string]any{"code": "house-cure", "title": "Cures", "kind": "regex",
				"pattern": `\bcur(e|es|ed)\b`, "severity": "critical", "message": "Nothing cures.", "scope": map[string]any{"audiences": []any{"patient"}}})
			if rule["version"] != 1.0 || rule["enabled"] != true {
				t.Fatalf("saved %v", rule)
			}
			check := func(audience string) []map[string]any {
				out := e.must(t, viewer, "check_text", map[string]any{"text": "Zelvora cures high cholesterol.", "audience": audience})
				var fs []map[string]any
				for _, f := range out["findings"].([]any) {
					fs = append(fs, f.(map[string]any))
				}
				return ofRule(fs, "house-cure")
			}
			if got := check("patient"); len(got) != 1 || got[0]["quote"] != "cures" {
				t.Errorf("patient: %v", got)
			}
			if got := check("hcp"); len(got) != 0 {
				t.Errorf("out of scope: %v", got)
			}
			// Saving again is version 2 and applies at once (the compiled
			// rules are not kept past a change).
			rule = e.must(t, admin, "save_compliance_rule", map[string]any{"id": rule["id"], "code": "house-cure", "title": "Cures", "kind": "regex",
				"pattern": `\bcur(e|es|ed)\b`, "severity": "warning", "message": "Nothing cures.", "enabled": true})
			if got := check("hcp"); rule["version"] != 2.0 || len(got) != 1 || got[0]["severity"] != "warning" || got[0]["rule_version"] != 2.0 {
				t.Errorf("v2 %v: %v", rule["version"], got)
			}
			versions := readRows(t, e.matrixEnv, viewer, "compliance_rule_versions", "select=version,rule&rule_id=eq."+rule["id"].(string)+"&order=version")
			if len(versions) != 2 || versions[0]["rule"].(map[string]any)["severity"] != "critical" {
				t.Errorf("versions %v", versions)
			}
			e.must(t, admin, "save_compliance_rule", map[string]any{"id": rule["id"], "code": "house-cure", "title": "Cures", "kind": "regex",
				"pattern": `\bcur(e|es|ed)\b`, "severity": "warning", "message": "Nothing cures.", "enabled": false})
			if got := check("hcp"); len(got) != 0 {
				t.Errorf("a rule switched off: %v", got)
			}
			// Refusals name their field.
			for _, c := range []struct {
				args  map[string]any
				field string
			}{
				{map[string]any{"code": "superlative", "title": "x", "kind": "phrases", "phrases": []any{"x"}, "severity": "info", "message": "x"}, "code"},
				{map[string]any{"code": "A B", "title": "x", "kind": "phrases", "phrases": []any{"x"}, "severity": "info", "message": "x"}, "code"},
				{map[string]any{"code": "bad-re", "title": "x", "kind": "regex", "pattern": "(unclosed", "severity": "info", "message": "x"}, "pattern"},
				{map[string]any{"code": "bad-re", "title": "x", "kind": "regex", "pattern": `(?=lookahead)`, "severity": "info", "message": "x"}, "pattern"},
				{map[string]any{"code": "no-phrases", "title": "x", "kind": "phrases", "phrases": []any{}, "severity": "info", "message": "x"}, "phrases"},
				{map[string]any{"code": "bad-sev", "title": "x", "kind": "phrases", "phrases": []any{"x"}, "severity": "fatal", "message": "x"}, "severity"},
				{map[string]any{"code": "bad-kind", "title": "x", "kind": "words", "phrases": []any{"x"}, "severity": "info", "message": "x"}, "kind"},
				{map[string]any{"code": "bad-scope", "title": "x", "kind": "phrases", "phrases": []any{"x"}, "severity": "info", "message": "x",
					"scope": map[string]any{"audiences": []any{"everyone"}}}, "scope"},
			} {
				_, err := e.call(admin, "save_compliance_rule", c.args)
				var fe *fairbalance.Error
				if !asError(err, &fe) || fe.Fields[c.field] == "" {
					t.Errorf("save_compliance_rule %v: %v, want a refusal of %s", c.args["code"], err, c.field)
				}
			}
			if _, err := e.call(admin, "save_compliance_rule", map[string]any{"code": "house-cure", "title": "Twin", "kind": "phrases",
				"phrases": []any{"x"}, "severity": "info", "message": "x"}); err == nil {
				t.Error("a second rule took a code in use")
			}

			// Built-in switches.
			e.must(t, admin, "set_builtin_rule", map[string]any{"code": "superlative", "enabled": false})
			out := e.must(t, viewer, "check_text", map[string]any{"text": "Zelvora is the best treatment."})
			for _, f := range out["findings"].([]any) {
				if f.(map[string]any)["rule"] == "superlative" {
					t.Errorf("superlative is off: %v", f)
				}
			}
			e.must(t, admin, "set_builtin_rule", map[string]any{"code": "superlative", "enabled": true, "severity": "info"})
			list := e.must(t, viewer, "compliance_rule_list", nil)
			var sup map[string]any
			for _, b := range list["builtins"].([]any) {
				if b.(map[string]any)["code"] == "superlative" {
					sup = b.(map[string]any)
				}
			}
			if sup == nil || sup["enabled"] != true || sup["severity"] != "info" || sup["default_severity"] == nil {
				t.Errorf("superlative in the list: %v", sup)
			}
			if rules := list["rules"].([]any); len(rules) != 1 || rules[0].(map[string]any)["code"] != "house-cure" {
				t.Errorf("rules %v", rules)
			}
			out = e.must(t, viewer, "check_text", map[string]any{"text": "Zelvora is the best treatment."})
			for _, f := range out["findings"].([]any) {
				if f.(map[string]any)["rule"] == "superlative" && f.(map[string]any)["severity"] != "info" {
					t.Errorf("superlative at its own severity: %v", f)
				}
			}
			if _, err := e.call(admin, "set_builtin_rule", map[string]any{"code": "house-cure", "enabled": true}); err == nil {
				t.Error("set_builtin_rule took an organisation rule")
			}
			if n := e.auditCount(t, fairbalance.ActionComplianceRuleSaved); n != 5 {
				t.Errorf("%d compliance_rule_saved entries", n)
			}

			// Guidelines.
			g := e.must(t, admin, "save_guideline", map[string]any{"title": "OPDP untitled letters 2025", "source": "opdp", "body": "# Lessons\n\n- Fair balance"})
			g = e.must(t, admin, "save_guideline", map[string]any{"id": g["id"], "title": "OPDP letters 2025", "source": "opdp", "body": "# Lessons"})
			if g["title"] != "OPDP letters 2025" {
				t.Errorf("guideline %v", g)
			}
			if _, err := e.call(admin, "save_guideline", map[string]any{"title": "x", "source": "ema", "body": ""}); err == nil {
				t.Error("a guideline of an unknown source")
			}
			e.must(t, admin, "delete_guideline", map[string]any{"id": g["id"]})
			if rows := readRows(t, e.matrixEnv, viewer, "guideline_documents", "select=id"); len(rows) != 0 {
				t.Errorf("deleted guideline still there: %v", rows)
			}
			if e.auditCount(t, fairbalance.ActionGuidelineSaved) != 2 || e.auditCount(t, fairbalance.ActionGuidelineDeleted) != 1 {
				t.Error("guideline audit entries")
			}
		})
	}
}

// checkComplianceMatrix is the permission matrix's part for compliance:
// members read their organisation's rules, settings, guidelines, findings
// and checks and write them only through the functions; check_text,
// version_findings and compliance_rule_list are every member's; writers
// and reviewers dismiss, reviewers and admins reopen, owners and admins
// change rules and guidelines; another organisation's objects are not
// found and the anonymous do nothing.
func checkComplianceMatrix(t *testing.T, m *matrixEnv, tested map[string]bool, check func(string, bool)) {
	anon := fairbalance.Caller{Role: "anon"}
	versions, findings, guidelines, products := map[string]string{}, map[string]string{}, map[string]string{}, map[string]string{}
	for _, org := range []string{"own", "other"} {
		mem := m.members[org]
		admin := mem[fairbalance.RoleAdmin]
		for _, step := range []struct {
			fn   string
			args map[string]any
		}{
			{"save_compliance_rule", map[string]any{"code": "house-zelvora", "title": "Brand", "kind": "phrases", "phrases": []any{"Zelvora"},
				"severity": "warning", "message": "Give the established name."}},
			{"set_builtin_rule", map[string]any{"code": "readability", "enabled": true, "severity": "info"}},
		} {
			if _, err := callErr(m, admin, step.fn, step.args); err != nil {
				t.Fatal(step.fn, err)
			}
		}
		g, err := callErr(m, admin, "save_guideline", map[string]any{"title": "House style", "source": "internal", "body": "Say it plainly."})
		if err != nil {
			t.Fatal(err)
		}
		guidelines[org] = g["id"].(string)
		p, err := insert(t, m, admin, "products", map[string]any{"brand_name": "Matrixa " + org})
		if err != nil {
			t.Fatal(err)
		}
		products[org] = p["id"].(string)
		a, err := callErr(m, mem[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": "Checked", "type": "email", "audience": "hcp",
			"channel": "Email", "market": "US", "content_html": annotatedHTML})
		if err != nil {
			t.Fatal(err)
		}
		versions[org] = a["current_version_id"].(string)
		out, err := callErr(m, mem[fairbalance.RoleViewer], "version_findings", map[string]any{"version_id": versions[org]})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range out["findings"].([]any) {
			if f.(map[string]any)["rule"] == "house-zelvora" && findings[org] == "" {
				findings[org] = f.(map[string]any)["id"].(string)
			}
		}
		if findings[org] == "" {
			t.Fatalf("no house-zelvora finding in %v", out)
		}
	}
	own, other := m.members["own"], m.members["other"]
	for _, table := range []string{"compliance_rules", "compliance_rule_versions", "compliance_rule_settings", "guideline_documents", "compliance_findings", "compliance_checks"} {
		tested[table] = true
		for _, role := range fairbalance.Roles {
			c := own[role]
			rows := readRows(t, m, c, table, "select=*")
			check(fmt.Sprintf("%s sees no %s", role, table), len(rows) > 0)
			for _, r := range rows {
				check(fmt.Sprintf("%s sees %s of %v", role, table, r["org_id"]), r["org_id"] == m.orgs["own"])
			}
			_, err := m.data.Insert(m.ctx, c, table, req(t, ""), []byte(`{"title":"x"}`))
			check(fmt.Sprintf("%s inserts into %s", role, table), denied(err))
			_, err = m.data.Update(m.ctx, c, table, req(t, "org_id=eq."+m.orgs["own"]), []byte(`{"enabled":false}`))
			check(fmt.Sprintf("%s updates %s", role, table), denied(err))
			_, err = m.data.Delete(m.ctx, c, table, req(t, "org_id=eq."+m.orgs["own"]))
			check(fmt.Sprintf("%s deletes from %s", role, table), denied(err))
		}
		_, err := m.data.Read(m.ctx, anon, table, req(t, "select=*"))
		check("anonymous reads "+table, denied(err))
	}

	everyone := func(string) bool { return true }
	admins := func(role string) bool { return role == fairbalance.RoleOwner || role == fairbalance.RoleAdmin }
	dismissers := func(role string) bool { return role != fairbalance.RoleViewer }
	reopeners := func(role string) bool { return admins(role) || strings.HasPrefix(role, "reviewer_") }
	cases := []struct {
		fn   string
		args func(role string) map[string]any
		may  func(role string) bool
	}{
		{"check_text", func(string) map[string]any {
			return map[string]any{"text": "Zelvora is the best.", "product_id": products["own"]}
		}, everyone},
		{"version_findings", func(string) map[string]any { return map[string]any{"version_id": versions["own"]} }, everyone},
		{"compliance_rule_list", func(string) map[string]any { return map[string]any{} }, everyone},
		{"dismiss_finding", func(string) map[string]any {
			return map[string]any{"finding_id": findings["own"], "reason": "Fine here."}
		}, dismissers},
		{"reopen_finding", func(string) map[string]any { return map[string]any{"finding_id": findings["own"]} }, reopeners},
		{"save_compliance_rule", func(role string) map[string]any {
			return map[string]any{"code": "house-" + strings.ReplaceAll(role, "_", "-"), "title": "By " + role, "kind": "phrases",
				"phrases": []any{"cure"}, "severity": "info", "message": "x"}
		}, admins},
		{"set_builtin_rule", func(string) map[string]any { return map[string]any{"code": "readability", "enabled": true} }, admins},
		{"save_guideline", func(string) map[string]any {
			return map[string]any{"id": guidelines["own"], "title": "House style", "source": "internal", "body": "x"}
		}, admins},
		{"delete_guideline", func(string) map[string]any { return map[string]any{"id": guidelines["own"]} }, admins},
	}
	for _, cs := range cases {
		tested["rpc:"+cs.fn] = true
		for _, role := range fairbalance.Roles {
			args := cs.args(role)
			// dismiss and reopen need the finding in the state they move it from.
			admin := own[fairbalance.RoleAdmin]
			switch cs.fn {
			case "dismiss_finding":
				_, _ = callErr(m, admin, "reopen_finding", map[string]any{"finding_id": findings["own"]})
			case "reopen_finding":
				_, _ = callErr(m, admin, "dismiss_finding", map[string]any{"finding_id": findings["own"], "reason": "For the matrix."})
			case "delete_guideline":
				g, err := callErr(m, admin, "save_guideline", map[string]any{"title": "To delete", "source": "fda", "body": ""})
				if err != nil {
					t.Fatal(err)
				}
				args["id"] = g["id"]
			}
			_, err := m.data.Call(m.ctx, own[role], cs.fn, args, false)
			check(fmt.Sprintf("%s calls %s: %v", role, cs.fn, err), (err == nil) == cs.may(role))
			// Another organisation's member reaches none of it (its own
			// rule list and settings are its own: only the object calls).
			if cs.fn != "compliance_rule_list" && cs.fn != "set_builtin_rule" && cs.fn != "save_compliance_rule" {
				_, err = m.data.Call(m.ctx, other[role], cs.fn, args, false)
				check(fmt.Sprintf("%s of another organisation calls %s: %v", role, cs.fn, err), err != nil)
			}
		}
		_, err := m.data.Call(m.ctx, anon, cs.fn, cs.args("anon"), false)
		check("anonymous calls "+cs.fn, denied(err))
	}
	// The other organisation's finding is as it was.
	out, err := callErr(m, other[fairbalance.RoleViewer], "version_findings", map[string]any{"version_id": versions["other"]})
	check(fmt.Sprintf("the other organisation's findings: %v", err), err == nil)
	for _, f := range out["findings"].([]any) {
		check("the other organisation's finding changed", f.(map[string]any)["state"] == "open")
	}
}

func TestComplianceInReviewRecord(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newRecordEnv(t, backend)
			houseRules(t, e.reviewEnv, e.own[fairbalance.RoleAdmin])
			marketer, legal := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleReviewerLegal]
			a := e.pdfAsset(t, "Guarantee detail aid", detailAid(t, "first", 3, "Guaranteed results with no side effects."))
			v1 := a["current_version_id"].(string)
			_, fs := e.findingsOf(t, marketer, v1)
			var dismissed string
			for _, f := range fs {
				if f["severity"] == "critical" {
					e.must(t, legal, "dismiss_finding", map[string]any{"finding_id": f["id"], "reason": "Quoted from the label, approved wording."})
					if f["rule"] == "house-guarantee" {
						dismissed = f["id"].(string)
					}
				}
			}
			round, _ := e.submit(t, a["id"].(string))
			exp, err := e.data.Records.ReviewRecord(e.ctx, marketer, round["id"].(string), service.FormatPDF)
			if err != nil {
				t.Fatal(err)
			}
			defer exp.File.Close()
			rec := exp.Record
			c := rec.Compliance
			if c.CheckedAt == nil || len(c.Findings) != len(fs) {
				t.Fatalf("record's compliance: %+v", c)
			}
			var d *fairbalance.RecordDismissal
			for i := range c.Dismissals {
				if c.Dismissals[i].FindingID == dismissed {
					d = &c.Dismissals[i]
				}
			}
			if d == nil || d.By.ID != legal.UserID || d.By.Name == "" || d.Reason != "Quoted from the label, approved wording." || d.Quote != "Guaranteed results" || d.At.IsZero() {
				t.Fatalf("dismissal %+v in %+v", d, c.Dismissals)
			}
			var actions []string
			for _, en := range rec.Audit.Entries {
				actions = append(actions, en.Action)
			}
			if !slices.Contains(actions, fairbalance.ActionFindingDismissed) || !slices.Contains(actions, fairbalance.ActionComplianceChecked) {
				t.Errorf("the round's audit: %v", actions)
			}
			doc, err := recordpdf.ReviewRecord(rec, exp.File, exp.FileProblem)
			if err != nil {
				t.Fatal(err)
			}
			text, err := pdftext.Extract(bytes.NewReader(doc), int64(len(doc)))
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(text.Pages, "\n")
			for _, want := range []string{"Compliance findings", "house-guarantee", "Quoted from the label, approved wording.", "Dismissed by"} {
				if !strings.Contains(all, want) {
					t.Errorf("the PDF lacks %q", want)
				}
			}
		})
	}
}
