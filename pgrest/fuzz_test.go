package pgrest

import (
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"testing"

	"fairbalance"
)

// The fuzz targets check properties that hold for every input: no panic;
// every failure is an *Error of the right code and kind; every success
// yields only identifiers that satisfy IsIdentifier and values without NUL
// or invalid UTF-8; and the canonical rendering parses back to the same
// value. Their seeds are in testdata/fuzz; plain go test runs only those.

func FuzzParseSelect(f *testing.F) {
	f.Add("*,users(id,name)")
	f.Fuzz(func(t *testing.T, in string) {
		sel, err := ParseSelect(in)
		if err != nil {
			checkError(t, err, CodeParse)
			return
		}
		for _, n := range selectNames(sel) {
			if !IsIdentifier(n) {
				t.Fatalf("ParseSelect(%q): name %q is not an identifier", in, n)
			}
		}
		checkSelect(t, sel, 0)
		again, err := ParseSelect(sel.String())
		if err != nil || !reflect.DeepEqual(again, sel) {
			t.Fatalf("ParseSelect(%q) renders as %q, which parses as %#v, %v", in, sel.String(), again, err)
		}
	})
}

// checkSelect checks casts, paths and the embedding depth.
func checkSelect(t *testing.T, sel Select, depth int) {
	t.Helper()
	for _, it := range sel {
		if it.Cast != "" && !slices.Contains(CastTypes(), it.Cast) {
			t.Fatalf("cast %q is not one of CastTypes", it.Cast)
		}
		checkPath(t, it.Path)
		if it.Embed != nil {
			if depth > 0 {
				t.Fatalf("embedding %q is nested", it.Embed.Relation)
			}
			checkSelect(t, it.Embed.Select, depth+1)
		}
	}
}

func checkPath(t *testing.T, path []PathStep) {
	t.Helper()
	for _, p := range path {
		if !IsIdentifier(p.Key) && !isIndex(p.Key) {
			t.Fatalf("JSON key %q is neither an identifier nor an index", p.Key)
		}
	}
}

func FuzzParseFilter(f *testing.F) {
	f.Add("id", "eq.5")
	f.Add("or", "(a.eq.1,b.eq.2)")
	f.Fuzz(func(t *testing.T, key, value string) {
		flt, err := ParseFilter(key, value)
		if err != nil {
			checkError(t, err, CodeParse)
			return
		}
		for _, n := range filterNames(flt) {
			if !IsIdentifier(n) {
				t.Fatalf("ParseFilter(%q, %q): name %q is not an identifier", key, value, n)
			}
		}
		checkFilter(t, flt, 1)
		k, v := flt.Param()
		again, err := ParseFilter(k, v)
		if err != nil || !reflect.DeepEqual(again, flt) {
			t.Fatalf("ParseFilter(%q, %q) renders as %q=%q, which parses as %s, %v", key, value, k, v, dump(again), err)
		}
		if c, ok := flt.(*Condition); ok && c.Relation == "" {
			// As an operand of a logic tree.
			g, err := ParseFilter("or", "("+flt.String()+")")
			if err != nil || !reflect.DeepEqual(g.(*Group).Filters, []Filter{flt}) {
				t.Fatalf("%s inside or=(...) parses as %s, %v", flt.String(), dump(g), err)
			}
		}
	})
}

// checkFilter checks values, operators, JSON paths and the nesting depth.
func checkFilter(t *testing.T, f Filter, depth int) {
	t.Helper()
	switch f := f.(type) {
	case *Condition:
		if !supportedOps[string(f.Operator)] {
			t.Fatalf("operator %q", f.Operator)
		}
		checkPath(t, f.Path)
		for _, v := range append([]string{f.Value}, f.Values...) {
			if msg := checkValue(v); msg != "" {
				t.Fatalf("value %q: %s", v, msg)
			}
		}
	case *Group:
		if depth > MaxLogicDepth || len(f.Filters) == 0 {
			t.Fatalf("group at depth %d with %d operands", depth, len(f.Filters))
		}
		for _, c := range f.Filters {
			if relationOf(c) != f.Relation {
				t.Fatalf("operand of a group on %q is on %q", f.Relation, relationOf(c))
			}
			checkFilter(t, c, depth+1)
		}
	default:
		t.Fatalf("filter of type %T", f)
	}
}

func FuzzParseOrder(f *testing.F) {
	f.Add("a.asc,b.desc.nullsfirst")
	f.Fuzz(func(t *testing.T, in string) {
		o, err := ParseOrder(in)
		if err != nil {
			checkError(t, err, CodeParse)
			return
		}
		if len(o) == 0 {
			t.Fatalf("ParseOrder(%q) is empty", in)
		}
		for _, n := range orderNames(o) {
			if !IsIdentifier(n) {
				t.Fatalf("ParseOrder(%q): name %q is not an identifier", in, n)
			}
		}
		for _, term := range o {
			checkPath(t, term.Path)
		}
		again, err := ParseOrder(o.String())
		if err != nil || !reflect.DeepEqual(again, o) {
			t.Fatalf("ParseOrder(%q) renders as %q, which parses as %#v, %v", in, o.String(), again, err)
		}
	})
}

func FuzzParseRequest(f *testing.F) {
	f.Add("select=*&id=eq.5", "count=exact", "", "")
	f.Fuzz(func(t *testing.T, query, prefer, rng, accept string) {
		q, _ := url.ParseQuery(query) // keeps what parsed before an error
		h := http.Header{}
		for name, v := range map[string]string{"Prefer": prefer, "Range": rng, "Accept": accept} {
			if v != "" {
				h.Set(name, v)
			}
		}
		r, err := ParseRequest(q, h)
		if err != nil {
			checkError(t, err, CodeParse, CodeRange, CodeNotEmbedded, CodeInvalidPreferences)
			return
		}
		assertIdentifiers(t, r)
		checkSelect(t, r.Select, 0)
		for _, flt := range r.Filters {
			checkFilter(t, flt, 1)
			if rel := relationOf(flt); rel != "" {
				if _, ok := r.Select.Embedding(rel); !ok {
					t.Fatalf("filter on %q, which is not embedded", rel)
				}
			}
		}
		if r.Offset < 0 || r.Limit != nil && *r.Limit < 0 {
			t.Fatalf("offset %d limit %d", r.Offset, *r.Limit)
		}
	})
}

// checkError checks that err is an *Error with one of the codes, and the
// kind that goes with it.
func checkError(t *testing.T, err error, codes ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T (%v) is not *Error", err, err)
	}
	kinds := map[string]fairbalance.Kind{CodeParse: fairbalance.KindInvalid, CodeRange: fairbalance.KindRangeNotSatisfiable,
		CodeNotEmbedded: fairbalance.KindInvalid, CodeInvalidPreferences: fairbalance.KindInvalid}
	if !slices.Contains(codes, e.Code) || e.Kind != kinds[e.Code] || e.Message == "" {
		t.Fatalf("unexpected error %#v", e)
	}
}
