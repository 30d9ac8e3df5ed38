package service_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

// Annotations (issue 16): who may write them, what a target must be, the
// threads carried onto a new version with their anchor status, mentions,
// and change requests that point at an annotation.

const annotatedHTML = "<p>Zelvora lowers LDL-C by half in twelve weeks.</p>" +
	"<p>Most patients reached their goal.</p>" +
	"<p>Important safety information: Zelvora can cause liver problems.</p>" +
	"<p>Ask your doctor whether Zelvora is right for you.</p>"

func textTarget(exact string) map[string]any {
	return map[string]any{"type": "text", "exact": exact}
}

// annotations lists version_annotations(versionID) as c.
func (e *reviewEnv) annotations(t *testing.T, c fairbalance.Caller, versionID string) []map[string]any {
	t.Helper()
	raw, err := e.data.Call(e.ctx, c, "version_annotations", map[string]any{"version_id": versionID}, false)
	if err != nil {
		t.Fatalf("version_annotations as %s: %v", c.Member, err)
	}
	var out []map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func (e *reviewEnv) annotatedAsset(t *testing.T) (asset map[string]any, versionID string) {
	t.Helper()
	a, err := e.call(e.own[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": "Annotated email", "type": "email", "audience": "hcp",
		"channel": "Email", "market": "US", "product_id": e.product["id"], "content_html": annotatedHTML})
	if err != nil {
		t.Fatal(err)
	}
	return a, a["current_version_id"].(string)
}

func TestAnnotationPermissions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			_, vid := e.annotatedAsset(t)
			threads := map[string]string{} // role → its thread
			for _, role := range fairbalance.Roles {
				c := e.own[role]
				out, err := e.call(c, "create_annotation", map[string]any{"version_id": vid, "category": "editorial",
					"body": "A point from " + role, "target": textTarget("Most patients")})
				want := "ok"
				if role == fairbalance.RoleViewer {
					want = refusedForbidden
				}
				if got := errKind(err); got != want {
					t.Fatalf("create_annotation as %s: %s, want %s", role, got, want)
				}
				if err == nil {
					threads[role] = out["id"].(string)
					if out["thread_id"] != out["id"] || out["state"] != "open" || out["anchor_status"] != "anchored" || out["author_name"] != role {
						t.Fatalf("created: %v", out)
					}
				}
				_, err = e.call(c, "reply_annotation", map[string]any{"annotation_id": threads[fairbalance.RoleOwner], "body": "A reply from " + role})
				if got := errKind(err); got != want {
					t.Fatalf("reply_annotation as %s: %s, want %s", role, got, want)
				}
			}
			// Another organisation sees none of it and cannot write to it.
			other := e.members["other"][fairbalance.RoleAdmin]
			if _, err := e.call(other, "create_annotation", map[string]any{"version_id": vid, "category": "other", "body": "x", "target": textTarget("Most")}); errKind(err) != refusedNotFound {
				t.Fatalf("other org create: %s", errKind(err))
			}
			if _, err := e.call(other, "reply_annotation", map[string]any{"annotation_id": threads[fairbalance.RoleOwner], "body": "x"}); errKind(err) != refusedNotFound {
				t.Fatalf("other org reply: %s", errKind(err))
			}
			if _, err := e.call(other, "version_annotations", map[string]any{"version_id": vid}); errKind(err) != refusedNotFound {
				t.Fatalf("other org list: %s", errKind(err))
			}
			// Resolve: the thread's author or a reviewer; reopen likewise.
			author := threads[fairbalance.RoleMarketer]
			for _, role := range fairbalance.Roles {
				_, err := e.call(e.own[role], "resolve_annotation", map[string]any{"annotation_id": author})
				want := refusedForbidden
				if role == fairbalance.RoleMarketer || strings.HasPrefix(role, "reviewer_") {
					want = "ok"
				}
				if got := errKind(err); got != want {
					t.Fatalf("resolve_annotation as %s: %s, want %s", role, got, want)
				}
				if err == nil {
					if _, err := e.call(e.own[role], "resolve_annotation", map[string]any{"annotation_id": author}); errKind(err) != refusedConflict {
						t.Fatalf("resolving twice: %s", errKind(err))
					}
					row := e.must(t, e.own[role], "reopen_annotation", map[string]any{"annotation_id": author})
					if row["state"] != "open" || row["resolved_by"] != nil {
						t.Fatalf("reopened: %v", row)
					}
				}
			}
			list := e.annotations(t, e.own[fairbalance.RoleViewer], vid)
			if len(list) != 6 {
				t.Fatalf("%d annotations, want 6 (every role but the viewer)", len(list))
			}
			for _, a := range list {
				replies := a["replies"].([]any)
				if a["id"] == threads[fairbalance.RoleOwner] && len(replies) != 6 {
					t.Fatalf("owner's thread has %d replies, want 6", len(replies))
				}
			}
			if n := e.auditCount(t, fairbalance.ActionAnnotationCreated); n != 6 {
				t.Fatalf("%d creation entries", n)
			}
			if n := e.auditCount(t, fairbalance.ActionAnnotationReplied); n != 6 {
				t.Fatalf("%d reply entries", n)
			}
		})
	}
}

func TestAnnotationTargets(t *testing.T) {
	e := newReviewEnv(t, "sqlite")
	_, vid := e.annotatedAsset(t)
	m := e.own[fairbalance.RoleReviewerMedical]
	create := func(args map[string]any) (map[string]any, error) {
		full := map[string]any{"version_id": vid, "category": "claim_needs_reference", "body": "Needs a reference."}
		for k, v := range args {
			full[k] = v
		}
		return e.call(m, "create_annotation", full)
	}
	// A quote is located in the version's text whatever its line breaks;
	// the server keeps the canonical quote and offsets.
	out, err := create(map[string]any{"target": map[string]any{"type": "text", "exact": "lowers LDL-C by\nhalf", "prefix": "Zelvora "}})
	if err != nil {
		t.Fatal(err)
	}
	target := out["target"].(map[string]any)
	text := []rune(e.row(t, "asset_versions", vid)["plain_text"].(string))
	start, end := mustNumber(t, target["start"]), mustNumber(t, target["end"])
	if string(text[start:end]) != "lowers LDL-C by half" || target["exact"] != "lowers LDL-C by half" || !strings.HasSuffix(target["prefix"].(string), "Zelvora ") {
		t.Fatalf("target %v", target)
	}
	for name, tc := range map[string]struct {
		args  map[string]any
		field string
	}{
		"a quote that is not there":     {map[string]any{"target": textTarget("lowers blood pressure")}, "target"},
		"an empty quote":                {map[string]any{"target": textTarget("  ")}, "target"},
		"no target":                     {map[string]any{"target": nil}, "target"},
		"an unknown target type":        {map[string]any{"target": map[string]any{"type": "circle"}}, "target"},
		"an unknown target field":       {map[string]any{"target": map[string]any{"type": "text", "exact": "Zelvora", "colour": "red"}}, "target"},
		"a region on authored text":     {map[string]any{"target": map[string]any{"type": "region", "page": 1, "x": 0.1, "y": 0.1, "width": 0.2, "height": 0.2}}, "target"},
		"an unknown category":           {map[string]any{"category": "spelling", "target": textTarget("Zelvora")}, "category"},
		"an empty body":                 {map[string]any{"body": " ", "target": textTarget("Zelvora")}, "body"},
		"a body too long":               {map[string]any{"body": strings.Repeat("x", 5001), "target": textTarget("Zelvora")}, "body"},
		"a reference of no one":         {map[string]any{"reference_id": "00000000-0000-4000-8000-00000000abcd", "target": textTarget("Zelvora")}, "reference_id"},
		"a passage without a reference": {map[string]any{"reference_quote": "p. 4", "target": textTarget("Zelvora")}, "reference_id"},
	} {
		_, err := create(tc.args)
		if got := errKind(err); !strings.HasPrefix(got, "invalid/") {
			t.Fatalf("%s: %s, want a 400", name, got)
		}
		if f := fieldsOf(err); f[tc.field] == "" {
			t.Fatalf("%s: fields %v, want %s", name, f, tc.field)
		}
	}
	// A reference of the organisation, with a page and passage.
	ref := mustInsert(t, e.matrixEnv, e.own[fairbalance.RoleMarketer], "references", map[string]any{"title": "ZEN-1 study", "citation": "Doe J. Lancet 2025;1:1."})
	out, err = create(map[string]any{"target": textTarget("in twelve weeks"), "reference_id": ref["id"], "reference_page": 1, "reference_quote": "LDL-C fell by 50% at week 12"})
	if err != nil {
		t.Fatal(err)
	}
	if out["reference_id"] != ref["id"] || out["reference_quote"] != "LDL-C fell by 50% at week 12" || fmt.Sprint(out["reference_page"]) != "1" {
		t.Fatalf("reference: %v", out)
	}
	// Nothing refused was written.
	if n := len(e.annotations(t, m, vid)); n != 2 {
		t.Fatalf("%d annotations, want 2", n)
	}
}

func TestAnnotationsCarriedForward(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			a, v1 := e.annotatedAsset(t)
			med, mkt := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleMarketer]
			make1 := func(quote, body string) string {
				return e.must(t, med, "create_annotation", map[string]any{"version_id": v1, "category": "editorial", "body": body, "target": textTarget(quote)})["id"].(string)
			}
			stays := make1("lowers LDL-C by half", "Stays put.")
			moves := make1("Most patients reached their goal.", "Moves to the end.")
			goes := make1("can cause liver problems", "Deleted in v2.")
			done := make1("twelve weeks", "Resolved before v2.")
			e.must(t, med, "resolve_annotation", map[string]any{"annotation_id": done})
			e.must(t, mkt, "reply_annotation", map[string]any{"annotation_id": moves, "body": "Will move it."})

			v2 := e.must(t, mkt, "add_asset_version", map[string]any{"asset_id": a["id"], "change_note": "Reordered",
				"content_html": "<p>New opening line.</p><p>Zelvora lowers LDL-C by half in twelve weeks.</p>" +
					"<p>Ask your doctor whether Zelvora is right for you.</p><p>Most patients reached their goal.</p>"})
			list := e.annotations(t, e.own[fairbalance.RoleViewer], v2["id"].(string))
			byThread := map[string]map[string]any{}
			for _, x := range list {
				byThread[x["thread_id"].(string)] = x
			}
			if len(list) != 3 || byThread[done] != nil {
				t.Fatalf("%d threads carried (resolved one: %v), want the 3 open ones", len(list), byThread[done] != nil)
			}
			text := []rune(v2["plain_text"].(string))
			for thread, want := range map[string]string{stays: "anchored", moves: "moved", goes: "orphaned"} {
				x := byThread[thread]
				if x["anchor_status"] != want || x["carried_from"] != thread || x["version_id"] != v2["id"] {
					t.Fatalf("thread %s: %v, want %s", x["body"], x, want)
				}
				target := x["target"].(map[string]any)
				if want != "orphaned" {
					s, e := mustNumber(t, target["start"]), mustNumber(t, target["end"])
					if string(text[s:e]) != target["exact"] {
						t.Fatalf("%s: offsets [%d,%d) hold %q, not %q", x["body"], s, e, string(text[s:e]), target["exact"])
					}
				}
			}
			if got := byThread[goes]["target"].(map[string]any)["exact"]; got != "can cause liver problems" {
				t.Fatalf("the orphan keeps its old quote: %v", got)
			}
			// Reading order: found ones by place, the orphan last.
			if list[len(list)-1]["thread_id"] != goes {
				t.Fatalf("the orphan is not listed last: %v", list)
			}
			// The thread continues: the reply is on v2, and a reply on v2 shows on v1.
			if r := byThread[moves]["replies"].([]any); len(r) != 1 {
				t.Fatalf("replies on v2: %v", r)
			}
			e.must(t, med, "reply_annotation", map[string]any{"annotation_id": byThread[moves]["id"], "body": "Thanks."})
			for _, x := range e.annotations(t, med, v1) {
				if x["id"] == moves && len(x["replies"].([]any)) != 2 {
					t.Fatalf("v1's row of the thread shows %v", x["replies"])
				}
			}
			if n := e.auditCount(t, fairbalance.ActionAnnotationsCarried); n != 1 {
				t.Fatalf("%d carry entries", n)
			}
		})
	}
}

func TestAnnotationMentionsNotify(t *testing.T) {
	e := newReviewEnv(t, "sqlite")
	_, vid := e.annotatedAsset(t)
	med, legal := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal]
	an := e.must(t, med, "create_annotation", map[string]any{"version_id": vid, "category": "legal", "body": "@reviewer_legal, is this claim fine?",
		"target": textTarget("Most patients")})
	got := e.notifications(t, legal, "mentioned")
	if len(got) != 1 || got[0]["asset_id"] == nil || !strings.Contains(got[0]["title"].(string), "reviewer_medical mentioned you") {
		t.Fatalf("notifications %v", got)
	}
	// A name that merely begins the same way is no mention; the writer is never notified.
	e.must(t, legal, "reply_annotation", map[string]any{"annotation_id": an["id"], "body": "Fine. @reviewer_medicals and @reviewer_legal"})
	if n := len(e.notifications(t, legal, "mentioned")); n != 1 {
		t.Fatalf("%d mentions of the writer", n)
	}
	if n := len(e.notifications(t, med, "mentioned")); n != 0 {
		t.Fatalf("%d mentions of a longer name", n)
	}
}

func TestChangeRequestPointsAtAnnotation(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			a := e.asset(t, "Pointed")
			vid := a["current_version_id"].(string)
			med := e.own[fairbalance.RoleReviewerMedical]
			an := e.must(t, med, "create_annotation", map[string]any{"version_id": vid, "category": "claim_needs_reference", "body": "Cite it.",
				"target": textTarget("lowers LDL-C by half")})
			_, steps := e.submit(t, a["id"].(string))
			step := steps["reviewer_medical"]["id"].(string)
			// An annotation of no version under review is refused, nothing signed.
			if _, err := e.decide(med, step, "changes_requested", "change_requests", []any{map[string]any{"text": "x", "annotation_id": "00000000-0000-4000-8000-00000000abcd"}}); !strings.HasPrefix(errKind(err), "invalid/") {
				t.Fatalf("unknown annotation: %s", errKind(err))
			}
			out := e.mustDecide(t, med, step, "changes_requested", "change_requests", []any{
				map[string]any{"text": "Cite the ZEN-1 study.", "annotation_id": an["id"]}, "Fix the typo."})
			crs := out["change_requests"].([]any)
			first, second := crs[0].(map[string]any), crs[1].(map[string]any)
			if first["annotation_id"] != an["id"] || first["thread_id"] != an["thread_id"] || second["annotation_id"] != nil {
				t.Fatalf("change requests %s", fmt.Sprint(crs))
			}
		})
	}
}

// checkAnnotationMatrix is the permission matrix's part for annotations:
// members read their organisation's threads and replies and write them
// only through the functions; viewers and the anonymous write nothing;
// another organisation's objects are not found.
func checkAnnotationMatrix(t *testing.T, m *matrixEnv, tested map[string]bool, check func(string, bool)) {
	anon := fairbalance.Caller{Role: "anon"}
	threads := map[string]string{}
	versions := map[string]string{}
	for _, org := range []string{"own", "other"} {
		mem := m.members[org]
		a, err := callErr(m, mem[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": "Annotated", "type": "email", "audience": "hcp",
			"channel": "Email", "market": "US", "content_html": annotatedHTML})
		if err != nil {
			t.Fatal(err)
		}
		versions[org] = a["current_version_id"].(string)
		an, err := callErr(m, mem[fairbalance.RoleReviewerMedical], "create_annotation", map[string]any{"version_id": versions[org], "category": "editorial",
			"body": "A point.", "target": map[string]any{"type": "text", "exact": "Most patients"}})
		if err != nil {
			t.Fatal(err)
		}
		threads[org] = an["id"].(string)
		if _, err := callErr(m, mem[fairbalance.RoleMarketer], "reply_annotation", map[string]any{"annotation_id": threads[org], "body": "Noted."}); err != nil {
			t.Fatal(err)
		}
	}
	own, other := m.members["own"], m.members["other"]
	for _, table := range []string{"annotations", "annotation_replies"} {
		tested[table] = true
		for _, role := range fairbalance.Roles {
			c := own[role]
			rows := readRows(t, m, c, table, "select=*")
			check(fmt.Sprintf("%s sees no %s", role, table), len(rows) > 0)
			for _, r := range rows {
				check(fmt.Sprintf("%s sees %s of %v", role, table, r["org_id"]), r["org_id"] == m.orgs["own"])
			}
			_, err := m.data.Insert(m.ctx, c, table, req(t, ""), []byte(`{"body":"x"}`))
			check(fmt.Sprintf("%s inserts into %s", role, table), denied(err))
			_, err = m.data.Update(m.ctx, c, table, req(t, "id=eq."+threads["own"]), []byte(`{"body":"Edited"}`))
			check(fmt.Sprintf("%s edits %s", role, table), denied(err))
			_, err = m.data.Delete(m.ctx, c, table, req(t, "id=eq."+threads["own"]))
			check(fmt.Sprintf("%s deletes %s", role, table), denied(err))
		}
		_, err := m.data.Read(m.ctx, anon, table, req(t, "select=*"))
		check("anonymous reads "+table, denied(err))
	}
	for _, fn := range []string{"create_annotation", "reply_annotation", "resolve_annotation", "reopen_annotation", "version_annotations"} {
		tested["rpc:"+fn] = true
	}
	calls := map[string]map[string]any{
		"create_annotation":   {"version_id": versions["own"], "category": "other", "body": "x", "target": map[string]any{"type": "text", "exact": "Zelvora"}},
		"reply_annotation":    {"annotation_id": threads["own"], "body": "x"},
		"resolve_annotation":  {"annotation_id": threads["own"]},
		"version_annotations": {"version_id": versions["own"]},
	}
	for fn, args := range calls {
		for _, role := range fairbalance.Roles {
			_, err := m.data.Call(m.ctx, own[role], fn, args, false)
			may := role != fairbalance.RoleViewer || fn == "version_annotations"
			if fn == "resolve_annotation" {
				may = strings.HasPrefix(role, "reviewer_")
			}
			if err == nil && fn == "resolve_annotation" {
				_, err = m.data.Call(m.ctx, own[role], "reopen_annotation", args, false)
				check(fmt.Sprintf("%s reopens: %v", role, err), err == nil)
			}
			check(fmt.Sprintf("%s calls %s: %v", role, fn, err), (err == nil) == may)
			_, err = m.data.Call(m.ctx, other[role], fn, args, false)
			check(fmt.Sprintf("%s of another organisation calls %s: %v", role, fn, err), err != nil)
		}
		_, err := m.data.Call(m.ctx, anon, fn, args, false)
		check("anonymous calls "+fn, denied(err))
	}
}
