package fairbalance

import (
	"encoding/json"
	"slices"
	"time"
)

// VersionKind is how a version's content was made.
type VersionKind string

// The version kinds.
const (
	// VersionAuthored: rich text written in the in-app editor.
	VersionAuthored VersionKind = "authored"
	// VersionFile: an uploaded file (PDF, PNG, JPEG, WebP).
	VersionFile VersionKind = "file"
)

// AllVersionKinds lists every VersionKind.
var AllVersionKinds = []VersionKind{VersionAuthored, VersionFile}

// VersionKindVocabulary is AllVersionKinds as clients know it.
var VersionKindVocabulary = NewVocabulary("version_kind", AllVersionKinds)

// Valid reports whether k is one of AllVersionKinds.
func (k VersionKind) Valid() bool { return slices.Contains(AllVersionKinds, k) }

// Version is one version of an asset (table asset_versions). Versions are
// insert-only and numbered 1, 2, 3… per asset; once submitted for review
// (SubmittedAt set) the database refuses any change to one.
type Version struct {
	ID      string      `json:"id"`
	OrgID   string      `json:"org_id"`
	AssetID string      `json:"asset_id"`
	Number  int         `json:"number"`
	Kind    VersionKind `json:"kind"`
	// ContentJSON (the editor's document) and ContentHTML (sanitised) are
	// set for authored versions.
	ContentJSON json.RawMessage `json:"content_json"`
	ContentHTML *string         `json:"content_html"`
	// PlainText is the extracted text; PageTexts the same per page (one
	// page for authored versions and images).
	PlainText string   `json:"plain_text"`
	PageTexts []string `json:"page_texts"`
	// The file of a file version: where it is stored and what it is.
	FileBucket *string `json:"file_bucket"`
	FilePath   *string `json:"file_path"`
	FileName   *string `json:"file_name"`
	MimeType   *string `json:"mimetype"`
	FileSize   *int64  `json:"file_size"`
	// SHA256 is the hex checksum of the rendition (the file, or the
	// sanitised HTML).
	SHA256      string     `json:"sha256"`
	PageCount   int        `json:"page_count"`
	ChangeNote  string     `json:"change_note"`
	SubmittedAt *time.Time `json:"submitted_at"`
	CreatedBy   string     `json:"created_by"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// VersionModule records that an authored version holds a module (table
// version_modules).
type VersionModule struct {
	VersionID string    `json:"version_id"`
	ModuleID  string    `json:"module_id"`
	AssetID   string    `json:"asset_id"`
	OrgID     string    `json:"org_id"`
	CreatedAt time.Time `json:"created_at"`
}
