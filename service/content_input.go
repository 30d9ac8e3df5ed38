package service

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"fairbalance"
)

// The inputs of the content functions. The rpc arguments are decoded
// into them once; each function then works on typed values and checks
// them with the domain's vocabularies. A refused input is one
// *fairbalance.Error (KindInvalid) whose Fields say what is wrong with
// each field; its Code and Message are those of the first refusal, as the
// data API has always answered it (23514 for a value a CHECK constraint
// refuses, P0001 for a function's own refusal).

// PrepareUploadInput is the input of prepare_upload: an upload the client
// is about to make to a product bucket.
type PrepareUploadInput struct {
	Bucket   string
	FileName string
	// ContentType is the media type's essence, lower case.
	ContentType string
	// Size is the size in bytes; 0 when it was not a whole number.
	Size int64
}

func decodePrepareUpload(args map[string]any) PrepareUploadInput {
	essence, _, _ := strings.Cut(strings.ToLower(argString(args, "content_type")), ";")
	size, ok := argInt(args, "size")
	if !ok {
		size = 0
	}
	return PrepareUploadInput{Bucket: argString(args, "bucket"), FileName: argString(args, "file_name"), ContentType: strings.TrimSpace(essence), Size: size}
}

// Validate checks what does not depend on the bucket: a name, a file type
// of the product buckets, a size.
func (in PrepareUploadInput) Validate() error {
	var v inputCheck
	if in.FileName == "" || utf8.RuneCountInString(in.FileName) > 255 {
		v.raise("file_name", "The file needs a name of at most 255 characters.")
	}
	if _, ok := mimeExtensions[in.ContentType]; !ok {
		v.raise("content_type", msgUploadTypes)
	}
	if in.Size <= 0 {
		v.raise("size", "The file is empty.")
	}
	return v.err()
}

// msgUploadTypes refuses a file type the product buckets do not take.
const msgUploadTypes = "Only PDF, PNG, JPEG and WebP files can be uploaded."

// VersionInput is the content of a new version: composed in the editor
// (ContentHTML, with the editor's document in ContentJSON) or an uploaded
// file (FilePath), never both.
type VersionInput struct {
	ContentHTML *string
	// ContentJSON is the editor's JSON document (an object), if sent.
	ContentJSON any
	FilePath    string
	// FileName is the name to show for the file; "" for the object's.
	FileName   string
	ChangeNote string
	// file is the uploaded file, read before the transaction (Prepare).
	file *preparedFile
}

func decodeVersion(args map[string]any) VersionInput {
	in := VersionInput{ContentJSON: args["content_json"], FilePath: argString(args, "file_path"), FileName: argString(args, "file_name"), ChangeNote: argString(args, "change_note")}
	if s, ok := args["content_html"].(string); ok {
		in.ContentHTML = &s
	}
	in.file, _ = args[preparedKey].(*preparedFile)
	return in
}

// check adds the version's refusals to v; a change note is required from
// the second version on.
func (in VersionInput) check(v *inputCheck, changeNoteRequired bool) {
	hasFile := in.FilePath != ""
	if (in.ContentHTML != nil) == hasFile {
		const msg = "Give either the composed content (content_html) or an uploaded file (file_path), not both."
		v.raise("content_html", msg)
		v.raise("file_path", msg)
	}
	if hasFile && in.file == nil {
		v.raise("file_path", msgUploadMissing)
	}
	if utf8.RuneCountInString(in.FileName) > 255 {
		v.raise("file_name", "The file name is longer than 255 characters.")
	}
	if in.ContentHTML != nil && len(*in.ContentHTML) > 2<<20 {
		v.raise("content_html", "The content is too long (at most 2 MB of HTML).")
	}
	if in.ContentHTML != nil && in.ContentJSON != nil {
		if _, isObj := in.ContentJSON.(map[string]any); !isObj {
			v.raise("content_json", "content_json must be the editor's JSON document (an object).")
		}
	}
	if utf8.RuneCountInString(in.ChangeNote) > 1000 {
		v.raise("change_note", "The change note is longer than 1000 characters.")
	} else if changeNoteRequired && in.ChangeNote == "" {
		v.raise("change_note", "Describe what changed in this version (a change note of 1 to 1000 characters).")
	}
}

// msgUploadMissing refuses a file_path that names no uploaded object of
// the caller's organisation.
const msgUploadMissing = "The uploaded file was not found; upload it again."

// CreateAssetInput is the input of create_asset: a new asset and its
// first version.
type CreateAssetInput struct {
	Title    string
	Type     fairbalance.AssetType
	Audience fairbalance.Audience
	// ProductID is "" for none.
	ProductID string
	Channel   string
	Market    string
	// JobCode is "" for the next FB-<MARKET>-<NNNN> of the organisation.
	JobCode string
	// ExpiresAt is YYYY-MM-DD, or "" for none.
	ExpiresAt string
	Version   VersionInput
}

func decodeCreateAsset(args map[string]any) CreateAssetInput {
	return CreateAssetInput{
		Title: argString(args, "title"), Type: fairbalance.AssetType(argString(args, "type")), Audience: fairbalance.Audience(argString(args, "audience")),
		ProductID: argString(args, "product_id"), Channel: argString(args, "channel"), Market: argString(args, "market"),
		JobCode: argString(args, "job_code"), ExpiresAt: argString(args, "expires_at"), Version: decodeVersion(args),
	}
}

var jobCodePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,49}$`)

// Validate checks the asset's fields against the vocabularies and limits
// of table assets, then its first version, then a job code given.
func (in CreateAssetInput) Validate() error {
	var v inputCheck
	v.text("title", "The title", in.Title, 1, 200)
	if !in.Type.Valid() {
		v.check("type", fairbalance.AssetTypeVocabulary.Refusal("The type"))
	}
	if !in.Audience.Valid() {
		v.check("audience", fairbalance.AudienceVocabulary.Refusal("The audience"))
	}
	v.text("channel", "The channel", in.Channel, 0, 100)
	v.text("market", "The market", in.Market, 0, 20)
	if in.ExpiresAt != "" {
		if msg := dateProblem("The expiry date", in.ExpiresAt); msg != "" {
			v.check("expires_at", msg)
		}
	}
	in.Version.check(&v, false)
	if in.JobCode != "" && !jobCodePattern.MatchString(in.JobCode) {
		v.check("job_code", "A job code has 1 to 50 letters, digits, spaces and . _ / - characters.")
	}
	return v.err()
}

// AddAssetVersionInput is the input of add_asset_version.
type AddAssetVersionInput struct {
	AssetID string
	Version VersionInput
}

func decodeAddAssetVersion(args map[string]any) AddAssetVersionInput {
	return AddAssetVersionInput{AssetID: argString(args, "asset_id"), Version: decodeVersion(args)}
}

// Validate checks the version, which needs a change note.
func (in AddAssetVersionInput) Validate() error {
	var v inputCheck
	in.Version.check(&v, true)
	return v.err()
}

// AssetInput names an asset (archive_asset).
type AssetInput struct {
	AssetID string
}

func decodeAsset(args map[string]any) AssetInput {
	return AssetInput{AssetID: argString(args, "asset_id")}
}

// AttachReferenceFileInput is the input of attach_reference_file.
type AttachReferenceFileInput struct {
	ReferenceID string
	FilePath    string
	// FileName is the name to show for the file; "" for the object's.
	FileName string
	file     *preparedFile
}

func decodeAttachReferenceFile(args map[string]any) AttachReferenceFileInput {
	in := AttachReferenceFileInput{ReferenceID: argString(args, "reference_id"), FilePath: argString(args, "file_path"), FileName: argString(args, "file_name")}
	in.file, _ = args[preparedKey].(*preparedFile)
	return in
}

// Validate checks that a file was uploaded and its name.
func (in AttachReferenceFileInput) Validate() error {
	var v inputCheck
	if in.file == nil {
		v.raise("file_path", "Upload the reference's file first (file_path).")
	}
	if utf8.RuneCountInString(in.FileName) > 255 {
		v.raise("file_name", "The file name is longer than 255 characters.")
	}
	return v.err()
}

// typed adapts a content function over a typed input to the rpc shape:
// the arguments are decoded once, on the way in.
func typed[In any](decode func(map[string]any) In, fn func(context.Context, fairbalance.Tx, fairbalance.Caller, In) (any, error)) func(context.Context, fairbalance.Tx, fairbalance.Caller, map[string]any) (any, error) {
	return func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
		return fn(ctx, tx, c, decode(args))
	}
}

// inputCheck collects the refusals of one input, a message per field
// (the first for a field stands); the first refusal of all gives the
// error its code and message.
type inputCheck struct {
	code    string
	message string
	fields  map[string]string
}

func (v *inputCheck) add(field, code, msg string) {
	if v.fields == nil {
		v.fields = map[string]string{}
		v.code, v.message = code, msg
	}
	if _, ok := v.fields[field]; !ok {
		v.fields[field] = msg
	}
}

// check refuses a field as the table's CHECK constraint would (23514).
func (v *inputCheck) check(field, msg string) { v.add(field, "23514", msg) }

// raise refuses a field as the function itself does (P0001).
func (v *inputCheck) raise(field, msg string) { v.add(field, "P0001", msg) }

// text checks a text's length in characters, after trimming.
func (v *inputCheck) text(field, label, s string, minLen, maxLen int) {
	if msg := textProblem(label, s, minLen, maxLen); msg != "" {
		v.check(field, msg)
	}
}

// err is the refusal of the input, or nil when nothing was refused.
func (v *inputCheck) err() error {
	if v.fields == nil {
		return nil
	}
	return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: v.code, Message: v.message, Fields: v.fields}
}
