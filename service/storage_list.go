package service

import (
	"context"
	"encoding/base64"
	"strings"
	"time"

	"fairbalance"
)

// Listings (list v1 and list-v2) are keyset pages read from the SQL store:
// they cost about the size of the page, not of the bucket (folders are
// skipped over by index seeks), except list v1 by a time column and
// list-v2 with folders by a time column, which group every name under the
// prefix into folders first, as Supabase's storage does.

// listScoped runs l in bucket b for c: in a product bucket (server paths)
// a member reaches only the names under "<org_id>/", so the listing is
// narrowed to them in SQL (never filtered afterwards, which would leave
// short pages).
func (s *Storage) listScoped(ctx context.Context, c fairbalance.Caller, b *fairbalance.Bucket, l fairbalance.ObjectListing) ([]fairbalance.ObjectEntry, error) {
	l.BucketID = b.ID
	scope := ""
	if b.ServerPaths && !c.Service() {
		scope = c.OrgID + "/"
	}
	switch {
	case scope == "" || strings.HasPrefix(l.Prefix, scope):
	case !strings.HasPrefix(scope, l.Prefix):
		return []fairbalance.ObjectEntry{}, nil
	case !l.Folders:
		l.Prefix = scope
	default:
		// Above the organisation's folder, the folder is all there is to see.
		if l.AfterName != "" || l.Limit <= 0 {
			return []fairbalance.ObjectEntry{}, nil
		}
		some, err := s.store.View().ListObjects(ctx, fairbalance.ObjectListing{BucketID: b.ID, Prefix: scope, Limit: 1})
		if err != nil || len(some) == 0 {
			return []fairbalance.ObjectEntry{}, err
		}
		return []fairbalance.ObjectEntry{{Name: scope, Time: some[0].Object.CreatedAt}}, nil
	}
	es, err := s.store.View().ListObjects(ctx, l)
	if err != nil {
		return nil, err
	}
	out := es[:0]
	for _, e := range es {
		// An object removed between the queries of a time listing.
		if e.Object != nil || strings.HasSuffix(e.Name, "/") {
			out = append(out, e)
		}
	}
	return out, nil
}

// list runs list v1: the immediate children of the folder in.Prefix
// whose names begin with in.Search, at most in.Limit (100 by default,
// 1500 at most) after skipping in.Offset.
func (s *Storage) list(ctx context.Context, c fairbalance.Caller, b *fairbalance.Bucket, in ListInput) ([]ListEntry, error) {
	prefix := strings.Trim(in.Prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 1500)
	off := max(in.Offset, 0)
	col := in.SortColumn
	switch col {
	case "created_at", "updated_at", "last_accessed_at":
	default:
		col = "name"
	}
	// The offset is skipped here, after a keyset walk from the start: v1
	// pages by offset.
	es, err := s.listScoped(ctx, c, b, fairbalance.ObjectListing{Prefix: prefix + in.Search, Folders: true, Sort: col,
		Desc: strings.EqualFold(in.SortOrder, "desc"), FoldersFirst: col != "name", Limit: off + limit})
	if err != nil {
		return nil, err
	}
	out := []ListEntry{}
	for i := off; i < len(es); i++ {
		out = append(out, ListEntry{Name: strings.TrimSuffix(strings.TrimPrefix(es[i].Name, prefix), "/"), Object: es[i].Object})
	}
	return out, nil
}

// ListV2Input is the body of POST /object/list-v2/{bucket}.
type ListV2Input struct {
	// Prefix keeps the names that begin with it (not only a folder).
	Prefix string
	// Limit is the page size (1000 by default and at most).
	Limit int
	// Cursor is the NextCursor of the previous page; it carries the sort.
	Cursor string
	// WithDelimiter groups the names with a "/" after Prefix into folders.
	WithDelimiter bool
	// SortColumn is "name" (default), "updated_at" or "created_at";
	// SortOrder "asc" (default) or "desc".
	SortColumn string
	SortOrder  string
}

// ListV2Page is one page of list-v2. Folder names end in "/"; names are
// full object names.
type ListV2Page struct {
	HasNext bool
	// NextCursor continues the listing (empty on the last page);
	// NextCursorKey is the name of the page's last entry.
	NextCursor    string
	NextCursorKey string
	Folders       []string
	Objects       []*fairbalance.StoredObject
}

// The cursor is storage's continuation token: base64 of "k:value" lines,
// l the last name, o the order, c the sort column, a the last entry's time.
func encodeCursor(name, order, column string, after time.Time) string {
	var b strings.Builder
	b.WriteString("l:" + name)
	if order != "" {
		b.WriteString("\no:" + order)
	}
	if column != "" {
		b.WriteString("\nc:" + column)
	}
	if column != "" && column != "name" {
		b.WriteString("\na:" + after.UTC().Format(time.RFC3339Nano))
	}
	return base64.StdEncoding.EncodeToString([]byte(b.String()))
}

func errBadCursor() error {
	return fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "Invalid parameter: continuation token")
}

func decodeCursor(cur string, in *ListV2Input) (name string, after time.Time, err error) {
	raw, err := base64.StdEncoding.DecodeString(cur)
	if err != nil {
		return "", time.Time{}, errBadCursor()
	}
	for _, part := range strings.Split(string(raw), "\n") {
		k, v, ok := strings.Cut(part, ":")
		if !ok || len(k) != 1 {
			return "", time.Time{}, errBadCursor()
		}
		switch k {
		case "l":
			name = v
		case "o":
			in.SortOrder = v
		case "c":
			in.SortColumn = v
		case "a":
			if after, err = time.Parse(time.RFC3339Nano, v); err != nil {
				return "", time.Time{}, errBadCursor()
			}
		default:
			return "", time.Time{}, errBadCursor()
		}
	}
	if name == "" {
		return "", time.Time{}, errBadCursor()
	}
	return name, after, nil
}

// ListV2 lists a bucket's objects by pages, continuing from a cursor:
// flat, or with the names that have a "/" after the prefix grouped into
// folders; by name or by a time column (then name).
func (s *Storage) ListV2(ctx context.Context, c fairbalance.Caller, bucket string, in ListV2Input) (*ListV2Page, error) {
	b, err := s.bucket(ctx, s.store.View(), c, bucket)
	if err != nil {
		return nil, err
	}
	var l fairbalance.ObjectListing
	if in.Cursor != "" {
		if l.AfterName, l.AfterTime, err = decodeCursor(in.Cursor, &in); err != nil {
			return nil, err
		}
	}
	switch in.SortColumn {
	case "":
		in.SortColumn = "name"
	case "name", "updated_at", "created_at":
	default:
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "sortBy.column must be name, updated_at or created_at")
	}
	switch in.SortOrder {
	case "", "asc", "desc":
	default:
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "sortBy.order must be asc or desc")
	}
	if in.Limit < 0 {
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "limit must be positive")
	}
	limit := in.Limit
	if limit == 0 || limit > 1000 {
		limit = 1000
	}
	l.Prefix, l.Folders, l.Sort, l.Desc, l.Limit = in.Prefix, in.WithDelimiter, in.SortColumn, in.SortOrder == "desc", limit+1
	es, err := s.listScoped(ctx, c, b, l)
	if err != nil {
		return nil, err
	}
	page := &ListV2Page{Folders: []string{}, Objects: []*fairbalance.StoredObject{}}
	if len(es) > limit {
		page.HasNext = true
		es = es[:limit]
		last := es[len(es)-1]
		page.NextCursor = encodeCursor(last.Name, in.SortOrder, in.SortColumn, last.Time)
		page.NextCursorKey = last.Name
	}
	for _, e := range es {
		if e.Object == nil {
			page.Folders = append(page.Folders, e.Name)
		} else {
			page.Objects = append(page.Objects, e.Object)
		}
	}
	return page, nil
}
