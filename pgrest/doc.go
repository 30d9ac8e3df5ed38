// Package pgrest parses the query grammar of PostgREST, the data API that
// supabase-js speaks at /rest/v1, into a query description: which columns
// and embedded relations to select, a tree of filters, ordering, paging,
// and the preferences of the Prefer header.
//
// The package is pure. It knows no SQL, no HTTP and no schema: it
// turns the query string and a few headers into Go values, or refuses them
// with an *Error shaped like PostgREST's. Everything a client writes ends up
// in one of two places:
//
//   - identifiers (column, relation, alias, hint and JSON key names), which
//     always match IsIdentifier: ASCII letters, digits and underscores, not
//     starting with a digit, at most MaxIdentifierLength bytes. The SQL
//     layer must still check each one against its table registry before
//     using it; nothing here is quoted for SQL.
//   - values (filter operands), which are arbitrary UTF-8 strings without
//     NUL and must only ever be passed to the database as bind parameters.
//
// Supported: select lists with aliases, casts to a fixed set of types
// (CastTypes), JSON paths (col->key, col->>key, col->0), one level of
// embedding with !inner, !left and one disambiguation hint; the operators
// eq, neq, gt, gte, lt, lte, like, ilike, is, isdistinct, in, cs and cd,
// each optionally negated with not.; logic trees (or, and, not.or, not.and,
// nested); filters, logic trees, order, limit and offset on an embedded
// relation (rel.col, rel.or, rel.order, ...); order terms on to-one
// embedded columns (rel(col).desc); the Range header; the Prefer and
// Accept headers as far as they shape the query.
//
// Limits, refused with PGRST100: a parameter name or value longer than
// MaxParamLength bytes, a select of more than MaxSelectItems items (at
// every level together), an order of more than MaxOrderTerms terms,
// filters holding more than MaxFilterOperands values in all, logic trees
// nested deeper than MaxLogicDepth.
//
// Refused with PGRST100: embedding deeper than one level, spread
// embeddings (...rel), aggregates (count(), col.sum()), the operators
// match, imatch, ov, sl, sr, nxl, nxr, adj, fts, plfts, phfts and wfts,
// quantified operators (like(any), eq(all), ...), embedded columns inside
// a logic tree (or=(rel.col.eq.1); rel.or=(col.eq.1) is supported), casts
// in filters and order terms, casts to types outside CastTypes, and any
// name that is not an identifier (quoted names are accepted only if their
// content is one).
package pgrest
