package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/pdftext"
)

// Refusals of the content functions, as the contract words them.
const (
	msgInReview = "This asset is in review; withdraw it before adding a version."
	msgArchived = "Archived assets cannot change."
)

// Content holds the content functions (/rest/v1/rpc): prepare_upload,
// create_asset, add_asset_version, archive_asset, attach_reference_file
// and content_counts. Each change runs in one transaction with its audit
// entry; reading and extracting an uploaded file happens before the
// transaction opens, since a large PDF takes seconds.
type Content struct {
	storage *Storage
	// Now is the clock.
	Now    func() time.Time
	policy *bluemonday.Policy
	// onVersionAdded runs in create_asset's and add_asset_version's
	// transaction after the new version v is current (prevID: the version
	// before it, "" for the first): the annotations are carried forward
	// and the version's compliance check runs or is enqueued.
	onVersionAdded func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, prevID string, v map[string]any) error
}

// NewContent returns the content functions. storage reaches the product
// buckets; it may be nil where the functions are only described (gen types).
func NewContent(storage *Storage) *Content {
	return &Content{storage: storage, Now: func() time.Time { return time.Now().UTC() }, policy: authoredPolicy()}
}

var (
	moduleIDPattern   = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	moduleKindPattern = regexp.MustCompile(`^(` + strings.Join(fairbalance.ModuleKindVocabulary.Values, "|") + `)$`)
	codeLangPattern   = regexp.MustCompile(`^language-[A-Za-z0-9_+-]{1,40}$`)
)

// authoredPolicy is the sanitiser of authored versions: what TipTap's
// StarterKit produces (paragraphs, three heading levels, marks, code,
// quotes, lists, rules, links to http, https and mailto) and the module
// marks <span data-module-id data-module-kind data-module-title> (the
// editor's module node). Everything else — scripts,
// event handlers, styles, javascript: URLs — is dropped.
func authoredPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "h1", "h2", "h3", "strong", "em", "u", "s", "code", "pre", "blockquote", "ul", "ol", "li", "br", "hr")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // also adds rel="noopener"
	p.RequireNoReferrerOnFullyQualifiedLinks(false)
	p.AllowAttrs("start").Matching(regexp.MustCompile(`^[0-9]{1,6}$`)).OnElements("ol")
	p.AllowAttrs("class").Matching(codeLangPattern).OnElements("code")
	p.AllowAttrs("data-module-id").Matching(moduleIDPattern).OnElements("span")
	p.AllowAttrs("data-module-kind").Matching(moduleKindPattern).OnElements("span")
	p.AllowAttrs("data-module-title").Matching(regexp.MustCompile(`^[^<>]{0,200}$`)).OnElements("span")
	return p
}

// SanitizeAuthored returns the sanitised HTML of an authored version, its
// plain text (blocks separated by newlines) and the module ids it marks.
func (ct *Content) SanitizeAuthored(raw string) (clean, text string, modules []string) {
	clean = ct.policy.Sanitize(raw)
	text, modules = htmlText(clean)
	return clean, text, modules
}

// blockElements end a line of the plain text.
var blockElements = map[string]bool{"p": true, "h1": true, "h2": true, "h3": true, "pre": true, "blockquote": true, "ul": true, "ol": true, "li": true, "hr": true}

// htmlText walks sanitised HTML: its text with a newline at every block
// boundary and <br>, and the distinct data-module-id values in order.
func htmlText(s string) (string, []string) {
	var b strings.Builder
	var modules []string
	seen := map[string]bool{}
	newline := func() {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
	}
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.TrimSpace(b.String()), modules
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if tag == "br" {
				b.WriteByte('\n')
				continue
			}
			if blockElements[tag] {
				newline()
			}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "data-module-id" {
					id := strings.ToLower(string(v))
					if !seen[id] {
						seen[id] = true
						modules = append(modules, id)
					}
				}
			}
		}
	}
}

// Functions are the content functions.
func (ct *Content) Functions() []*FunctionSpec {
	return []*FunctionSpec{
		{Name: "prepare_upload", Args: []string{"bucket", "file_name", "content_type", "size"},
			ArgTypes: map[string]fairbalance.ColumnType{"size": fairbalance.TypeInteger}, Call: typed(decodePrepareUpload, ct.prepareUpload)},
		{Name: "create_asset", Args: []string{"title", "type", "product_id", "audience", "channel", "market", "job_code", "expires_at",
			"content_json", "content_html", "file_path", "file_name", "change_note"},
			Optional: []string{"product_id", "job_code", "expires_at", "content_json", "content_html", "file_path", "file_name", "change_note"},
			ArgTypes: map[string]fairbalance.ColumnType{"content_json": fairbalance.TypeJSON},
			Prepare:  ct.prepareFile("asset-files"), Call: typed(decodeCreateAsset, ct.createAsset)},
		{Name: "add_asset_version", Args: []string{"asset_id", "content_json", "content_html", "file_path", "file_name", "change_note"},
			Optional: []string{"content_json", "content_html", "file_path", "file_name"},
			ArgTypes: map[string]fairbalance.ColumnType{"content_json": fairbalance.TypeJSON},
			Prepare:  ct.prepareFile("asset-files"), Call: typed(decodeAddAssetVersion, ct.addAssetVersion)},
		{Name: "archive_asset", Args: []string{"asset_id"}, Call: typed(decodeAsset, ct.archiveAsset)},
		{Name: "attach_reference_file", Args: []string{"reference_id", "file_path", "file_name"}, Optional: []string{"file_name"},
			Prepare: ct.prepareFile("reference-files"), Call: typed(decodeAttachReferenceFile, ct.attachReferenceFile)},
		{Name: "content_counts", ReadOnly: true, Call: ct.contentCounts},
	}
}

// refuseWriter refuses callers who may not write content.
func refuseWriter(c fairbalance.Caller) error {
	switch {
	case c.Demo:
		return demoRefusal()
	case !c.WritesContent() && !(c.Service() && c.OrgID != ""):
		return denied(c, "Only owners, admins and marketers change content.")
	}
	return nil
}

func notFound(what string) error {
	return pgErr(fairbalance.KindNotFound, "P0002", what+" not found", "", "")
}

// mimeExtensions are the file name extensions of the product buckets'
// types; the server names every object <org_id>/<uuid>.<ext>.
var mimeExtensions = map[string]string{"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}

var serverPathPattern = regexp.MustCompile(`^[^/]+/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|png|jpg|webp)$`)

func argInt(args map[string]any, k string) (int64, bool) {
	switch v := args[k].(type) {
	case float64:
		if v == float64(int64(v)) {
			return int64(v), true
		}
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// prepareUpload issues the signed upload URL of a new object in a product
// bucket, under a name the server chooses in the caller's organisation;
// the upload may carry at most the declared size.
func (ct *Content) prepareUpload(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, in PrepareUploadInput) (any, error) {
	if err := refuseWriter(c); err != nil {
		return nil, err
	}
	if ct.storage == nil {
		return nil, internal(errors.New("content: no storage configured"))
	}
	b, err := tx.BucketByID(ctx, in.Bucket)
	if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && !b.ServerPaths) {
		return nil, raise("Files are uploaded here only to asset-files or reference-files.")
	}
	if err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	limit, types := ct.storage.Limits(b)
	if !mimeAllowed(types, in.ContentType) {
		return nil, raise(msgUploadTypes)
	}
	if in.Size > limit {
		return nil, raise(fmt.Sprintf("The file is larger than the limit of %d MB.", limit>>20))
	}
	path := c.OrgID + "/" + auth.NewUUID() + "." + mimeExtensions[in.ContentType]
	token, err := ct.storage.SignServerUpload(b.ID, path, c.UserID, c.SessionID, in.Size)
	if err != nil {
		return nil, err
	}
	return map[string]any{"bucket": b.ID, "path": path, "token": token,
		"signed_url": "/storage/v1/object/upload/sign/" + b.ID + "/" + path + "?token=" + url.QueryEscape(token)}, nil
}

// preparedFile is an uploaded file read before the transaction: its
// object, checksum and page texts.
type preparedFile struct {
	object   *fairbalance.StoredObject
	mimetype string // the essence
	sha256   string
	pages    []string
	pageNum  int
	// searchText is what search holds for a PDF: its pages without
	// running headers, footers and page numbers ("" for other files).
	searchText string
}

// preparedKey is where Prepare leaves the file for Call (clients cannot
// send it: arguments are checked against the declared names first).
const preparedKey = "_file"

// prepareFile reads the file named by file_path in bucket, if any: it
// must be an object of the caller's organisation there; its bytes are
// checksummed and, for a PDF, their text extracted page by page.
func (ct *Content) prepareFile(bucket string) func(ctx context.Context, c fairbalance.Caller, args map[string]any) error {
	return func(ctx context.Context, c fairbalance.Caller, args map[string]any) error {
		path := argString(args, "file_path")
		if path == "" {
			return nil
		}
		if err := refuseWriter(c); err != nil {
			return err
		}
		f, err := ct.readFile(ctx, c, bucket, path)
		if err != nil {
			return err
		}
		args[preparedKey] = f
		return nil
	}
}

func (ct *Content) readFile(ctx context.Context, c fairbalance.Caller, bucket, path string) (*preparedFile, error) {
	missing := raise(msgUploadMissing)
	if ct.storage == nil {
		return nil, internal(errors.New("content: no storage configured"))
	}
	if !serverPathPattern.MatchString(path) || !strings.HasPrefix(path, c.OrgID+"/") {
		return nil, missing
	}
	o, err := ct.storage.store.View().ObjectByName(ctx, bucket, path)
	if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && o.OrgID != c.OrgID) {
		return nil, missing
	}
	if err != nil {
		return nil, err
	}
	essence, _, _ := strings.Cut(o.MimeType, ";")
	f := &preparedFile{object: o, mimetype: strings.TrimSpace(strings.ToLower(essence)), pages: []string{}, pageNum: 1}
	if _, ok := mimeExtensions[f.mimetype]; !ok {
		return nil, raise("Only PDF, PNG, JPEG and WebP files can be used.")
	}
	blob, err := ct.storage.Blob(ctx, o)
	if err != nil {
		if fairbalance.AsError(err) != nil {
			return nil, missing
		}
		return nil, err
	}
	defer blob.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(blob, 0, blob.Size())); err != nil {
		return nil, err
	}
	f.sha256 = hex.EncodeToString(h.Sum(nil))
	if o.SHA256 != "" && o.SHA256 != f.sha256 {
		return nil, internal(fmt.Errorf("content: object %s: checksum %s, stored %s", o.ID, f.sha256, o.SHA256))
	}
	if f.mimetype == "application/pdf" {
		doc, err := pdftext.Extract(blob, blob.Size())
		if err != nil {
			return nil, raise(err.Error())
		}
		f.pages, f.pageNum, f.searchText = doc.Pages, len(doc.Pages), doc.SearchText()
	}
	return f, nil
}

// newVersion builds and inserts version number n of asset (in org),
// recording its modules, and returns the row as asset_versions serves it.
func (ct *Content) newVersion(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, assetID string, n int64, in VersionInput, now time.Time) (map[string]any, error) {
	id := auth.NewUUID()
	v := map[string]any{"id": id, "org_id": c.OrgID, "asset_id": assetID, "number": n, "content_json": nil, "content_html": nil,
		"file_bucket": nil, "file_path": nil, "file_name": nil, "mimetype": nil, "file_size": nil, "page_count": int64(1),
		"change_note": in.ChangeNote, "submitted_at": nil, "created_by": c.UserID, "created_at": now, "updated_at": now}
	var modules []string
	if in.ContentHTML != nil {
		clean, text, mods := ct.SanitizeAuthored(*in.ContentHTML)
		if strings.TrimSpace(text) == "" && !strings.Contains(clean, "<hr") {
			return nil, raise("The content is empty.")
		}
		sum := sha256.Sum256([]byte(clean))
		v["kind"], v["content_html"], v["plain_text"], v["sha256"] = string(fairbalance.VersionAuthored), clean, text, hex.EncodeToString(sum[:])
		v["page_texts"] = string(mustRaw([]string{text}))
		if in.ContentJSON != nil {
			v["content_json"] = string(mustRaw(in.ContentJSON))
		}
		modules = mods
	} else {
		f := in.file
		// The object must still be there, unchanged, now that the
		// transaction holds the state that will be committed.
		o, err := tx.ObjectByName(ctx, f.object.BucketID, f.object.Name)
		if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && (o.ID != f.object.ID || o.BlobKey != f.object.BlobKey)) {
			return nil, raise("The uploaded file changed while it was being read; try again.")
		}
		if err != nil {
			return nil, err
		}
		name := in.FileName
		if name == "" {
			name = o.Name[strings.LastIndex(o.Name, "/")+1:]
		}
		v["kind"], v["file_bucket"], v["file_path"], v["file_name"] = string(fairbalance.VersionFile), o.BucketID, o.Name, name
		v["mimetype"], v["file_size"], v["sha256"], v["page_count"] = f.mimetype, o.Size, f.sha256, int64(f.pageNum)
		v["plain_text"], v["page_texts"] = strings.Join(f.pages, "\f"), string(mustRaw(f.pages))
	}
	// Module marks must name modules of the organisation.
	if len(modules) > 0 {
		ids := make([]any, len(modules))
		for i, m := range modules {
			ids[i] = m
		}
		rows, err := readDBRows(ctx, tx, "modules", and(condIn("id", ids), condEq("org_id", c.OrgID)), 0, selCol("id", fairbalance.TypeText))
		if err != nil {
			return nil, err
		}
		if len(rows) != len(modules) {
			return nil, raise("The content holds a module that does not exist in your organisation.")
		}
	}
	row, err := insertRow(ctx, tx, AssetVersionsTable(), v)
	if err != nil {
		return nil, err
	}
	// The version keeps every extracted line; search leaves out a PDF's
	// running headers and footers, which would fill its snippets.
	if in.file != nil && in.file.mimetype == "application/pdf" {
		if err := tx.SetSearchText(ctx, fairbalance.SearchTextVersion, id, in.file.searchText); err != nil {
			return nil, err
		}
	}
	for _, m := range modules {
		if _, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "version_modules", Columns: []string{"version_id", "module_id", "asset_id", "org_id", "created_at"},
			Rows: []map[string]any{{"version_id": id, "module_id": m, "asset_id": assetID, "org_id": c.OrgID, "created_at": now}}}); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// insertRow inserts one row (every column of t given, in database names)
// and returns it as t serves it.
func insertRow(ctx context.Context, tx fairbalance.Tx, t *TableSpec, row map[string]any) (map[string]any, error) {
	cols := make([]string, 0, len(row))
	for _, c := range t.Columns {
		if _, ok := row[c.Name]; ok {
			cols = append(cols, c.DBName())
		}
	}
	raw, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: t.DBName(), Columns: cols, Rows: []map[string]any{row}, Returning: allColumns(t)})
	if err != nil {
		return nil, err
	}
	return oneRow(raw)
}

func oneRow(raw json.RawMessage) (map[string]any, error) {
	var rows []map[string]any
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, err
	}
	if len(rows) != 1 {
		return nil, fmt.Errorf("content: %d rows where one was expected", len(rows))
	}
	return rows[0], nil
}

// orgRow reads one row of t in the caller's organisation (nil when
// there is none); on PostgreSQL the row is not locked, so changes that
// depend on it update it with a condition on what was read.
func orgRow(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, t *TableSpec, id string) (map[string]any, error) {
	if !auth.IsUUID(id) {
		return nil, nil
	}
	raw, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: t.DBName(), Columns: allColumns(t), Where: and(condEq("id", strings.ToLower(id)), condEq("org_id", c.OrgID)), Limit: 1})
	if err != nil {
		return nil, err
	}
	var rows []map[string]any
	if err := json.Unmarshal(raw, &rows); err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0], nil
}

// writableRow is the row id of t for a change by the caller: refused to
// non-writers, and not found (named what) outside their organisation.
func writableRow(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, t *TableSpec, id, what string) (map[string]any, error) {
	if err := refuseWriter(c); err != nil {
		return nil, err
	}
	row, err := orgRow(ctx, tx, c, t, id)
	if err != nil {
		return nil, err
	}
	if row == nil {
		return nil, notFound(what)
	}
	return row, nil
}

// updateRow sets values on the row id of t when cond (on its current
// values) still holds, and returns it as t serves it; nil when cond no
// longer holds (a concurrent change).
func updateRow(ctx context.Context, tx fairbalance.Tx, t *TableSpec, id string, values map[string]any, cond *fairbalance.Cond) (map[string]any, error) {
	var cols []string
	for k := range values {
		cols = append(cols, k)
	}
	raw, n, err := tx.Update(ctx, &fairbalance.WritePlan{Table: t.DBName(), Columns: cols, Rows: []map[string]any{values}, Where: and(condEq("id", id), cond), Returning: allColumns(t)})
	if err != nil || n == 0 {
		return nil, err
	}
	return oneRow(raw)
}

// auditContent appends the audit entry of a content function.
func auditContent(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, action, objectType, id string, before, after any) error {
	e := &fairbalance.AuditEntry{Action: action, ObjectType: objectType, ObjectID: id, Meta: mustRaw(map[string]any{"via": "data_api"})}
	if before != nil {
		e.Before = mustRaw(before)
	}
	if after != nil {
		e.After = mustRaw(after)
	}
	return appendAudit(ctx, tx, c, e)
}

// auditVersion is a version as its audit entry records it: without the
// content itself, which the version row keeps.
func auditVersion(v map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		switch k {
		case "content_json", "content_html", "plain_text", "page_texts":
		default:
			out[k] = x
		}
	}
	return out
}

var jobCodeMarket = regexp.MustCompile(`[^A-Z0-9]+`)

// nextJobCode is FB-<MARKET>-<NNNN>, NNNN the number of the organisation's
// assets plus one, raised past any code already taken.
func nextJobCode(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, market string) (string, error) {
	m := jobCodeMarket.ReplaceAllString(strings.ToUpper(market), "")
	if m == "" {
		m = "GLOBAL"
	}
	if len(m) > 10 {
		m = m[:10]
	}
	// Creators in one organisation number one at a time: a no-op update
	// of the organisation's row holds the others (PostgreSQL; SQLite has
	// one writer anyway) until this transaction ends, and the count below
	// then sees their assets.
	if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "orgs", Columns: []string{"id"}, Rows: []map[string]any{{"id": c.OrgID}}, Where: condEq("id", c.OrgID)}); err != nil {
		return "", err
	}
	_, n, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: "assets", Columns: []fairbalance.SelectColumn{selCol("id", fairbalance.TypeText)}, Where: condEq("org_id", c.OrgID), Limit: -1, Count: true})
	if err != nil {
		return "", err
	}
	for i := n + 1; ; i++ {
		code := fmt.Sprintf("FB-%s-%04d", m, i)
		taken, err := jobCodeTaken(ctx, tx, c, code)
		if err != nil || !taken {
			return code, err
		}
	}
}

func jobCodeTaken(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, code string) (bool, error) {
	rows, err := readDBRows(ctx, tx, "assets", and(condEq("org_id", c.OrgID), condEq("job_code", code)), 1, selCol("id", fairbalance.TypeText))
	return len(rows) > 0, err
}

// createAsset creates an asset with its first version.
func (ct *Content) createAsset(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, in CreateAssetInput) (any, error) {
	if err := refuseWriter(c); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	now := ct.Now()
	a := map[string]any{"id": auth.NewUUID(), "org_id": c.OrgID, "title": in.Title, "type": string(in.Type),
		"product_id": nil, "audience": string(in.Audience), "channel": in.Channel, "market": in.Market,
		"owner_id": c.UserID, "status": string(fairbalance.AssetDraft), "current_version_number": int64(1), "approved_version_id": nil, "expires_at": nil,
		"created_by": c.UserID, "created_at": now, "updated_at": now}
	if in.ProductID != "" {
		if !auth.IsUUID(in.ProductID) {
			return nil, fkViolation("assets", "assets_product_id_fkey", "The product does not exist in your organisation.")
		}
		a["product_id"] = strings.ToLower(in.ProductID)
	}
	if in.ExpiresAt != "" {
		a["expires_at"] = in.ExpiresAt
	}
	if err := orgRef(ctx, tx, c, "assets", a, "product_id", "products", "product"); err != nil {
		return nil, err
	}
	code := in.JobCode
	if code == "" {
		var err error
		if code, err = nextJobCode(ctx, tx, c, in.Market); err != nil {
			return nil, err
		}
	} else {
		taken, err := jobCodeTaken(ctx, tx, c, code)
		if err != nil {
			return nil, err
		}
		if taken {
			return nil, uniqueViolation("assets", "assets_org_id_job_code_key", fmt.Sprintf("The job code %s is already used in your organisation.", code))
		}
	}
	a["job_code"] = code
	// The asset first (the version refers to it), pointing at the version
	// inserted next in the same transaction.
	a["current_version_id"] = nil
	asset, err := insertRow(ctx, tx, AssetsTable(), a)
	if err != nil {
		return nil, err
	}
	v, err := ct.newVersion(ctx, tx, c, str(asset, "id"), 1, in.Version, now)
	if err != nil {
		return nil, err
	}
	if asset, err = updateRow(ctx, tx, AssetsTable(), str(asset, "id"), map[string]any{"current_version_id": v["id"]}, nil); err != nil {
		return nil, err
	}
	if err := auditContent(ctx, tx, c, fairbalance.ActionAssetCreated, "assets", str(asset, "id"), nil, map[string]any{"asset": asset, "version": auditVersion(v)}); err != nil {
		return nil, err
	}
	if ct.onVersionAdded != nil {
		if err := ct.onVersionAdded(ctx, tx, c, "", v); err != nil {
			return nil, err
		}
	}
	return asset, nil
}

// decodeRow reads a row as the registry serves it into its domain type.
func decodeRow[T any](row map[string]any) (T, error) {
	var out T
	raw, err := json.Marshal(row)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		return out, fmt.Errorf("content: row as %T: %w", out, err)
	}
	return out, nil
}

// refuseVersion is the refusal of a new version of an asset in status s.
func refuseVersion(s fairbalance.AssetStatus) error {
	switch s {
	case fairbalance.AssetInReview:
		return raise(msgInReview)
	case fairbalance.AssetArchived:
		return raise(msgArchived)
	}
	return raise(fmt.Sprintf("An asset that is %s takes no new version.", s))
}

// statusesAcceptingVersions are the asset statuses in which a version may
// be added, as a condition's values.
func statusesAcceptingVersions() []any {
	var out []any
	for _, s := range fairbalance.AllAssetStatuses {
		if s.AcceptsVersions() {
			out = append(out, string(s))
		}
	}
	return out
}

// addAssetVersion adds the next version of an asset and makes it current.
func (ct *Content) addAssetVersion(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, in AddAssetVersionInput) (any, error) {
	row, err := writableRow(ctx, tx, c, AssetsTable(), in.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	asset, err := decodeRow[fairbalance.Asset](row)
	if err != nil {
		return nil, err
	}
	if !asset.Status.AcceptsVersions() {
		return nil, refuseVersion(asset.Status)
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	prev := int64(asset.CurrentVersionNumber)
	n := prev + 1
	now := ct.Now()
	v, err := ct.newVersion(ctx, tx, c, asset.ID, n, in.Version, now)
	if err != nil {
		return nil, err
	}
	// Conditional on the number and status read: a concurrent version or
	// submission makes this one fail rather than both taking effect.
	after, err := updateRow(ctx, tx, AssetsTable(), asset.ID,
		map[string]any{"current_version_id": v["id"], "current_version_number": n, "updated_at": now},
		and(condEq("current_version_number", prev), condIn("status", statusesAcceptingVersions())))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, raise("The asset changed meanwhile; reload it and try again.")
	}
	if err := auditContent(ctx, tx, c, fairbalance.ActionAssetVersionCreated, "asset_versions", str(v, "id"), nil, auditVersion(v)); err != nil {
		return nil, err
	}
	if ct.onVersionAdded != nil {
		prevID := ""
		if asset.CurrentVersionID != nil {
			prevID = *asset.CurrentVersionID
		}
		if err := ct.onVersionAdded(ctx, tx, c, prevID, v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// archiveAsset archives an asset: it stays readable and never changes again.
func (ct *Content) archiveAsset(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, in AssetInput) (any, error) {
	row, err := writableRow(ctx, tx, c, AssetsTable(), in.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	asset, err := decodeRow[fairbalance.Asset](row)
	if err != nil {
		return nil, err
	}
	if asset.Status == fairbalance.AssetArchived {
		return row, nil
	}
	if !asset.Status.CanTransition(fairbalance.AssetArchived) {
		return nil, raise(fmt.Sprintf(MsgStatusMove, "asset", asset.Status, fairbalance.AssetArchived))
	}
	after, err := updateRow(ctx, tx, AssetsTable(), asset.ID, map[string]any{"status": string(fairbalance.AssetArchived), "updated_at": ct.Now()}, condEq("status", string(asset.Status)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, raise("The asset changed meanwhile; reload it and try again.")
	}
	if err := auditContent(ctx, tx, c, fairbalance.ActionAssetArchived, "assets", asset.ID, row, after); err != nil {
		return nil, err
	}
	return after, nil
}

// attachReferenceFile sets (or replaces) the PDF of a reference with its
// extracted pages.
func (ct *Content) attachReferenceFile(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, in AttachReferenceFileInput) (any, error) {
	ref, err := writableRow(ctx, tx, c, ReferencesTable(), in.ReferenceID, "Reference")
	if err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	f := in.file
	o, err := tx.ObjectByName(ctx, f.object.BucketID, f.object.Name)
	if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && o.ID != f.object.ID) {
		return nil, raise("The uploaded file changed while it was being read; try again.")
	}
	if err != nil {
		return nil, err
	}
	name := in.FileName
	if name == "" {
		name = o.Name[strings.LastIndex(o.Name, "/")+1:]
	}
	after, err := updateRow(ctx, tx, ReferencesTable(), str(ref, "id"), map[string]any{
		"file_bucket": o.BucketID, "file_path": o.Name, "file_name": name, "sha256": f.sha256, "page_count": int64(f.pageNum),
		"page_texts": string(mustRaw(f.pages)), "plain_text": strings.Join(f.pages, "\f"), "updated_at": ct.Now()}, nil)
	if err != nil {
		return nil, err
	}
	if err := tx.SetSearchText(ctx, fairbalance.SearchTextReference, str(ref, "id"), f.searchText); err != nil {
		return nil, err
	}
	brief := func(r map[string]any) map[string]any {
		return map[string]any{"id": r["id"], "file_path": r["file_path"], "file_name": r["file_name"], "sha256": r["sha256"], "page_count": r["page_count"]}
	}
	if err := auditContent(ctx, tx, c, fairbalance.ActionReferenceFileAttached, "references", str(ref, "id"), brief(ref), brief(after)); err != nil {
		return nil, err
	}
	return after, nil
}

// contentCounts counts the organisation's assets (and by status),
// modules, claims and references, for the Hub's tab badges.
func (ct *Content) contentCounts(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if !c.InOrg() {
		if c.Anon() {
			return nil, denied(c, "permission denied for function content_counts")
		}
		return map[string]any{"assets": 0, "modules": 0, "claims": 0, "references": 0, "by_status": map[string]int64{}}, nil
	}
	count := func(table string, where *fairbalance.Cond) (int64, error) {
		_, n, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: table, Columns: []fairbalance.SelectColumn{selCol("id", fairbalance.TypeText)}, Where: where, Limit: -1, Count: true})
		return n, err
	}
	org := condEq("org_id", c.OrgID)
	out := map[string]any{}
	for k, table := range map[string]string{"assets": "assets", "modules": "modules", "claims": "claims", "references": "content_references"} {
		n, err := count(table, org)
		if err != nil {
			return nil, err
		}
		out[k] = n
	}
	by := map[string]int64{}
	for _, s := range fairbalance.AllAssetStatuses {
		n, err := count("assets", and(org, condEq("status", string(s))))
		if err != nil {
			return nil, err
		}
		by[string(s)] = n
	}
	out["by_status"] = by
	return out, nil
}

// fileInUse reports whether an object of a product bucket is the file of
// an asset version or a reference: such files stay while what cites them
// does (versions never change).
func fileInUse(ctx context.Context, tx fairbalance.Tx, bucket, name string) (bool, error) {
	for _, table := range []string{"asset_versions", "content_references"} {
		rows, err := readDBRows(ctx, tx, table, and(condEq("file_bucket", bucket), condEq("file_path", name)), 1, selCol("id", fairbalance.TypeText))
		if err != nil || len(rows) > 0 {
			return len(rows) > 0, err
		}
	}
	return false, nil
}

// fileLocked refuses changing (verb: "removed", "replaced", "moved") an
// object of a product bucket that an asset version or a reference names,
// whoever asks: their hashes bind them to these bytes, and a submitted
// version's signatures too (storage's Conflict, nothing changed).
func fileLocked(ctx context.Context, tx fairbalance.Tx, bucket, name, verb string) error {
	rows, err := readDBRows(ctx, tx, "asset_versions", and(condEq("file_bucket", bucket), condEq("file_path", name), submitted()), 1, selCol("id", fairbalance.TypeText))
	if err != nil {
		return err
	}
	if len(rows) > 0 {
		return fairbalance.Errorf(fairbalance.KindConflict, CodeInvalidRequest, MsgSubmittedFile, verb)
	}
	used, err := fileInUse(ctx, tx, bucket, name)
	if err != nil || !used {
		return err
	}
	return fairbalance.Errorf(fairbalance.KindConflict, CodeInvalidRequest, "This file belongs to an asset version or a reference and cannot be %s", verb)
}
