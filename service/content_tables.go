package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"fairbalance"
)

// The content model (issue 5) as the data API serves it: products,
// assets, asset_versions, version_modules, references (table
// content_references), claims, claim_references and modules.
//
// Every row belongs to one organisation: org_id is set from the caller and
// rows of another organisation are invisible. Every member reads; owners
// and admins write products; owners, admins and marketers write the rest;
// reviewers and viewers only read. Claims and modules are pre-approved
// content, so their status is a decision: marketers author drafts, only
// reviewers and administrators set any other status (and reviewers change
// nothing else), see contentStatusRule, on every write: an upsert's merge
// follows the update's rule. Decided claims and modules stay on record:
// only administrators delete them (contentDeleteRule). Assets and their versions change
// through the content functions (content.go), which keep a version and its
// asset consistent; versions are insert-only.

func orgDefault(c fairbalance.Caller, _ time.Time) any     { return c.OrgID }
func creatorDefault(c fairbalance.Caller, _ time.Time) any { return c.UserID }
func constDefault(v any) func(fairbalance.Caller, time.Time) any {
	return func(fairbalance.Caller, time.Time) any { return v }
}

// contentColumns wraps a table's own columns with the columns every
// content table has: id and org_id first, then who created it and when.
func contentColumns(own ...ColumnSpec) []ColumnSpec {
	cols := []ColumnSpec{
		{Name: "id", Type: fairbalance.TypeUUID, ServerSet: true, Default: uuidDefault},
		{Name: "org_id", Type: fairbalance.TypeUUID, ServerSet: true, Default: orgDefault},
	}
	cols = append(cols, own...)
	return append(cols,
		ColumnSpec{Name: "created_by", Type: fairbalance.TypeUUID, ServerSet: true, Default: creatorDefault},
		ColumnSpec{Name: "created_at", Type: fairbalance.TypeTimestamp, ServerSet: true, Default: nowDefault},
		ColumnSpec{Name: "updated_at", Type: fairbalance.TypeTimestamp, ServerSet: true, Default: nowDefault},
	)
}

func textCol(name string, def string) ColumnSpec {
	return ColumnSpec{Name: name, Type: fairbalance.TypeText, Default: constDefault(def)}
}

// enumCol is a text column holding a value of a domain vocabulary; def ""
// means no default (the value is required).
func enumCol(name string, v *fairbalance.Vocabulary, def string) ColumnSpec {
	c := ColumnSpec{Name: name, Type: fairbalance.TypeText, Enum: v}
	if def != "" {
		c.Default = constDefault(def)
	}
	return c
}

func nullableText(name string) ColumnSpec {
	return ColumnSpec{Name: name, Type: fairbalance.TypeText, Nullable: true}
}

// checkViolation is a refused value: a 400 with code 23514 whose message
// says what is wrong in words a user understands.
func checkViolation(table, constraint, msg string) error {
	return constrained(pgErr(fairbalance.KindInvalid, "23514", msg, fmt.Sprintf("new row for relation \"%s\" violates check constraint \"%s\"", table, constraint), ""), constraint)
}

// fkViolation is a missing or foreign row (23503, as PostgREST answers).
func fkViolation(table, constraint, msg string) error {
	return constrained(pgErr(fairbalance.KindConflict, "23503", msg, fmt.Sprintf("insert or update on table \"%s\" violates foreign key constraint \"%s\"", table, constraint), ""), constraint)
}

// uniqueViolation is a duplicate (23505).
func uniqueViolation(table, constraint, msg string) error {
	return constrained(pgErr(fairbalance.KindConflict, "23505", msg, fmt.Sprintf("duplicate key value violates unique constraint \"%s\" on \"%s\"", constraint, table), ""), constraint)
}

// constrained names the violated constraint on a refusal.
func constrained(e *fairbalance.Error, constraint string) *fairbalance.Error {
	e.Constraint = constraint
	return e
}

// fieldCheck validates the fields of one row being inserted (all=true:
// absent required fields are checked as empty) or updated (only the given
// fields).
type fieldCheck struct {
	table string
	row   map[string]any
	all   bool
}

func (f fieldCheck) has(k string) bool {
	if f.all {
		return true
	}
	_, ok := f.row[k]
	return ok
}

// refuse is a refused value of field k: a check violation of the
// constraint <table>_<k>_check, with msg as the field's message.
func (f fieldCheck) refuse(k, msg string) error {
	return onField(checkViolation(f.table, f.table+"_"+k+"_check", msg), k)
}

// text checks a text field's length in characters (after trimming).
func (f fieldCheck) text(k, label string, minLen, maxLen int) error {
	if !f.has(k) {
		return nil
	}
	s, _ := f.row[k].(string)
	if msg := textProblem(label, s, minLen, maxLen); msg != "" {
		return f.refuse(k, msg)
	}
	return nil
}

// textProblem says what is wrong with a text of minLen to maxLen
// characters (after trimming); "" when nothing is.
func textProblem(label, s string, minLen, maxLen int) string {
	n := utf8.RuneCountInString(strings.TrimSpace(s))
	switch {
	case n < minLen && minLen == 1:
		return label + " is required."
	case n < minLen || n > maxLen:
		return fmt.Sprintf("%s must be %d to %d characters long.", label, minLen, maxLen)
	}
	return ""
}

// dateProblem says what is wrong with a date written YYYY-MM-DD; "" when
// nothing is.
func dateProblem(label, s string) string {
	if _, err := time.Parse("2006-01-02", s); err != nil {
		return label + " must be a date written YYYY-MM-DD."
	}
	return ""
}

// chosen refuses a new row without a value of v for k, a column without
// a default (the registry refuses a value outside v wherever one is given).
func (f fieldCheck) chosen(k, label string, v fairbalance.Vocabulary) error {
	if s, _ := f.row[k].(string); !f.all || v.Has(s) {
		return nil
	}
	return f.refuse(k, v.Refusal(label))
}

// date checks a nullable 'YYYY-MM-DD' field.
func (f fieldCheck) date(k, label string) error {
	v, ok := f.row[k]
	if !ok || v == nil {
		return nil
	}
	s, _ := v.(string)
	if msg := dateProblem(label, s); msg != "" {
		return f.refuse(k, msg)
	}
	return nil
}

// strings checks a text[] field (JSON text once converted): an array of
// at most maxItems non-empty strings of at most maxLen characters.
func (f fieldCheck) strings(k, label string, maxItems, maxLen int) error {
	v, ok := f.row[k]
	if !ok || v == nil {
		return nil
	}
	s, _ := v.(string)
	var items []string
	if err := json.Unmarshal([]byte(s), &items); err != nil {
		return f.refuse(k, label+" must be a list of texts.")
	}
	if len(items) > maxItems {
		return f.refuse(k, fmt.Sprintf("%s may hold at most %d entries.", label, maxItems))
	}
	for _, it := range items {
		if n := utf8.RuneCountInString(strings.TrimSpace(it)); n == 0 || n > maxLen {
			return f.refuse(k, fmt.Sprintf("Each of %s must be 1 to %d characters long.", strings.ToLower(label), maxLen))
		}
	}
	return nil
}

// firstError returns the first non-nil error. When it is a refusal of a
// field, its Fields gather the message of every refused field among errs,
// so that a form can show them all at once; the message stays the first's.
func firstError(errs ...error) error {
	var first error
	var fields map[string]string
	for _, err := range errs {
		if err == nil {
			continue
		}
		if first == nil {
			first = err
		}
		if e := fairbalance.AsError(err); e != nil {
			for k, msg := range e.Fields {
				if fields == nil {
					fields = map[string]string{}
				}
				if _, seen := fields[k]; !seen {
					fields[k] = msg
				}
			}
		}
	}
	e := fairbalance.AsError(first)
	if e == nil || len(e.Fields) == 0 || len(fields) == len(e.Fields) {
		return first
	}
	all := *e
	all.Fields = fields
	return &all
}

// onField names the field a refusal is about, with its message.
func onField(err error, field string) error {
	if e := fairbalance.AsError(err); e != nil {
		e.Fields = map[string]string{field: e.Message}
	}
	return err
}

// readRows reads rows of a database table with the given columns (all
// read as text but those typed in types).
func readDBRows(ctx context.Context, tx fairbalance.Tx, table string, where *fairbalance.Cond, limit int, cols ...fairbalance.SelectColumn) ([]map[string]any, error) {
	raw, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: table, Columns: cols, Where: where, Limit: limit})
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

func selCol(name string, typ fairbalance.ColumnType) fairbalance.SelectColumn {
	return fairbalance.SelectColumn{Column: name, Alias: name, Type: typ}
}

func condEq(col string, v any) *fairbalance.Cond {
	return &fairbalance.Cond{Column: col, Operator: "eq", Value: v}
}

func condIn(col string, vs []any) *fairbalance.Cond {
	return &fairbalance.Cond{Column: col, Operator: "in", Values: vs}
}

// inOrg reports whether the row id of table belongs to orgID.
func inOrg(ctx context.Context, tx fairbalance.Tx, table, id, orgID string) (bool, error) {
	rows, err := readDBRows(ctx, tx, table, and(condEq("id", id), condEq("org_id", orgID)), 1, selCol("id", fairbalance.TypeText))
	return len(rows) == 1, err
}

// orgRef checks that a nullable reference column of row names a row of
// the caller's organisation in table (23503 otherwise, as for a missing row).
func orgRef(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, table string, row map[string]any, col, target, what string) error {
	v, ok := row[col]
	if !ok || v == nil {
		return nil
	}
	id, _ := v.(string)
	if c.Service() {
		return nil
	}
	ok, err := inOrg(ctx, tx, target, id, c.OrgID)
	if err != nil {
		return err
	}
	if !ok {
		return onField(fkViolation(table, table+"_"+col+"_fkey", fmt.Sprintf("The %s does not exist in your organisation.", what)), col)
	}
	return nil
}

// targetIDs lists the ids of the rows an update or delete would touch.
func targetIDs(ctx context.Context, tx fairbalance.Tx, table string, where *fairbalance.Cond) ([]any, error) {
	rows, err := readDBRows(ctx, tx, table, where, 0, selCol("id", fairbalance.TypeText))
	if err != nil {
		return nil, err
	}
	ids := make([]any, len(rows))
	for i, r := range rows {
		ids[i] = r["id"]
	}
	return ids, nil
}

// refusedWhileUsed refuses a delete of rows of table that rows of user
// still name in column (23503 with msg).
func refusedWhileUsed(table string, users []string, column, msg string) func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
	return func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
		ids, err := targetIDs(ctx, tx, table, where)
		if err != nil || len(ids) == 0 {
			return err
		}
		for _, u := range users {
			rows, err := readDBRows(ctx, tx, u, condIn(column, ids), 1, selCol(column, fairbalance.TypeText))
			if err != nil {
				return err
			}
			if len(rows) > 0 {
				return pgErr(fairbalance.KindConflict, "23503", msg, fmt.Sprintf("update or delete on table \"%s\" violates foreign key constraint \"%s_%s_fkey\" on table \"%s\"", table, u, column, u), "")
			}
		}
		return nil
	}
}

// MsgStatusMove is the refusal of a status change the domain's transition
// table does not allow (%s: the object, its status, the status asked for).
const MsgStatusMove = "The %s is %s and cannot become %s."

// statusMove refuses an update that sets status on rows of table (what
// names one in the message) whose current status may not move there;
// rows already in that status keep it. The value itself is in the
// vocabulary (the column's Enum saw to that).
func statusMove[S ~string](ctx context.Context, tx fairbalance.Tx, table, what string, legal fairbalance.Transitions[S], values map[string]any, where *fairbalance.Cond) error {
	if _, ok := values["status"]; !ok {
		return nil
	}
	to := S(str(values, "status"))
	rows, err := readDBRows(ctx, tx, table, where, 0, selCol("status", fairbalance.TypeText))
	if err != nil {
		return err
	}
	for _, r := range rows {
		if from := S(str(r, "status")); from != to && !legal.Allows(from, to) {
			return raise(fmt.Sprintf(MsgStatusMove, what, from, to))
		}
	}
	return nil
}

// The refusals of the status rule of pre-approved content (claims and
// modules): %s is the object ("claim", "module"), then the status.
const (
	// MsgStatusDecided refuses a status but draft to a caller who does
	// not decide content status.
	MsgStatusDecided = "Only a reviewer or an administrator may set a %s to %s."
	// MsgDecidedContent refuses a change, by its author, of a claim or
	// module no longer in draft.
	MsgDecidedContent = "The %s is %s; only a reviewer or an administrator may change it."
	// MsgReviewerEdits refuses a reviewer's change to anything but the
	// status and expiry date: reviewers decide content, they do not author it.
	MsgReviewerEdits = "Reviewers change only the status and expiry date of a %s; its authors edit the rest."
	// MsgDecidedDelete refuses a delete, by an author who is not an
	// administrator, of a claim or module no longer in draft.
	MsgDecidedDelete = "The %s is %s and stays on record; only an administrator may delete it."
)

// contentDeleteRule is the status rule of a delete of claims or modules
// (table, what names one): a decided one (approved, expired, withdrawn,
// retired) stays on record, so authors delete drafts only; owners and
// admins, who may write and decide content alike (product.md section 2),
// delete in any status. Reviewers and viewers delete nothing (CanDelete).
func contentDeleteRule(table, what, draft string) func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
	return func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
		if c.IsAdmin() {
			return nil
		}
		rows, err := readDBRows(ctx, tx, table, where, 0, selCol("status", fairbalance.TypeText))
		if err != nil {
			return err
		}
		for _, r := range rows {
			if from := str(r, "status"); from != draft {
				return denied(c, fmt.Sprintf(MsgDecidedDelete, what, from))
			}
		}
		return nil
	}
}

// checkAll runs the delete checks in order, stopping at the first refusal.
func checkAll(checks ...func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error) func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
	return func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
		for _, check := range checks {
			if err := check(ctx, tx, c, where); err != nil {
				return err
			}
		}
		return nil
	}
}

// writesOrDecidesContent is who may update claims and modules: their
// authors (Caller.WritesContent) and those who decide their status
// (Caller.DecidesContentStatus).
func writesOrDecidesContent(c fairbalance.Caller) bool {
	return c.WritesContent() || c.DecidesContentStatus()
}

// decidedStatus refuses (42501, on the field status) a new claim or
// module in a status other than draft from a caller who does not decide
// content status.
func decidedStatus(c fairbalance.Caller, what, draft string, row map[string]any) error {
	v, ok := row["status"]
	if !ok || v == nil || c.DecidesContentStatus() {
		return nil
	}
	if to := fmt.Sprint(v); to != draft {
		return onField(denied(c, fmt.Sprintf(MsgStatusDecided, what, to)), "status")
	}
	return nil
}

// contentStatusRule is the status rule of an update of claims or modules
// (table, what names one): authors set no status but draft and change
// only drafts; reviewers change only the status and expiry date; owners
// and admins do both. The transitions themselves are statusMove's.
func contentStatusRule(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, table, what, draft string, values map[string]any, where *fairbalance.Cond) error {
	if !c.WritesContent() {
		for k := range values {
			if k != "status" && k != "expires_at" && k != "updated_at" {
				return onField(denied(c, fmt.Sprintf(MsgReviewerEdits, what)), k)
			}
		}
	}
	if c.DecidesContentStatus() {
		return nil
	}
	if err := decidedStatus(c, what, draft, values); err != nil {
		return err
	}
	rows, err := readDBRows(ctx, tx, table, where, 0, selCol("status", fairbalance.TypeText))
	if err != nil {
		return err
	}
	for _, r := range rows {
		if from := str(r, "status"); from != draft {
			return denied(c, fmt.Sprintf(MsgDecidedContent, what, from))
		}
	}
	return nil
}

func auditActions(prefix string) map[string]string {
	return map[string]string{"insert": prefix + "_created", "upsert": prefix + "_updated", "update": prefix + "_updated", "delete": prefix + "_deleted"}
}

// ProductsTable is products: the brands an organisation promotes, with
// their safety information; owners and admins manage them.
func ProductsTable() *TableSpec {
	return &TableSpec{
		Name: "products", Key: []string{"id"},
		Columns: contentColumns(
			ColumnSpec{Name: "brand_name", Type: fairbalance.TypeText},
			textCol("established_name", ""),
			textCol("indications", ""),
			textCol("isi_text", ""),
			textCol("pi_reference", ""),
			nullableText("launch_date"),
			ColumnSpec{Name: "markets", Type: fairbalance.TypeTextArray, Default: constDefault("[]")},
			ColumnSpec{Name: "active", Type: fairbalance.TypeBoolean, Default: constDefault(true)},
		),
		Relations: []RelationSpec{
			{Name: "assets", Table: "assets", LocalColumn: "id", ForeignColumn: "product_id", Many: true},
			{Name: "claims", Table: "claims", LocalColumn: "id", ForeignColumn: "product_id", Many: true},
			{Name: "modules", Table: "modules", LocalColumn: "id", ForeignColumn: "product_id", Many: true},
		},
		Rows:      orgScoped("org_id"),
		CanInsert: fairbalance.Caller.WritesProducts,
		CanUpdate: fairbalance.Caller.WritesProducts,
		CanDelete: fairbalance.Caller.WritesProducts,
		CheckInsert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
			if err := checkProduct(fieldCheck{table: "products", row: row, all: true}); err != nil {
				return err
			}
			return uniqueBrand(ctx, tx, c, str(row, "brand_name"), nil)
		},
		CheckUpdate: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
			if err := checkProduct(fieldCheck{table: "products", row: values}); err != nil {
				return err
			}
			if _, ok := values["brand_name"]; !ok {
				return nil
			}
			ids, err := targetIDs(ctx, tx, "products", where)
			if err != nil {
				return err
			}
			return uniqueBrand(ctx, tx, c, str(values, "brand_name"), ids)
		},
		CheckDelete:  refusedWhileUsed("products", []string{"assets", "claims", "modules"}, "product_id", "This product is used by assets, claims or modules; mark it inactive instead."),
		AuditActions: auditActions("product"),
	}
}

func checkProduct(f fieldCheck) error {
	return firstError(
		f.text("brand_name", "The brand name", 1, 120),
		f.text("established_name", "The established name", 0, 200),
		f.text("indications", "The indications", 0, 20000),
		f.text("isi_text", "The ISI text", 0, 50000),
		f.text("pi_reference", "The PI reference", 0, 500),
		f.date("launch_date", "The launch date"),
		f.strings("markets", "Markets", 50, 20),
	)
}

// uniqueBrand refuses a brand name another product of the organisation
// has (case-insensitively); except are the products being renamed. The
// unique index (org_id, lower(brand_name)) backs it; this says it in words.
func uniqueBrand(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, name string, except []any) error {
	if c.Service() {
		return nil
	}
	rows, err := readDBRows(ctx, tx, "products", condEq("org_id", c.OrgID), 0, selCol("id", fairbalance.TypeText), selCol("brand_name", fairbalance.TypeText))
	if err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	for _, r := range rows {
		if strings.EqualFold(strings.TrimSpace(str(r, "brand_name")), name) && !containsAny(except, r["id"]) {
			return uniqueViolation("products", "products_brand_uq", fmt.Sprintf("A product named %q already exists.", name))
		}
	}
	if len(except) > 1 {
		return uniqueViolation("products", "products_brand_uq", "Two products cannot have the same brand name.")
	}
	return nil
}

func containsAny(l []any, v any) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// AssetsTable is assets. They are created by create_asset (with their
// first version) and archived by archive_asset; writers change only the
// descriptive columns here.
func AssetsTable() *TableSpec {
	return &TableSpec{
		Name: "assets", Key: []string{"id"},
		Columns: contentColumns(
			ColumnSpec{Name: "title", Type: fairbalance.TypeText},
			ColumnSpec{Name: "type", Type: fairbalance.TypeText, ServerSet: true, Enum: &fairbalance.AssetTypeVocabulary},
			ColumnSpec{Name: "product_id", Type: fairbalance.TypeUUID, Nullable: true},
			enumCol("audience", &fairbalance.AudienceVocabulary, ""),
			textCol("channel", ""),
			textCol("market", ""),
			ColumnSpec{Name: "owner_id", Type: fairbalance.TypeUUID, Nullable: true, Default: creatorDefault},
			ColumnSpec{Name: "job_code", Type: fairbalance.TypeText, ServerSet: true},
			ColumnSpec{Name: "status", Type: fairbalance.TypeText, ServerSet: true, Default: constDefault(string(fairbalance.AssetDraft)), Enum: &fairbalance.AssetStatusVocabulary},
			ColumnSpec{Name: "current_version_id", Type: fairbalance.TypeUUID, Nullable: true, ServerSet: true},
			ColumnSpec{Name: "current_version_number", Type: fairbalance.TypeInteger, ServerSet: true, Default: constDefault(0)},
			ColumnSpec{Name: "approved_version_id", Type: fairbalance.TypeUUID, Nullable: true, ServerSet: true},
			nullableText("expires_at"),
		),
		Relations: []RelationSpec{
			{Name: "products", Table: "products", LocalColumn: "product_id", ForeignColumn: "id"},
			{Name: "owner", Table: "profiles_v2", LocalColumn: "owner_id", ForeignColumn: "id"},
			{Name: "profiles_v2", Table: "profiles_v2", LocalColumn: "owner_id", ForeignColumn: "id"},
			{Name: "asset_versions", Table: "asset_versions", LocalColumn: "id", ForeignColumn: "asset_id", Many: true},
			{Name: "current_version", Table: "asset_versions", LocalColumn: "current_version_id", ForeignColumn: "id"},
			{Name: "version_modules", Table: "version_modules", LocalColumn: "id", ForeignColumn: "asset_id", Many: true},
		},
		Rows:      orgScoped("org_id"),
		CanUpdate: fairbalance.Caller.WritesContent,
		CheckUpdate: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
			if err := checkAssetFields(fieldCheck{table: "assets", row: values}); err != nil {
				return err
			}
			if err := firstError(orgRef(ctx, tx, c, "assets", values, "product_id", "products", "product"),
				orgRef(ctx, tx, c, "assets", values, "owner_id", "profiles_v2", "owner")); err != nil {
				return err
			}
			if err := approvedExpiryRule(ctx, tx, c, values, where); err != nil {
				return err
			}
			rows, err := readDBRows(ctx, tx, "assets", where, 0, selCol("status", fairbalance.TypeText))
			if err != nil {
				return err
			}
			for _, r := range rows {
				if fairbalance.AssetStatus(str(r, "status")) == fairbalance.AssetArchived {
					return raise(msgArchived)
				}
			}
			return nil
		},
		// Deleting an asset deletes its versions, its rounds and their
		// signatures with it.
		Frozen: func(ctx context.Context, tx fairbalance.Tx, op string, where *fairbalance.Cond) error {
			if op != "delete" {
				return nil
			}
			ids, err := targetIDs(ctx, tx, "assets", where)
			if err != nil || len(ids) == 0 {
				return err
			}
			rows, err := readDBRows(ctx, tx, "asset_versions", and(condIn("asset_id", ids), submitted()), 1, selCol("id", fairbalance.TypeText))
			if err != nil || len(rows) == 0 {
				return err
			}
			return illegal(MsgSubmittedAsset)
		},
		AuditActions: auditActions("asset"),
	}
}

func checkAssetFields(f fieldCheck) error {
	return firstError(
		f.text("title", "The title", 1, 200),
		f.text("channel", "The channel", 0, 100),
		f.text("market", "The market", 0, 20),
		f.date("expires_at", "The expiry date"),
	)
}

// The refusals of a change to a version submitted for review (409,
// PT409, as the review workflow refuses a move it does not allow).
const (
	// MsgSubmittedVersion refuses an update or delete of a submitted
	// version (%d: its number).
	MsgSubmittedVersion = "Version %d was submitted for review: it can never be changed or deleted, as its review and signatures are bound to its exact content."
	// MsgSubmittedAsset refuses deleting an asset with a submitted version.
	MsgSubmittedAsset = "The asset has a version submitted for review, which can never be deleted; archive the asset instead."
	// MsgSubmittedFile refuses removing, replacing or moving the file of a
	// submitted version (%s: "removed", "replaced", "moved").
	MsgSubmittedFile = "This file belongs to a version submitted for review and can never be %s"
)

// submitted is the condition of a version submitted for review.
func submitted() *fairbalance.Cond {
	return &fairbalance.Cond{Column: "submitted_at", Operator: "is", Negated: true}
}

// submittedVersion refuses any change, whoever asks, to the versions
// where matches once one of them was submitted for review: the round and
// its signatures hold the version's hash, and the version must go on
// matching it (the database's trigger refuses an update as well; this
// says why, and refuses a delete, which would take the round and its
// signatures with it).
func submittedVersion(ctx context.Context, tx fairbalance.Tx, _ string, where *fairbalance.Cond) error {
	rows, err := readDBRows(ctx, tx, "asset_versions", and(where, submitted()), 1, selCol("number", fairbalance.TypeInteger))
	if err != nil || len(rows) == 0 {
		return err
	}
	n, _ := rows[0]["number"].(json.Number).Int64()
	return illegal(MsgSubmittedVersion, n)
}

// AssetVersionsTable is asset_versions: read-only here, written by the
// content functions, never changed once submitted for review (Frozen:
// not even by the service role).
func AssetVersionsTable() *TableSpec {
	ro := func(name string, typ fairbalance.ColumnType, nullable bool) ColumnSpec {
		return ColumnSpec{Name: name, Type: typ, Nullable: nullable, ServerSet: true}
	}
	return &TableSpec{
		Name: "asset_versions", Key: []string{"id"},
		Columns: contentColumns(
			ro("asset_id", fairbalance.TypeUUID, false),
			ro("number", fairbalance.TypeInteger, false),
			ColumnSpec{Name: "kind", Type: fairbalance.TypeText, ServerSet: true, Enum: &fairbalance.VersionKindVocabulary},
			ro("content_json", fairbalance.TypeJSON, true),
			ro("content_html", fairbalance.TypeText, true),
			ro("plain_text", fairbalance.TypeText, false),
			ro("page_texts", fairbalance.TypeJSON, false),
			ro("file_bucket", fairbalance.TypeText, true),
			ro("file_path", fairbalance.TypeText, true),
			ro("file_name", fairbalance.TypeText, true),
			ro("mimetype", fairbalance.TypeText, true),
			ro("file_size", fairbalance.TypeInteger, true),
			ro("sha256", fairbalance.TypeText, false),
			ro("page_count", fairbalance.TypeInteger, false),
			ro("change_note", fairbalance.TypeText, false),
			ro("submitted_at", fairbalance.TypeTimestamp, true),
		),
		Relations: []RelationSpec{
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
			{Name: "version_modules", Table: "version_modules", LocalColumn: "id", ForeignColumn: "version_id", Many: true},
			{Name: "author", Table: "profiles_v2", LocalColumn: "created_by", ForeignColumn: "id"},
			{Name: "profiles_v2", Table: "profiles_v2", LocalColumn: "created_by", ForeignColumn: "id"},
		},
		Rows:   orgScoped("org_id"),
		Frozen: submittedVersion,
	}
}

// VersionModulesTable is version_modules: which modules each authored
// version holds (read-only; written with the version).
func VersionModulesTable() *TableSpec {
	return &TableSpec{
		Name: "version_modules", Key: []string{"version_id", "module_id"},
		Columns: []ColumnSpec{
			{Name: "version_id", Type: fairbalance.TypeUUID, ServerSet: true},
			{Name: "module_id", Type: fairbalance.TypeUUID, ServerSet: true},
			{Name: "asset_id", Type: fairbalance.TypeUUID, ServerSet: true},
			{Name: "org_id", Type: fairbalance.TypeUUID, ServerSet: true},
			{Name: "created_at", Type: fairbalance.TypeTimestamp, ServerSet: true},
		},
		Relations: []RelationSpec{
			{Name: "modules", Table: "modules", LocalColumn: "module_id", ForeignColumn: "id"},
			{Name: "asset_versions", Table: "asset_versions", LocalColumn: "version_id", ForeignColumn: "id"},
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
		// Which modules a submitted version holds is part of it.
		Frozen: func(ctx context.Context, tx fairbalance.Tx, op string, where *fairbalance.Cond) error {
			rows, err := readDBRows(ctx, tx, "version_modules", where, 0, selCol("version_id", fairbalance.TypeText))
			if err != nil || len(rows) == 0 {
				return err
			}
			ids := make([]any, len(rows))
			for i, r := range rows {
				ids[i] = r["version_id"]
			}
			return submittedVersion(ctx, tx, op, condIn("id", ids))
		},
	}
}

// ReferencesTable is references (table content_references): the sources
// claims cite. Writers manage the metadata here; the PDF is attached by
// attach_reference_file, which also extracts its pages.
func ReferencesTable() *TableSpec {
	file := func(name string, typ fairbalance.ColumnType) ColumnSpec {
		return ColumnSpec{Name: name, Type: typ, Nullable: true, ServerSet: true}
	}
	return &TableSpec{
		Name: "references", Source: "content_references", Key: []string{"id"},
		Columns: contentColumns(
			ColumnSpec{Name: "title", Type: fairbalance.TypeText},
			textCol("citation", ""),
			enumCol("kind", &fairbalance.ReferenceKindVocabulary, string(fairbalance.ReferenceOther)),
			enumCol("status", &fairbalance.ReferenceStatusVocabulary, string(fairbalance.ReferenceActive)),
			file("file_bucket", fairbalance.TypeText),
			file("file_path", fairbalance.TypeText),
			file("file_name", fairbalance.TypeText),
			file("sha256", fairbalance.TypeText),
			ColumnSpec{Name: "page_count", Type: fairbalance.TypeInteger, ServerSet: true},
			ColumnSpec{Name: "page_texts", Type: fairbalance.TypeJSON, ServerSet: true},
			ColumnSpec{Name: "plain_text", Type: fairbalance.TypeText, ServerSet: true},
		),
		Relations: []RelationSpec{
			{Name: "claim_references", Table: "claim_references", LocalColumn: "id", ForeignColumn: "reference_id", Many: true},
		},
		Rows:      orgScoped("org_id"),
		CanInsert: fairbalance.Caller.WritesContent,
		CanUpdate: fairbalance.Caller.WritesContent,
		CanDelete: fairbalance.Caller.WritesContent,
		CheckInsert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
			return checkReference(fieldCheck{table: "references", row: row, all: true})
		},
		CheckUpdate: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
			return checkReference(fieldCheck{table: "references", row: values})
		},
		CheckDelete:  refusedWhileUsed("content_references", []string{"claim_references"}, "reference_id", "Claims cite this reference; withdraw it instead."),
		AuditActions: auditActions("reference"),
	}
}

func checkReference(f fieldCheck) error {
	return firstError(
		f.text("title", "The title", 1, 300),
		f.text("citation", "The citation", 0, 2000),
	)
}

// ClaimsTable is claims: approved statements about a product, each
// supported by passages of references (claim_references).
func ClaimsTable() *TableSpec {
	return &TableSpec{
		Name: "claims", Key: []string{"id"},
		Columns: contentColumns(
			ColumnSpec{Name: "product_id", Type: fairbalance.TypeUUID, Nullable: true},
			ColumnSpec{Name: "text", Type: fairbalance.TypeText},
			ColumnSpec{Name: "variants", Type: fairbalance.TypeTextArray, Default: constDefault("[]")},
			enumCol("status", &fairbalance.ClaimStatusVocabulary, string(fairbalance.ClaimDraft)),
			nullableText("expires_at"),
		),
		Relations: []RelationSpec{
			{Name: "products", Table: "products", LocalColumn: "product_id", ForeignColumn: "id"},
			{Name: "claim_references", Table: "claim_references", LocalColumn: "id", ForeignColumn: "claim_id", Many: true},
			{Name: "modules", Table: "modules", LocalColumn: "id", ForeignColumn: "claim_id", Many: true},
		},
		Rows:      orgScoped("org_id"),
		CanInsert: fairbalance.Caller.WritesContent,
		CanUpdate: writesOrDecidesContent,
		CanDelete: fairbalance.Caller.WritesContent,
		CheckInsert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
			if err := decidedStatus(c, "claim", string(fairbalance.ClaimDraft), row); err != nil {
				return err
			}
			return firstError(checkClaim(fieldCheck{table: "claims", row: row, all: true}), orgRef(ctx, tx, c, "claims", row, "product_id", "products", "product"))
		},
		CheckUpdate: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
			if err := contentStatusRule(ctx, tx, c, "claims", "claim", string(fairbalance.ClaimDraft), values, where); err != nil {
				return err
			}
			return firstError(checkClaim(fieldCheck{table: "claims", row: values}), orgRef(ctx, tx, c, "claims", values, "product_id", "products", "product"),
				statusMove(ctx, tx, "claims", "claim", fairbalance.ClaimTransitions, values, where))
		},
		CheckDelete: checkAll(contentDeleteRule("claims", "claim", string(fairbalance.ClaimDraft)),
			refusedWhileUsed("claims", []string{"modules"}, "claim_id", "A module is built on this claim; retire or delete the module first.")),
		AuditActions: auditActions("claim"),
	}
}

func checkClaim(f fieldCheck) error {
	return firstError(
		f.text("text", "The claim text", 1, 2000),
		f.strings("variants", "Variants", 50, 2000),
		f.date("expires_at", "The expiry date"),
	)
}

// ClaimReferencesTable is claim_references: a claim's supporting passage,
// quoted from a page of a reference. Links are added and removed, never
// edited; a passage must occur on the page when the reference's text is
// known.
func ClaimReferencesTable() *TableSpec {
	return &TableSpec{
		Name: "claim_references", Key: []string{"id"},
		Columns: contentColumns(
			ColumnSpec{Name: "claim_id", Type: fairbalance.TypeUUID},
			ColumnSpec{Name: "reference_id", Type: fairbalance.TypeUUID},
			ColumnSpec{Name: "page", Type: fairbalance.TypeInteger},
			ColumnSpec{Name: "passage", Type: fairbalance.TypeText},
		),
		Relations: []RelationSpec{
			{Name: "references", Table: "references", LocalColumn: "reference_id", ForeignColumn: "id"},
			{Name: "claims", Table: "claims", LocalColumn: "claim_id", ForeignColumn: "id"},
		},
		Rows:        orgScoped("org_id"),
		CanInsert:   fairbalance.Caller.WritesContent,
		CanDelete:   fairbalance.Caller.WritesContent,
		CheckInsert: checkClaimReference,
		CheckDelete: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error {
			rows, err := readDBRows(ctx, tx, "claim_references", where, 0, selCol("claim_id", fairbalance.TypeText))
			if err != nil || len(rows) == 0 {
				return err
			}
			ids := make([]any, len(rows))
			for i, r := range rows {
				ids[i] = r["claim_id"]
			}
			return decidedClaimPassages(ctx, tx, c, condIn("id", ids))
		},
		AuditActions: map[string]string{"insert": "claim_reference_linked", "upsert": "claim_reference_linked", "delete": "claim_reference_unlinked"},
	}
}

// MsgDecidedPassages refuses linking or unlinking a passage of a claim no
// longer in draft, by an author who is not an administrator (%s: the
// claim's status).
const MsgDecidedPassages = "The claim is %s; only an administrator may change its supporting passages."

// decidedClaimPassages is the status rule of a claim's passages: what
// supports a claim is part of what was decided, so authors link and
// unlink passages of draft claims only, as they change only drafts
// (contentStatusRule); owners and admins, who change decided claims, do
// it in any status. Reviewers, who decide claims but do not author them,
// link nothing (CanInsert, CanDelete).
func decidedClaimPassages(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, claims *fairbalance.Cond) error {
	if c.IsAdmin() || c.Service() {
		return nil
	}
	rows, err := readDBRows(ctx, tx, "claims", claims, 0, selCol("status", fairbalance.TypeText))
	if err != nil {
		return err
	}
	for _, r := range rows {
		if from := str(r, "status"); from != string(fairbalance.ClaimDraft) {
			return denied(c, fmt.Sprintf(MsgDecidedPassages, from))
		}
	}
	return nil
}

// MsgPassageNotFound is the refusal of a quoted passage that does not
// occur on the page it cites (%d: the page).
const MsgPassageNotFound = "The quoted passage was not found on page %d of the reference."

func checkClaimReference(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
	f := fieldCheck{table: "claim_references", row: row, all: true}
	if err := f.text("passage", "The quoted passage", 1, 2000); err != nil {
		return err
	}
	for _, k := range []string{"claim_id", "reference_id", "page"} {
		if row[k] == nil {
			return pgErr(fairbalance.KindInvalid, "23502", fmt.Sprintf("null value in column \"%s\" of relation \"claim_references\" violates not-null constraint", k), "", "")
		}
	}
	page, _ := row["page"].(int64)
	if page < 1 {
		return checkViolation("claim_references", "claim_references_page_check", "The page must be 1 or more.")
	}
	if c.Service() {
		return nil
	}
	if err := orgRef(ctx, tx, c, "claim_references", row, "claim_id", "claims", "claim"); err != nil {
		return err
	}
	if err := decidedClaimPassages(ctx, tx, c, and(condEq("id", row["claim_id"]), condEq("org_id", c.OrgID))); err != nil {
		return err
	}
	refs, err := readDBRows(ctx, tx, "content_references", and(condEq("id", row["reference_id"]), condEq("org_id", c.OrgID)), 1,
		selCol("page_count", fairbalance.TypeInteger), selCol("page_texts", fairbalance.TypeJSON), selCol("file_path", fairbalance.TypeText))
	if err != nil {
		return err
	}
	if len(refs) == 0 {
		return fkViolation("claim_references", "claim_references_reference_id_fkey", "The reference does not exist in your organisation.")
	}
	var texts []string
	if raw, err := json.Marshal(refs[0]["page_texts"]); err == nil {
		_ = json.Unmarshal(raw, &texts)
	}
	count, _ := refs[0]["page_count"].(json.Number).Int64()
	if refs[0]["file_path"] != nil && count > 0 && page > count {
		return checkViolation("claim_references", "claim_references_page_check", fmt.Sprintf("The reference has %d pages; page %d does not exist.", count, page))
	}
	if len(texts) > 0 {
		if page > int64(len(texts)) || !strings.Contains(normalisePassage(texts[page-1]), normalisePassage(str(row, "passage"))) {
			return checkViolation("claim_references", "claim_references_passage_check", fmt.Sprintf(MsgPassageNotFound, page))
		}
	}
	return nil
}

// normalisePassage folds case and collapses every run of white space to
// one space, so a passage copied from a rendered page matches the
// extracted text whatever its line breaks.
func normalisePassage(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// ModulesTable is modules: reusable blocks (claim, ISI, disclaimer, copy,
// image) that authors insert into authored versions.
func ModulesTable() *TableSpec {
	return &TableSpec{
		Name: "modules", Key: []string{"id"},
		Columns: contentColumns(
			enumCol("kind", &fairbalance.ModuleKindVocabulary, ""),
			ColumnSpec{Name: "title", Type: fairbalance.TypeText},
			textCol("body", ""),
			ColumnSpec{Name: "claim_id", Type: fairbalance.TypeUUID, Nullable: true},
			ColumnSpec{Name: "product_id", Type: fairbalance.TypeUUID, Nullable: true},
			nullableText("image_path"),
			enumCol("status", &fairbalance.ModuleStatusVocabulary, string(fairbalance.ModuleDraft)),
			nullableText("expires_at"),
		),
		Relations: []RelationSpec{
			{Name: "claims", Table: "claims", LocalColumn: "claim_id", ForeignColumn: "id"},
			{Name: "products", Table: "products", LocalColumn: "product_id", ForeignColumn: "id"},
			{Name: "version_modules", Table: "version_modules", LocalColumn: "id", ForeignColumn: "module_id", Many: true},
		},
		Rows:      orgScoped("org_id"),
		CanInsert: fairbalance.Caller.WritesContent,
		CanUpdate: writesOrDecidesContent,
		CanDelete: fairbalance.Caller.WritesContent,
		CheckInsert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
			if err := decidedStatus(c, "module", string(fairbalance.ModuleDraft), row); err != nil {
				return err
			}
			return firstError(checkModule(fieldCheck{table: "modules", row: row, all: true}),
				orgRef(ctx, tx, c, "modules", row, "claim_id", "claims", "claim"),
				orgRef(ctx, tx, c, "modules", row, "product_id", "products", "product"))
		},
		CheckUpdate: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
			if err := contentStatusRule(ctx, tx, c, "modules", "module", string(fairbalance.ModuleDraft), values, where); err != nil {
				return err
			}
			return firstError(checkModule(fieldCheck{table: "modules", row: values}),
				orgRef(ctx, tx, c, "modules", values, "claim_id", "claims", "claim"),
				orgRef(ctx, tx, c, "modules", values, "product_id", "products", "product"),
				statusMove(ctx, tx, "modules", "module", fairbalance.ModuleTransitions, values, where))
		},
		CheckDelete: checkAll(contentDeleteRule("modules", "module", string(fairbalance.ModuleDraft)),
			refusedWhileUsed("modules", []string{"version_modules"}, "module_id", "Asset versions contain this module; retire it instead.")),
		AuditActions: auditActions("module"),
	}
}

func checkModule(f fieldCheck) error {
	return firstError(
		f.chosen("kind", "The kind", fairbalance.ModuleKindVocabulary),
		f.text("title", "The title", 1, 200),
		f.text("body", "The body", 0, 50000),
		f.text("image_path", "The image path", 0, 1024),
		f.date("expires_at", "The expiry date"),
	)
}

// contentTables are the tables of the content model.
func contentTables() []*TableSpec {
	return []*TableSpec{ProductsTable(), AssetsTable(), AssetVersionsTable(), VersionModulesTable(), ReferencesTable(), ClaimsTable(), ClaimReferencesTable(), ModulesTable()}
}
