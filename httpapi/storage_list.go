package httpapi

import (
	"net/http"
	"strings"

	"fairbalance"
	"fairbalance/service"
)

// handleListV2 serves storage-js listV2: POST /object/list-v2/{bucket}
// with {prefix, limit, cursor, with_delimiter, sortBy: {column, order}};
// answers {hasNext, nextCursor?, nextCursorKey?, folders: [{name}],
// objects: [...]} with full names (folders ending in "/").
func (a *API) handleListV2(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body struct {
		Prefix        string `json:"prefix"`
		Limit         int    `json:"limit"`
		Cursor        string `json:"cursor"`
		WithDelimiter bool   `json:"with_delimiter"`
		SortBy        *struct {
			Column string `json:"column"`
			Order  string `json:"order"`
		} `json:"sortBy"`
	}
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	in := service.ListV2Input{Prefix: body.Prefix, Limit: body.Limit, Cursor: body.Cursor, WithDelimiter: body.WithDelimiter}
	if body.SortBy != nil {
		in.SortColumn, in.SortOrder = body.SortBy.Column, body.SortBy.Order
	}
	page, err := a.storage.ListV2(r.Context(), c, r.PathValue("bucket"), in)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	folders := make([]map[string]any, len(page.Folders))
	for i, f := range page.Folders {
		folders[i] = map[string]any{"name": f}
	}
	// key is the name's segment at the prefix's depth, as storage's
	// search_v2 gives it with a delimiter.
	level := 1
	if body.Prefix != "" {
		level = strings.Count(body.Prefix, "/") + 1
	}
	objects := make([]map[string]any, len(page.Objects))
	for i, o := range page.Objects {
		m := map[string]any{"id": o.ID, "name": o.Name, "updated_at": o.UpdatedAt, "created_at": o.CreatedAt,
			"last_accessed_at": o.LastAccessedAt, "metadata": objectMeta(o)}
		if body.WithDelimiter {
			m["key"] = segment(o.Name, level)
		}
		objects[i] = m
	}
	out := map[string]any{"hasNext": page.HasNext, "folders": folders, "objects": objects}
	if page.HasNext {
		out["nextCursor"], out["nextCursorKey"] = page.NextCursor, page.NextCursorKey
	}
	writeJSON(w, http.StatusOK, out)
}

// segment is the n-th "/"-separated segment of name (1-based; "" past the
// end), as PostgreSQL's split_part.
func segment(name string, n int) string {
	parts := strings.Split(name, "/")
	if n < 1 || n > len(parts) {
		return ""
	}
	return parts[n-1]
}
