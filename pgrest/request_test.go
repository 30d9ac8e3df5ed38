package pgrest

import (
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"fairbalance"
)

func parse(t *testing.T, raw string, h http.Header) (*Request, error) {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	if h == nil {
		h = http.Header{}
	}
	return ParseRequest(q, h)
}

func TestParseRequestDefaults(t *testing.T) {
	r, err := parse(t, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Request{Select: Select{star}}
	if !reflect.DeepEqual(*r, want) {
		t.Fatalf("got %s", dumpRequest(r))
	}
}

func TestParseRequestPaging(t *testing.T) {
	tests := []struct {
		raw, rng, unit string
		offset         int
		limit          *int
	}{
		{"limit=0", "", "", 0, intp(0)},
		{"offset=5", "", "", 5, nil},
		{"limit=99999999999999999999", "", "", 0, intp(1<<31 - 1)},
		{"", "0-9", "items", 0, intp(10)},
		{"", "0-9", "", 0, intp(10)},
		{"", "items=5-5", "", 5, intp(1)},
		{"", "20-", "items", 20, nil},
		{"", "0-9", "bytes", 0, nil},                 // another unit: ignored
		{"", "junk", "items", 0, nil},                // malformed: ignored
		{"", "-5", "items", 0, nil},                  // suffix ranges: ignored
		{"", "0-9,20-29", "", 0, nil},                // several ranges: ignored
		{"limit=5", "0-9", "", 0, intp(5)},           // intersection
		{"offset=5&limit=10", "0-9", "", 5, intp(5)}, // rows 5..9
		{"offset=20", "0-9", "", 20, intp(0)},        // disjoint: nothing
		{"limit=100", "10-", "", 10, intp(90)},
	}
	for _, tt := range tests {
		t.Run(tt.raw+" "+tt.rng, func(t *testing.T) {
			h := http.Header{}
			if tt.rng != "" {
				h.Set("Range", tt.rng)
			}
			if tt.unit != "" {
				h.Set("Range-Unit", tt.unit)
			}
			r, err := parse(t, tt.raw, h)
			if err != nil {
				t.Fatal(err)
			}
			if r.Offset != tt.offset || !reflect.DeepEqual(r.Limit, tt.limit) {
				t.Fatalf("offset %d limit %v, want %d %v", r.Offset, deref(r.Limit), tt.offset, deref(tt.limit))
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestParseRequestErrors(t *testing.T) {
	tests := []struct {
		raw    string
		header http.Header
		kind   fairbalance.Kind
		code   string
		text   string // a fragment of message or details
	}{
		{"limit=-1", nil, fairbalance.KindRangeNotSatisfiable, "PGRST103", "Limit should be greater than or equal to zero."},
		{"offset=-3", nil, fairbalance.KindRangeNotSatisfiable, "PGRST103", "Offset should be greater than or equal to zero."},
		{"limit=abc", nil, fairbalance.KindInvalid, "PGRST100", `failed to parse limit parameter (abc)`},
		{"limit=", nil, fairbalance.KindInvalid, "PGRST100", "expecting a non-negative integer"},
		{"limit=1.5", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse limit parameter"},
		{"limit=+1", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse limit parameter"},
		{"offset=0x10", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse offset parameter"},
		{"limit=1&limit=2", nil, fairbalance.KindInvalid, "PGRST100", "given more than once"},
		{"select=a&select=b", nil, fairbalance.KindInvalid, "PGRST100", "given more than once"},
		{"", http.Header{"Range": {"9-0"}}, fairbalance.KindRangeNotSatisfiable, "PGRST103", "The lower boundary must be lower than or equal to the upper boundary"},
		{"select=id,", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse select parameter"},
		{"id=5", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse filter (5)"},
		{"id", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse filter ()"},
		{"order=a.up", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse order (a.up)"},
		{"columns=a%3Bb", nil, fairbalance.KindInvalid, "PGRST100", `"a;b" is not a valid column name`},
		{"columns=", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse columns parameter"},
		{"columns=a,", nil, fairbalance.KindInvalid, "PGRST100", "expecting column name"},
		{"on_conflict=a b", nil, fairbalance.KindInvalid, "PGRST100", `"a b" is not a valid column name`},
		{"name%3Bdrop=eq.1", nil, fairbalance.KindInvalid, "PGRST100", `"name;drop" is not a valid column name`},
		{"%22x%22%3Bdrop=eq.1", nil, fairbalance.KindInvalid, "PGRST100", `expecting "->", "->>", "." or end of input`},
		// Parameters on relations the select does not embed.
		{"users.name=eq.x", nil, fairbalance.KindInvalid, "PGRST108", "'users' is not an embedded resource in this request"},
		{"select=*,u:users(*)&users.name=eq.x", nil, fairbalance.KindInvalid, "PGRST108", "'users' is not an embedded resource"},
		{"users.or=(a.eq.1)", nil, fairbalance.KindInvalid, "PGRST108", "'users' is not an embedded resource"},
		{"users.order=name", nil, fairbalance.KindInvalid, "PGRST108", "'users' is not an embedded resource"},
		{"users.limit=1", nil, fairbalance.KindInvalid, "PGRST108", "'users' is not an embedded resource"},
		{"order=users(name)", nil, fairbalance.KindInvalid, "PGRST108", "'users' is not an embedded resource"},
		{"select=*,users(*)&users.order=teams(name)", nil, fairbalance.KindInvalid, "PGRST100", "cannot be ordered by another relation"},
		{"select=*,users(*)&a.users.limit=1", nil, fairbalance.KindInvalid, "PGRST100", `"a.users" is not a valid relation name`},
		{".order=a", nil, fairbalance.KindInvalid, "PGRST100", `"" is not a valid relation name`},
		{"select=*,users(*)&users.limit=x", nil, fairbalance.KindInvalid, "PGRST100", "failed to parse limit parameter"},
		{"select=*,users(*)&users.offset=1&users.offset=2", nil, fairbalance.KindInvalid, "PGRST100", "given more than once"},
		{"", http.Header{"Prefer": {"handling=strict, foo=bar"}}, fairbalance.KindInvalid, "PGRST122", "Invalid preferences: foo=bar"},
		// Limits on what one request may ask of the database.
		{"select=" + strings.Repeat("id,", MaxSelectItems) + "id", nil, fairbalance.KindInvalid, "PGRST100", "the select lists more than 500 items"},
		{"order=" + strings.Repeat("id,", MaxOrderTerms) + "id", nil, fairbalance.KindInvalid, "PGRST100", "the order lists more than 500 terms"},
		{"a=in.(" + strings.Repeat("1,", 6000) + "1)&b=in.(" + strings.Repeat("1,", 4000) + "1)", nil, fairbalance.KindInvalid, "PGRST100", "the filters hold more than 10000 values in all"},
		{"or=(a.in.(" + strings.Repeat("1,", 5000) + "1),b.in.(" + strings.Repeat("1,", 5000) + "1))", nil, fairbalance.KindInvalid, "PGRST100", "the filters hold more than 10000 values in all"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			r, err := parse(t, tt.raw, tt.header)
			if err == nil {
				t.Fatalf("ParseRequest succeeded: %s", dumpRequest(r))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if e.Kind != tt.kind || e.Code != tt.code || !strings.Contains(e.Message+" | "+e.Details, tt.text) {
				t.Fatalf("got %#v, want %s %s containing %q", e, tt.kind, tt.code, tt.text)
			}
		})
	}
}

func TestParseRequestPGRST108Shape(t *testing.T) {
	_, err := parse(t, "clients.name=eq.x", nil)
	want := &Error{Kind: fairbalance.KindInvalid, Code: "PGRST108",
		Message: "'clients' is not an embedded resource in this request",
		Hint:    "Verify that 'clients' is included in the 'select' query parameter."}
	if !reflect.DeepEqual(err, error(want)) {
		t.Fatalf("got %#v", err)
	}
}

func TestParseRequestFilters(t *testing.T) {
	// Filters come out sorted by key, values in the order given; reserved
	// names are not filters.
	r, err := parse(t, "select=id,c:clients(name)&z=eq.1&a=gt.1&a=lt.5&c.name=like.A*&not.or=(x.eq.1,y.eq.2)&order=id&limit=1&offset=2&on_conflict=id&columns=id", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Filters {
		k, v := f.Param()
		got = append(got, k+"="+v)
	}
	want := []string{"a=gt.1", "a=lt.5", "c.name=like.A%", "not.or=(x.eq.1,y.eq.2)", "z=eq.1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("filters %q\nwant     %q", got, want)
	}
	if on := r.FiltersOn("c"); len(on) != 1 || on[0].(*Condition).Column != "name" {
		t.Fatalf("FiltersOn(c) = %v", on)
	}
	if base := r.FiltersOn(""); len(base) != 4 {
		t.Fatalf("FiltersOn(\"\") has %d filters", len(base))
	}
	if r.OnConflict[0] != "id" || r.Columns[0] != "id" || *r.Limit != 1 || r.Offset != 2 || r.Order[0].Column != "id" {
		t.Fatalf("reserved parameters: %s", dumpRequest(r))
	}
}

func TestParseRequestColumns(t *testing.T) {
	r, err := parse(t, "columns="+url.QueryEscape(`"a", b ,"a","c"`)+"&on_conflict=a,b", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Columns, []string{"a", "b", "c"}) || !reflect.DeepEqual(r.OnConflict, []string{"a", "b"}) {
		t.Fatalf("columns %q on_conflict %q", r.Columns, r.OnConflict)
	}
}

func TestParseRequestAccept(t *testing.T) {
	tests := []struct {
		accept               string
		singular, stripNulls bool
	}{
		{"", false, false},
		{"*/*", false, false},
		{"application/json", false, false},
		{"application/vnd.pgrst.object+json", true, false},
		{"Application/Vnd.Pgrst.Object+JSON; charset=utf-8", true, false},
		{"application/vnd.pgrst.object", true, false},
		{"text/csv, application/vnd.pgrst.object+json;q=0.5", true, false},
		{"application/vnd.pgrst.array+json; nulls=stripped", false, true},
		{"application/json;nulls=stripped", false, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.accept != "" {
			h.Set("Accept", tt.accept)
		}
		r, err := parse(t, "", h)
		if err != nil {
			t.Fatal(err)
		}
		if r.Singular != tt.singular || r.StripNulls != tt.stripNulls {
			t.Errorf("Accept %q: singular %v stripNulls %v", tt.accept, r.Singular, r.StripNulls)
		}
	}
}

// assertIdentifiers checks every name in r against IsIdentifier.
func assertIdentifiers(t testing.TB, r *Request) {
	t.Helper()
	for _, n := range requestNames(r) {
		if !IsIdentifier(n) {
			t.Fatalf("parsed name %q is not an identifier", n)
		}
	}
}

// requestNames lists every identifier a parsed request holds.
func requestNames(r *Request) []string {
	names := append(append([]string{}, r.Columns...), r.OnConflict...)
	names = append(names, selectNames(r.Select)...)
	names = append(names, orderNames(r.Order)...)
	for _, f := range r.Filters {
		names = append(names, filterNames(f)...)
	}
	return names
}

func selectNames(s Select) []string {
	var names []string
	for _, it := range s {
		if it.Star {
			continue
		}
		if it.Alias != "" {
			names = append(names, it.Alias)
		}
		if e := it.Embed; e != nil {
			names = append(names, e.Relation)
			if e.Hint != "" {
				names = append(names, e.Hint)
			}
			names = append(names, selectNames(e.Select)...)
			names = append(names, orderNames(e.Order)...)
			continue
		}
		names = append(names, it.Column)
		names = append(names, pathNames(it.Path)...)
	}
	return names
}

func orderNames(o Order) []string {
	var names []string
	for _, t := range o {
		if t.Relation != "" {
			names = append(names, t.Relation)
		}
		names = append(names, t.Column)
		names = append(names, pathNames(t.Path)...)
	}
	return names
}

func filterNames(f Filter) []string {
	var names []string
	switch f := f.(type) {
	case *Condition:
		if f.Relation != "" {
			names = append(names, f.Relation)
		}
		names = append(names, f.Column)
		names = append(names, pathNames(f.Path)...)
	case *Group:
		if f.Relation != "" {
			names = append(names, f.Relation)
		}
		for _, c := range f.Filters {
			names = append(names, filterNames(c)...)
		}
	}
	return names
}

// pathNames returns the object keys of a JSON path (indexes are checked by
// isIndex instead).
func pathNames(path []PathStep) []string {
	var names []string
	for _, p := range path {
		if !isIndex(p.Key) {
			names = append(names, p.Key)
		}
	}
	return names
}
