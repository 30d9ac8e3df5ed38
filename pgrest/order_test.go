package pgrest

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in   string
		want Order
	}{
		{"age", Order{{Column: "age"}}},
		{"age.asc", Order{{Column: "age"}}},
		{"age.desc,height.asc", Order{{Column: "age", Desc: true}, {Column: "height"}}},
		{"age.nullsfirst", Order{{Column: "age", Nulls: NullsFirst}}},
		{"age.desc.nullslast", Order{{Column: "age", Desc: true, Nulls: NullsLast}}},
		{"a.asc,b.desc.nullsfirst", Order{{Column: "a"}, {Column: "b", Desc: true, Nulls: NullsFirst}}},
		{"created_at.desc", Order{{Column: "created_at", Desc: true}}},
		{"data->>k.desc", Order{{Column: "data", Path: []PathStep{{Key: "k", Text: true}}, Desc: true}}},
		{"data->a->0", Order{{Column: "data", Path: []PathStep{{Key: "a"}, {Key: "0"}}}}},
		{"users(name).desc", Order{{Relation: "users", Column: "name", Desc: true}}},
		{"users(meta->>k),id", Order{{Relation: "users", Column: "meta", Path: []PathStep{{Key: "k", Text: true}}}, {Column: "id"}}},
		{` "id" . desc , x `, Order{{Column: "id", Desc: true}, {Column: "x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseOrder(tt.in)
			if err != nil {
				t.Fatalf("ParseOrder: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
			again, err := ParseOrder(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip through %q: %#v, %v", got.String(), again, err)
			}
		})
	}
	o, _ := ParseOrder("a,b.desc.nullslast,users(c).nullsfirst")
	if got, want := o.String(), "a.asc,b.desc.nullslast,users(c).asc.nullsfirst"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestParseOrderErrors(t *testing.T) {
	tests := []struct{ in, details string }{
		{"", "unexpected end of input expecting column name"},
		{"a,", "unexpected end of input expecting column name"},
		{"a.up", `unexpected "u" expecting "asc", "desc", "nullsfirst" or "nullslast"`},
		{"a.desc.asc", `unexpected "a" expecting "asc"`},
		{"a.nullsfirst.desc", `unexpected "d" expecting "asc"`},
		{"a.nullsfirst.nullslast", `unexpected "n" expecting "asc"`},
		{"a.", "unexpected end of input expecting \"asc\""},
		{"a;drop", `"a;drop" is not a valid column name`},
		{"a b", `"a b" is not a valid column name`},
		{"a::text", "casts are not allowed in order"},
		{"users(name", `unexpected end of input expecting ")"`},
		{"users(teams(name))", `unexpected "(" expecting ")"`},
		{"users()", `unexpected ")" expecting column name`},
		{"a)", `unexpected ")" expecting ".", "," or end of input`},
		{"a.desc x", `unexpected "d" expecting "asc"`},
		{strings.Repeat("a,", MaxParamLength) + "a", "longer than"},
		{strings.Repeat("a.desc,", MaxOrderTerms) + "a", "the order lists more than 500 terms"},
	}
	for _, tt := range tests {
		t.Run(echo(tt.in), func(t *testing.T) {
			o, err := ParseOrder(tt.in)
			if err == nil {
				t.Fatalf("ParseOrder succeeded: %#v", o)
			}
			e := assertParseError(t, err)
			if !strings.Contains(e.Details, tt.details) {
				t.Fatalf("details %q do not contain %q", e.Details, tt.details)
			}
		})
	}
}
