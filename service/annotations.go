package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/anchor"
	"fairbalance/auth"
)

// Annotations (issue 16), served at /rest/v1/rpc:
//
//	create_annotation(version_id, category, body, target, reference_id?, reference_page?, reference_quote?)
//	reply_annotation(annotation_id, body)
//	resolve_annotation(annotation_id)      reopen_annotation(annotation_id)
//	version_annotations(version_id)
//
// Everyone in the organisation but viewers annotates and replies; the
// thread's author or a reviewer resolves and reopens it; nobody edits
// another's words (there is no edit at all: a thread is a record). Each
// write appends its audit entry in its transaction. A new version takes
// the previous one's open threads, re-anchored (carry, called by
// add_asset_version in its transaction).

// Annotations holds the annotation functions.
type Annotations struct {
	rv *Reviews
}

// Functions are the annotation functions.
func (an *Annotations) Functions() []*FunctionSpec {
	return []*FunctionSpec{
		{Name: "create_annotation", Args: []string{"version_id", "category", "body", "target", "reference_id", "reference_page", "reference_quote"},
			Optional: []string{"reference_id", "reference_page", "reference_quote"},
			ArgTypes: map[string]fairbalance.ColumnType{"target": fairbalance.TypeJSON, "reference_page": fairbalance.TypeInteger},
			Call:     an.createAnnotation},
		{Name: "reply_annotation", Args: []string{"annotation_id", "body"}, Call: an.replyAnnotation},
		{Name: "resolve_annotation", Args: []string{"annotation_id"}, Call: an.setState(fairbalance.AnnotationResolved)},
		{Name: "reopen_annotation", Args: []string{"annotation_id"}, Call: an.setState(fairbalance.AnnotationOpen)},
		{Name: "version_annotations", ReadOnly: true, Args: []string{"version_id"}, Call: an.versionAnnotations},
	}
}

// AnnotationView is an annotation as version_annotations gives it: the
// row, its author's name and the thread's replies.
type AnnotationView struct {
	fairbalance.Annotation
	AuthorName string      `json:"author_name"`
	Replies    []ReplyView `json:"replies"`
}

// ReplyView is a reply with its author's name.
type ReplyView struct {
	ID           string    `json:"id"`
	AnnotationID string    `json:"annotation_id"`
	Body         string    `json:"body"`
	CreatedBy    string    `json:"created_by"`
	AuthorName   string    `json:"author_name"`
	CreatedAt    time.Time `json:"created_at"`
}

// refuseAnnotator refuses callers who may not annotate or reply: anyone
// but a member who is not a viewer (demo sessions only read).
func refuseAnnotator(c fairbalance.Caller, what string) error {
	switch {
	case c.Demo:
		return demoRefusal()
	case !c.InOrg() || c.UserID == "":
		return denied(c, "permission denied for function "+what)
	case c.Member == fairbalance.RoleViewer:
		return denied(c, "Viewers read annotations; they do not write them.")
	}
	return nil
}

// annotatedVersion is what the annotation functions need of a version.
type annotatedVersion struct {
	ID        string
	AssetID   string
	Kind      fairbalance.VersionKind
	MimeType  string
	PageCount int
	Text      []rune
}

// readVersion reads version id of the caller's organisation (nil: none).
func readVersion(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, id string) (*annotatedVersion, error) {
	if !auth.IsUUID(id) {
		return nil, nil
	}
	where := condEq("id", strings.ToLower(id))
	if !c.Service() {
		where = and(where, condEq("org_id", c.OrgID))
	}
	rows, err := readDBRows(ctx, tx, "asset_versions", where, 1,
		selCol("id", fairbalance.TypeText), selCol("asset_id", fairbalance.TypeText), selCol("kind", fairbalance.TypeText),
		selCol("mimetype", fairbalance.TypeText), selCol("page_count", fairbalance.TypeInteger), selCol("plain_text", fairbalance.TypeText))
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	r := rows[0]
	n, _ := r["page_count"].(json.Number).Int64()
	return &annotatedVersion{ID: str(r, "id"), AssetID: str(r, "asset_id"), Kind: fairbalance.VersionKind(str(r, "kind")),
		MimeType: str(r, "mimetype"), PageCount: int(n), Text: []rune(str(r, "plain_text"))}, nil
}

// pages is how many pages a region may be drawn on: a PDF's pages, one
// for an image, none for authored text (which has no pages).
func (v *annotatedVersion) pages() int {
	switch {
	case v.Kind == fairbalance.VersionAuthored:
		return 0
	case strings.HasPrefix(v.MimeType, "image/"):
		return 1
	}
	return max(v.PageCount, 1)
}

func (an *Annotations) createAnnotation(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAnnotator(c, "create_annotation"); err != nil {
		return nil, err
	}
	v, err := readVersion(ctx, tx, c, argString(args, "version_id"))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, notFound("Version")
	}
	a, _, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), v.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	if a.Status == fairbalance.AssetArchived {
		return nil, illegal("The asset is archived; its versions take no new annotations.")
	}
	var in inputCheck
	category := fairbalance.AnnotationCategory(argString(args, "category"))
	if !category.Valid() {
		in.check("category", "The category is one of: "+strings.Join(fairbalance.AnnotationCategoryVocabulary.Values, ", ")+".")
	}
	body := argString(args, "body")
	in.text("body", "The comment", body, 1, fairbalance.MaxAnnotationBody)
	target, problem := an.target(v, args["target"])
	if problem != "" {
		in.check("target", problem)
	}
	ref, refProblem := referenceArgs(ctx, tx, c, args)
	if refProblem.field != "" {
		in.check(refProblem.field, refProblem.msg)
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	now := an.rv.now()
	page, pos := target.SortKey(v.Text)
	row := map[string]any{
		"id": auth.NewUUID(), "org_id": c.OrgID, "asset_id": v.AssetID, "version_id": v.ID, "category": string(category),
		"body": body, "state": string(fairbalance.AnnotationOpen), "anchor_status": string(fairbalance.AnchorAnchored),
		"target": string(mustRaw(target)), "sort_page": page, "sort_pos": pos,
		"reference_id": ref.id, "reference_page": ref.page, "reference_quote": ref.quote,
		"created_by": c.UserID, "created_at": now, "updated_at": now,
	}
	row["thread_id"] = row["id"]
	after, err := insertRow(ctx, tx, AnnotationsTable(), row)
	if err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionAnnotationCreated, "annotations", str(after, "id"), nil, after,
		map[string]any{"asset_id": v.AssetID, "version_id": v.ID}); err != nil {
		return nil, err
	}
	if err := an.notifyMentions(ctx, tx, c, a, body, now); err != nil {
		return nil, err
	}
	return an.view(ctx, tx, str(after, "id"))
}

// target checks and canonicalises a create_annotation target on v; a
// non-empty problem says what is wrong with it.
func (an *Annotations) target(v *annotatedVersion, raw any) (fairbalance.Target, string) {
	var t fairbalance.Target
	b, err := json.Marshal(raw)
	if err == nil {
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		err = dec.Decode(&t)
	}
	if err != nil || raw == nil {
		return t, `The target is {"type":"text","exact","prefix","suffix","start","end"} or {"type":"region","page","x","y","width","height"}.`
	}
	switch t.Type {
	case fairbalance.TargetText:
		if strings.TrimSpace(t.Exact) == "" {
			return t, "A text target quotes the text it points at (exact)."
		}
		if t.QuoteLength() > fairbalance.MaxQuoteLength {
			return t, fmt.Sprintf("The quote is longer than %d characters.", fairbalance.MaxQuoteLength)
		}
		found, ok := anchor.Locate(v.Text, t)
		if !ok {
			return t, "The quoted text is not in this version."
		}
		return found, ""
	case fairbalance.TargetRegion:
		pages := v.pages()
		if pages == 0 {
			return t, "Authored text has no pages: point at its text instead of an area."
		}
		if !t.ValidRegion(pages) {
			return t, fmt.Sprintf("A region is a page from 1 to %d and a box inside it: x, y, width and height between 0 and 1, width and height above 0.", pages)
		}
		return fairbalance.Target{Type: fairbalance.TargetRegion, Page: t.Page, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height}, ""
	}
	return t, `The target's type is "text" or "region".`
}

// referenceArgsValue is a claim-substantiation annotation's passage.
type referenceArgsValue struct {
	id    any // string or nil
	page  any // int64 or nil
	quote string
}

type fieldProblem struct{ field, msg string }

// referenceArgs reads and checks reference_id, reference_page and
// reference_quote: a reference of the caller's organisation, a page it
// has, a passage of at most 2 000 characters; page and quote only with a
// reference.
func referenceArgs(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (referenceArgsValue, fieldProblem) {
	out := referenceArgsValue{quote: argString(args, "reference_quote")}
	id := argString(args, "reference_id")
	page, hasPage := argInt(args, "reference_page")
	if args["reference_page"] != nil && !hasPage {
		return out, fieldProblem{"reference_page", "The reference page is a whole number."}
	}
	if id == "" {
		if hasPage || out.quote != "" {
			return out, fieldProblem{"reference_id", "A page or passage needs the reference it is in."}
		}
		return out, fieldProblem{}
	}
	ref, err := orgRow(ctx, tx, c, ReferencesTable(), id)
	if err != nil || ref == nil {
		return out, fieldProblem{"reference_id", "No such reference in this organisation."}
	}
	out.id = str(ref, "id")
	if hasPage {
		// orgRow decodes numbers as float64, readDBRows as json.Number.
		var n int64
		switch v := ref["page_count"].(type) {
		case json.Number:
			n, _ = v.Int64()
		case float64:
			n = int64(v)
		}
		if page < 1 || (n > 0 && page > n) {
			return out, fieldProblem{"reference_page", fmt.Sprintf("The reference has pages 1 to %d.", max(n, 1))}
		}
		out.page = page
	}
	if utf8.RuneCountInString(out.quote) > 2000 {
		return out, fieldProblem{"reference_quote", "The passage is longer than 2000 characters."}
	}
	return out, fieldProblem{}
}

func (an *Annotations) replyAnnotation(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAnnotator(c, "reply_annotation"); err != nil {
		return nil, err
	}
	row, _, err := mustRowOf[fairbalance.Annotation](ctx, tx, c, AnnotationsTable(), argString(args, "annotation_id"), "Annotation")
	if err != nil {
		return nil, err
	}
	var in inputCheck
	body := argString(args, "body")
	in.text("body", "The reply", body, 1, fairbalance.MaxAnnotationBody)
	if err := in.err(); err != nil {
		return nil, err
	}
	a, _, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), row.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	if a.Status == fairbalance.AssetArchived {
		return nil, illegal("The asset is archived; its threads take no new replies.")
	}
	now := an.rv.now()
	reply, err := insertRow(ctx, tx, AnnotationRepliesTable(), map[string]any{
		"id": auth.NewUUID(), "org_id": row.OrgID, "asset_id": row.AssetID, "thread_id": row.ThreadID, "annotation_id": row.ID,
		"body": body, "created_by": c.UserID, "created_at": now,
	})
	if err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionAnnotationReplied, "annotation_replies", str(reply, "id"), nil, reply,
		map[string]any{"asset_id": row.AssetID, "annotation_id": row.ID, "thread_id": row.ThreadID}); err != nil {
		return nil, err
	}
	if err := an.notifyMentions(ctx, tx, c, a, body, now); err != nil {
		return nil, err
	}
	reply["author_name"], err = personName(ctx, tx, c.UserID)
	return reply, err
}

// setState is resolve_annotation (to resolved) and reopen_annotation (to
// open): by the thread's author or a reviewer.
func (an *Annotations) setState(to fairbalance.AnnotationState) func(context.Context, fairbalance.Tx, fairbalance.Caller, map[string]any) (any, error) {
	verb := map[fairbalance.AnnotationState]string{fairbalance.AnnotationResolved: "resolve", fairbalance.AnnotationOpen: "reopen"}[to]
	action := map[fairbalance.AnnotationState]string{fairbalance.AnnotationResolved: fairbalance.ActionAnnotationResolved, fairbalance.AnnotationOpen: fairbalance.ActionAnnotationReopened}[to]
	return func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
		if err := refuseAnnotator(c, verb+"_annotation"); err != nil {
			return nil, err
		}
		row, before, err := mustRowOf[fairbalance.Annotation](ctx, tx, c, AnnotationsTable(), argString(args, "annotation_id"), "Annotation")
		if err != nil {
			return nil, err
		}
		if row.CreatedBy != c.UserID && !strings.HasPrefix(c.Member, "reviewer_") {
			return nil, denied(c, "Only the thread's author or a reviewer "+verb+"s it.")
		}
		if !row.State.CanTransition(to) {
			return nil, illegal(MsgStatusMove, "annotation", row.State, to)
		}
		now := an.rv.now()
		values := map[string]any{"state": string(to), "updated_at": now, "resolved_by": nil, "resolved_at": nil}
		if to == fairbalance.AnnotationResolved {
			values["resolved_by"], values["resolved_at"] = c.UserID, now
		}
		after, err := updateRow(ctx, tx, AnnotationsTable(), row.ID, values, condEq("state", string(row.State)))
		if err != nil {
			return nil, err
		}
		if after == nil {
			return nil, illegal("The annotation changed meanwhile; reload it and try again.")
		}
		if err := auditReview(ctx, tx, c, action, "annotations", row.ID, before, after,
			map[string]any{"asset_id": row.AssetID, "thread_id": row.ThreadID}); err != nil {
			return nil, err
		}
		return an.view(ctx, tx, row.ID)
	}
}

func (an *Annotations) versionAnnotations(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if !c.InOrg() && !c.Service() {
		return nil, denied(c, "permission denied for function version_annotations")
	}
	v, err := readVersion(ctx, tx, c, argString(args, "version_id"))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, notFound("Version")
	}
	return an.ForVersion(ctx, tx, c, v.ID)
}

// ForVersion lists the annotations on version versionID of the caller's
// organisation in reading order (page, then place on it, then time), each
// with its author's name and its thread's replies, oldest first. A version
// of another organisation has none.
func (an *Annotations) ForVersion(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, versionID string) ([]AnnotationView, error) {
	where := condEq("version_id", versionID)
	if !c.Service() {
		where = and(where, condEq("org_id", c.OrgID))
	}
	rows, _, err := rowsOf[fairbalance.Annotation](ctx, tx, AnnotationsTable(), where,
		fairbalance.OrderTerm{Column: "sort_page"}, fairbalance.OrderTerm{Column: "sort_pos"},
		fairbalance.OrderTerm{Column: "created_at"}, fairbalance.OrderTerm{Column: "id"})
	if err != nil {
		return nil, err
	}
	return an.views(ctx, tx, rows)
}

// view is the annotation id as version_annotations gives it.
func (an *Annotations) view(ctx context.Context, tx fairbalance.Tx, id string) (*AnnotationView, error) {
	rows, _, err := rowsOf[fairbalance.Annotation](ctx, tx, AnnotationsTable(), condEq("id", id))
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	views, err := an.views(ctx, tx, rows)
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// views adds authors' names and replies to rows, in two reads whatever
// their number.
func (an *Annotations) views(ctx context.Context, tx fairbalance.Tx, rows []fairbalance.Annotation) ([]AnnotationView, error) {
	out := make([]AnnotationView, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	threads := make([]any, 0, len(rows))
	for _, r := range rows {
		threads = append(threads, r.ThreadID)
	}
	replies, _, err := rowsOf[fairbalance.AnnotationReply](ctx, tx, AnnotationRepliesTable(), condIn("thread_id", threads),
		fairbalance.OrderTerm{Column: "created_at"}, fairbalance.OrderTerm{Column: "id"})
	if err != nil {
		return nil, err
	}
	var people []any
	for _, r := range rows {
		people = append(people, r.CreatedBy)
	}
	for _, r := range replies {
		people = append(people, r.CreatedBy)
	}
	names, err := personNames(ctx, tx, people)
	if err != nil {
		return nil, err
	}
	byThread := map[string][]ReplyView{}
	for _, r := range replies {
		byThread[r.ThreadID] = append(byThread[r.ThreadID], ReplyView{ID: r.ID, AnnotationID: r.AnnotationID, Body: r.Body,
			CreatedBy: r.CreatedBy, AuthorName: names[r.CreatedBy], CreatedAt: r.CreatedAt})
	}
	for i, r := range rows {
		out[i] = AnnotationView{Annotation: r, AuthorName: names[r.CreatedBy], Replies: byThread[r.ThreadID]}
		if out[i].Replies == nil {
			out[i].Replies = []ReplyView{}
		}
	}
	return out, nil
}

// personNames maps member ids to their full names (the e-mail when a
// member has no name).
func personNames(ctx context.Context, tx fairbalance.Tx, ids []any) (map[string]string, error) {
	slices.SortFunc(ids, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	ids = slices.Compact(ids)
	rows, err := readDBRows(ctx, tx, "profiles_v2", condIn("id", ids), 0, selCol("id", fairbalance.TypeText), selCol("full_name", fairbalance.TypeText))
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[str(r, "id")] = strings.TrimSpace(str(r, "full_name"))
	}
	for _, id := range ids {
		if out[id.(string)] != "" {
			continue
		}
		if u, err := tx.UserByID(ctx, id.(string)); err == nil {
			out[id.(string)] = u.Email
		}
	}
	return out, nil
}

func personName(ctx context.Context, tx fairbalance.Tx, id string) (string, error) {
	names, err := personNames(ctx, tx, []any{id})
	return names[id], err
}

// notifyMentions notifies each active member of the asset's organisation
// whose name the text mentions ("@Full Name", any case), but the writer.
func (an *Annotations) notifyMentions(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, a *fairbalance.Asset, text string, now time.Time) error {
	if !strings.Contains(text, "@") {
		return nil
	}
	rows, err := readDBRows(ctx, tx, "profiles_v2", and(condEq("org_id", a.OrgID), &fairbalance.Cond{Column: "deactivated_at", Operator: "is"}), 0,
		selCol("id", fairbalance.TypeText), selCol("full_name", fairbalance.TypeText))
	if err != nil {
		return err
	}
	lower := strings.ToLower(text)
	var to []string
	for _, r := range rows {
		name := strings.ToLower(strings.TrimSpace(str(r, "full_name")))
		if name != "" && mentions(lower, name) {
			to = append(to, str(r, "id"))
		}
	}
	if len(to) == 0 {
		return nil
	}
	who, err := personName(ctx, tx, c.UserID)
	if err != nil {
		return err
	}
	excerpt := text
	if utf8.RuneCountInString(excerpt) > 200 {
		excerpt = string([]rune(excerpt)[:199]) + "…"
	}
	w := &workflow{rv: an.rv, c: c, now: now}
	return w.notify(ctx, tx, a.OrgID, to, fairbalance.NotifyMentioned, fmt.Sprintf("%s mentioned you on %s", who, a.Title), excerpt, a.ID, "", "")
}

// mentions reports whether text (lower case) has "@name" followed by the
// end or a character that cannot continue a name.
func mentions(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "@"+name)
		if j < 0 {
			return false
		}
		end := i + j + 1 + len(name)
		if end == len(text) {
			return true
		}
		r, _ := utf8.DecodeRuneInString(text[end:])
		if !isNameRune(r) {
			return true
		}
		i = end
	}
}

func isNameRune(r rune) bool {
	return r == '-' || r == '\'' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && !strings.ContainsRune("…–—’”", r)
}

// orphanedPage is the sort page of orphaned annotations: after every page.
const orphanedPage = 1 << 30

// carry takes the open threads of version prevID onto the new version v
// (in add_asset_version's transaction), each re-anchored on v's text.
func (an *Annotations) carry(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, prevID string, v map[string]any) error {
	rows, _, err := rowsOf[fairbalance.Annotation](ctx, tx, AnnotationsTable(),
		and(condEq("version_id", prevID), condEq("state", string(fairbalance.AnnotationOpen))),
		fairbalance.OrderTerm{Column: "sort_page"}, fairbalance.OrderTerm{Column: "sort_pos"}, fairbalance.OrderTerm{Column: "id"})
	if err != nil || len(rows) == 0 {
		return err
	}
	old, err := readVersion(ctx, tx, fairbalance.Caller{Role: "service_role"}, prevID)
	if err != nil || old == nil {
		return err
	}
	next, err := readVersion(ctx, tx, fairbalance.Caller{Role: "service_role"}, str(v, "id"))
	if err != nil || next == nil {
		return err
	}
	carrier := anchor.NewCarrier(old.Text, next.Text, next.pages())
	now := an.rv.now()
	counts := map[fairbalance.AnchorStatus]int{}
	cols := []string{"id", "org_id", "asset_id", "version_id", "thread_id", "category", "body", "state", "anchor_status", "target",
		"sort_page", "sort_pos", "reference_id", "reference_page", "reference_quote", "created_by", "created_at", "updated_at", "carried_from"}
	batch := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		t, status := carrier.Carry(r.Target)
		counts[status]++
		page, pos := t.SortKey(next.Text)
		if status == fairbalance.AnchorOrphaned {
			// Listed after everything found, in the old version's order.
			_, pos = r.Target.SortKey(old.Text)
			page = orphanedPage
		}
		batch = append(batch, map[string]any{
			"id": auth.NewUUID(), "org_id": r.OrgID, "asset_id": r.AssetID, "version_id": next.ID, "thread_id": r.ThreadID,
			"category": string(r.Category), "body": r.Body, "state": string(fairbalance.AnnotationOpen), "anchor_status": string(status),
			"target": string(mustRaw(t)), "sort_page": page, "sort_pos": pos,
			"reference_id": r.ReferenceID, "reference_page": r.ReferencePage, "reference_quote": r.ReferenceQuote,
			"created_by": r.CreatedBy, "created_at": r.CreatedAt, "updated_at": now, "carried_from": r.ID,
		})
	}
	if _, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "annotations", Columns: cols, Rows: batch}); err != nil {
		return err
	}
	return auditReview(ctx, tx, c, fairbalance.ActionAnnotationsCarried, "asset_versions", next.ID, nil, nil, map[string]any{
		"asset_id": next.AssetID, "from_version_id": prevID, "threads": len(rows),
		"anchored": counts[fairbalance.AnchorAnchored], "moved": counts[fairbalance.AnchorMoved], "orphaned": counts[fairbalance.AnchorOrphaned],
	})
}
