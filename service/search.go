package service

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/pdftext"
)

// msgEmptySearch refuses a blank search, as the contract words it.
const msgEmptySearch = "Enter something to search for."

// maxSearchQuery bounds what a search may send (characters).
const maxSearchQuery = 500

// msgSearchText refuses a search holding a NUL character or bytes that are
// not UTF-8 (possible over GET), which no text column can hold.
const msgSearchText = "The search must be text without NUL characters."

// plainText reports whether s is UTF-8 without NUL, as every database
// text value must be.
func plainText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// SearchResult is what search_content returns. It carries no timing: how
// long a search took would tell a client about the index, which holds
// other organisations' content too.
type SearchResult struct {
	Results []fairbalance.SearchHit `json:"results"`
}

// searchFunctions are the search functions: search_content.
func (d *Registry) searchFunctions() []*FunctionSpec {
	return []*FunctionSpec{
		{
			// search_content({query, kinds?, status?, type?, product_id?,
			// owner_id?, market?, limit?}): ranked full-text search over the
			// caller's organisation's assets (title, job code and every
			// version: matches in current content first, then assets found
			// only in an older version, whose hit names it in "version"),
			// claims, modules and references, with snippets whose matches
			// are wrapped in U+E000 … U+E001.
			Name: "search_content", ReadOnly: true,
			Args: []string{"query", "kinds", "status", "type", "product_id", "owner_id", "market", "limit"},
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				if !c.InOrg() {
					return nil, denied(c, "only members of an organisation search its content")
				}
				q, err := searchQuery(args)
				if err != nil {
					return nil, err
				}
				return SearchContent(ctx, tx, c.OrgID, q)
			},
		},
	}
}

// SearchContent runs q within orgID. It is what search_content runs once
// the caller and arguments are checked.
func SearchContent(ctx context.Context, tx fairbalance.Tx, orgID string, q fairbalance.SearchQuery) (*SearchResult, error) {
	hits, err := tx.SearchContent(ctx, orgID, q)
	if err != nil {
		return nil, err
	}
	return &SearchResult{Results: hits}, nil
}

// searchQuery validates search_content's arguments. Over GET every
// argument is a string: kinds is then "asset,claim" or "{asset,claim}".
func searchQuery(args map[string]any) (fairbalance.SearchQuery, error) {
	var q fairbalance.SearchQuery
	text, _ := args["query"].(string)
	if strings.TrimSpace(text) == "" {
		return q, raise(msgEmptySearch)
	}
	if len([]rune(text)) > maxSearchQuery {
		return q, raise("The search is too long (at most 500 characters).")
	}
	if !plainText(text) {
		return q, raise(msgSearchText)
	}
	q.Text = text
	switch v := args["kinds"].(type) {
	case nil:
	case string:
		for _, k := range strings.Split(strings.Trim(v, "{}"), ",") {
			if k = strings.Trim(strings.TrimSpace(k), `"`); k != "" {
				q.Kinds = append(q.Kinds, k)
			}
		}
	case []string:
		q.Kinds = append(q.Kinds, v...)
	case []any:
		for _, k := range v {
			s, ok := k.(string)
			if !ok {
				return q, raise("kinds must be a list of: asset, claim, module, reference.")
			}
			q.Kinds = append(q.Kinds, s)
		}
	default:
		return q, raise("kinds must be a list of: asset, claim, module, reference.")
	}
	for _, k := range q.Kinds {
		if !contains(fairbalance.SearchKinds, k) {
			return q, raise("kinds must be a list of: asset, claim, module, reference.")
		}
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"status", &q.Status}, {"type", &q.Type}, {"product_id", &q.ProductID}, {"owner_id", &q.OwnerID}, {"market", &q.Market}} {
		switch v := args[f.name].(type) {
		case nil:
		case string:
			if !plainText(v) {
				return q, raise(f.name + " must be text without NUL characters.")
			}
			*f.dst = strings.TrimSpace(v)
		default:
			return q, raise(f.name + " must be text.")
		}
	}
	q.Limit = 20
	switch v := args["limit"].(type) {
	case nil:
	case float64:
		if v != math.Trunc(v) || v < 1 || v > 100 {
			return q, raise("limit must be a whole number from 1 to 100.")
		}
		q.Limit = int(v)
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 100 {
			return q, raise("limit must be a whole number from 1 to 100.")
		}
		q.Limit = n
	default:
		return q, raise("limit must be a whole number from 1 to 100.")
	}
	return q, nil
}

// searchTextBatch is how many pending PDFs RefreshSearchTexts reads at a
// time.
const searchTextBatch = 20

// RefreshSearchTexts makes the search text (pdftext.SearchText: the pages
// without running headers, footers and page numbers) of every PDF, asset
// version or reference, whose index still holds its plain text: those
// written before search left that noise out (migration 0015) and
// references whose text changed without one. Each PDF is re-indexed in a
// transaction of its own, so that the writes of people using the server
// meanwhile wait for one PDF at most; it stops when none is left or ctx
// ends, and returns how many it made. The server runs it when it starts,
// while it serves: until a PDF's turn comes, search finds it by its plain
// text.
func RefreshSearchTexts(ctx context.Context, store fairbalance.Store) (int, error) {
	done := 0
	tried := map[string]bool{}
	for {
		pending, err := store.View().PendingSearchTexts(ctx, searchTextBatch)
		if err != nil || len(pending) == 0 {
			return done, err
		}
		fresh := 0
		for _, p := range pending {
			if tried[p.Kind+" "+p.ID] {
				continue
			}
			tried[p.Kind+" "+p.ID] = true
			fresh++
			text := pdftext.SearchText(p.Pages)
			err := store.Tx(ctx, func(tx fairbalance.Tx) error { return tx.SetSearchText(ctx, p.Kind, p.ID, text) })
			switch {
			case errors.Is(err, fairbalance.ErrNotFound):
				// Deleted meanwhile.
			case err != nil:
				return done, err
			default:
				done++
			}
		}
		if fresh == 0 {
			// Set, and still listed: a store that does not keep what it
			// is given must not keep this loop going.
			return done, fmt.Errorf("service: %d search texts stay pending once made", len(pending))
		}
	}
}
