package pgrest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fairbalance"
)

func cond(col string, op Operator, v string) *Condition {
	return &Condition{Column: col, Operator: op, Value: v}
}

func TestParseFilterConditions(t *testing.T) {
	tests := []struct {
		key, value string
		want       *Condition
	}{
		{"id", "eq.5", cond("id", OpEq, "5")},
		{"id", "eq.", cond("id", OpEq, "")},
		{"id", "eq.null", cond("id", OpEq, "null")}, // .eq(c, null): literal text, not IS NULL
		{"status", "neq.done", cond("status", OpNeq, "done")},
		{"n", "gt.1", cond("n", OpGt, "1")},
		{"n", "gte.1.5", cond("n", OpGte, "1.5")},
		{"n", "lt.-3", cond("n", OpLt, "-3")},
		{"d", "lte.2024-01-01T00:00:00+00:00", cond("d", OpLte, "2024-01-01T00:00:00+00:00")},
		// Top-level operands are verbatim: commas, parentheses, quotes, dots.
		{"name", "eq.a,b", cond("name", OpEq, "a,b")},
		{"name", `eq."quoted"`, cond("name", OpEq, `"quoted"`)},
		{"name", "eq.f(x).y", cond("name", OpEq, "f(x).y")},
		{"name", "eq.Zoë ☃", cond("name", OpEq, "Zoë ☃")},
		{"name", "eq.line\nbreak\ttab", cond("name", OpEq, "line\nbreak\ttab")},
		{"title", "like.%foo%", cond("title", OpLike, "%foo%")},
		{"title", "like.*foo*", cond("title", OpLike, "%foo%")},
		{"title", "ilike.*Foo_*", cond("title", OpILike, "%Foo_%")},
		{"a", "isdistinct.1", cond("a", OpIsDistinct, "1")},
		{"deleted_at", "is.null", cond("deleted_at", OpIs, IsNull)},
		{"deleted_at", "is.NULL", cond("deleted_at", OpIs, IsNull)},
		{"deleted_at", "is.not_null", cond("deleted_at", OpIs, IsNotNull)},
		{"flag", "is.true", cond("flag", OpIs, IsTrue)},
		{"flag", "is.False", cond("flag", OpIs, IsFalse)},
		{"flag", "is.unknown", cond("flag", OpIs, IsUnknown)},
		{"status", "not.eq.done", &Condition{Column: "status", Operator: OpEq, Negated: true, Value: "done"}},
		{"deleted_at", "not.is.null", &Condition{Column: "deleted_at", Operator: OpIs, Negated: true, Value: IsNull}},
		{"status", "in.(open,closed)", &Condition{Column: "status", Operator: OpIn, Values: []string{"open", "closed"}}},
		{"id", "in.(1,2,3)", &Condition{Column: "id", Operator: OpIn, Values: []string{"1", "2", "3"}}},
		{"id", "in.()", &Condition{Column: "id", Operator: OpIn, Values: []string{}}},
		{"id", `in.("")`, &Condition{Column: "id", Operator: OpIn, Values: []string{""}}},
		{"name", `in.("a","b")`, &Condition{Column: "name", Operator: OpIn, Values: []string{"a", "b"}}},
		{"name", `in.("a,b",c)`, &Condition{Column: "name", Operator: OpIn, Values: []string{"a,b", "c"}}},
		{"name", `in.("Hebdon,John","Williams,Mary")`, &Condition{Column: "name", Operator: OpIn, Values: []string{"Hebdon,John", "Williams,Mary"}}},
		{"name", `in.("Quote:\"","Backslash:\\")`, &Condition{Column: "name", Operator: OpIn, Values: []string{`Quote:"`, `Backslash:\`}}},
		{"name", `in.("(x)",y.z)`, &Condition{Column: "name", Operator: OpIn, Values: []string{"(x)", "y.z"}}},
		{"name", `in.(a b, c)`, &Condition{Column: "name", Operator: OpIn, Values: []string{"a b", " c"}}},
		{"name", `in.("a"b,c)`, &Condition{Column: "name", Operator: OpIn, Values: []string{`"a"b`, "c"}}},
		{"id", "not.in.(1,2)", &Condition{Column: "id", Operator: OpIn, Negated: true, Values: []string{"1", "2"}}},
		// cs / cd: array literals and JSON, as postgrest-js sends them.
		{"tags", "cs.{a,b}", &Condition{Column: "tags", Operator: OpContains, Values: []string{"a", "b"}}},
		{"tags", "cs.{}", &Condition{Column: "tags", Operator: OpContains, Values: []string{}}},
		{"tags", "cd.{ }", &Condition{Column: "tags", Operator: OpContainedIn, Values: []string{}}},
		{"meta", "cs.[]", &Condition{Column: "meta", Operator: OpContains, JSON: true, Value: "[]"}},
		{"tags", `cs.{"a,b", c ,"d\"e"}`, &Condition{Column: "tags", Operator: OpContains, Values: []string{"a,b", "c", `d"e`}}},
		{"tags", `cs.{a\,b}`, &Condition{Column: "tags", Operator: OpContains, Values: []string{"a,b"}}},
		{"tags", "cd.{1,2,3}", &Condition{Column: "tags", Operator: OpContainedIn, Values: []string{"1", "2", "3"}}},
		{"meta", `cs.{"a":1}`, &Condition{Column: "meta", Operator: OpContains, JSON: true, Value: `{"a":1}`}},
		{"meta", `cs.{"a": {"b": [1, 2]}}`, &Condition{Column: "meta", Operator: OpContains, JSON: true, Value: `{"a":{"b":[1,2]}}`}},
		{"meta", `cd.["a","b"]`, &Condition{Column: "meta", Operator: OpContainedIn, JSON: true, Value: `["a","b"]`}},
		{"meta", `not.cs.{"a":1}`, &Condition{Column: "meta", Operator: OpContains, Negated: true, JSON: true, Value: `{"a":1}`}},
		// Keys: JSON paths, embedded relations, quoted names.
		{"data->>kind", "eq.x", &Condition{Column: "data", Path: []PathStep{{Key: "kind", Text: true}}, Operator: OpEq, Value: "x"}},
		{"data->a->0->>b", "eq.x", &Condition{Column: "data", Path: []PathStep{{Key: "a"}, {Key: "0"}, {Key: "b", Text: true}}, Operator: OpEq, Value: "x"}},
		{"data->age", "gt.20", &Condition{Column: "data", Path: []PathStep{{Key: "age"}}, Operator: OpGt, Value: "20"}},
		{"users.name", "eq.x", &Condition{Relation: "users", Column: "name", Operator: OpEq, Value: "x"}},
		{"users.meta->>k", "is.null", &Condition{Relation: "users", Column: "meta", Path: []PathStep{{Key: "k", Text: true}}, Operator: OpIs, Value: IsNull}},
		{`"name"`, "eq.x", cond("name", OpEq, "x")},
		{"not", "eq.x", cond("not", OpEq, "x")},
		{"order_no", "eq.1", cond("order_no", OpEq, "1")},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			got, err := ParseFilter(tt.key, tt.value)
			if err != nil {
				t.Fatalf("ParseFilter: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
			assertRoundTrip(t, got)
		})
	}
}

func TestParseFilterLogic(t *testing.T) {
	or := func(fs ...Filter) *Group { return &Group{Logic: Or, Filters: fs} }
	and := func(fs ...Filter) *Group { return &Group{Logic: And, Filters: fs} }
	tests := []struct {
		key, value string
		want       *Group
	}{
		{"or", "(a.eq.1,b.eq.2)", or(cond("a", OpEq, "1"), cond("b", OpEq, "2"))},
		{"or", "(age.lt.18,age.gt.21)", or(cond("age", OpLt, "18"), cond("age", OpGt, "21"))},
		{"and", "(a.gte.0,a.lte.100)", and(cond("a", OpGte, "0"), cond("a", OpLte, "100"))},
		{"not.and", "(a.gte.0,a.lte.100)", &Group{Logic: And, Negated: true, Filters: []Filter{cond("a", OpGte, "0"), cond("a", OpLte, "100")}}},
		{"or", "(age.eq.14,not.and(age.gte.11,age.lte.17))", or(
			cond("age", OpEq, "14"),
			&Group{Logic: And, Negated: true, Filters: []Filter{cond("age", OpGte, "11"), cond("age", OpLte, "17")}},
		)},
		{"or", "(a.eq.1,and(b.gt.2,c.is.null),not.and(d.lt.0,e.gt.9))", or(
			cond("a", OpEq, "1"),
			and(cond("b", OpGt, "2"), cond("c", OpIs, IsNull)),
			&Group{Logic: And, Negated: true, Filters: []Filter{cond("d", OpLt, "0"), cond("e", OpGt, "9")}},
		)},
		{"or", "(a.eq.1,or(b.eq.2,and(c.eq.3,not.or(d.eq.4))))", or(
			cond("a", OpEq, "1"),
			or(cond("b", OpEq, "2"), and(cond("c", OpEq, "3"), &Group{Logic: Or, Negated: true, Filters: []Filter{cond("d", OpEq, "4")}})),
		)},
		// Spaces around operands, as people write .or('a.eq.1, b.eq.2').
		{"or", "( a.eq.1 , b.eq.2)", or(cond("a", OpEq, "1 "), cond("b", OpEq, "2"))},
		{"or", "(a.not.eq.1,b.not.in.(1,2))", or(
			&Condition{Column: "a", Operator: OpEq, Negated: true, Value: "1"},
			&Condition{Column: "b", Operator: OpIn, Negated: true, Values: []string{"1", "2"}},
		)},
		{"or", `(name.eq."a,b",name.eq."x)y",name.in.("p,q",r),name.eq."\"")`, or(
			cond("name", OpEq, "a,b"), cond("name", OpEq, "x)y"),
			&Condition{Column: "name", Operator: OpIn, Values: []string{"p,q", "r"}},
			cond("name", OpEq, `"`),
		)},
		{"or", "(x.eq.a.b.c,y.eq.,z.like.*q*)", or(cond("x", OpEq, "a.b.c"), cond("y", OpEq, ""), cond("z", OpLike, "%q%"))},
		// An unterminated quote is not a quoted value: the text is taken as is.
		{"or", `(a.eq."x"y,b.eq."y)`, or(cond("a", OpEq, `"x"y`), cond("b", OpEq, `"y`))},
		{"or", `(a.eq."x,b.eq.y")`, or(cond("a", OpEq, `x,b.eq.y`))},
		{"or", `(tags.cs.{a,b},meta.cs.{"k":"v,w"},tags.cd.{"x,y"})`, or(
			&Condition{Column: "tags", Operator: OpContains, Values: []string{"a", "b"}},
			&Condition{Column: "meta", Operator: OpContains, JSON: true, Value: `{"k":"v,w"}`},
			&Condition{Column: "tags", Operator: OpContainedIn, Values: []string{"x,y"}},
		)},
		{"or", "(data->>k.eq.1,not.is.null)", or(
			&Condition{Column: "data", Path: []PathStep{{Key: "k", Text: true}}, Operator: OpEq, Value: "1"},
			&Condition{Column: "not", Operator: OpIs, Value: IsNull},
		)},
		{"or", "(or.eq.1,and.is.true)", or(cond("or", OpEq, "1"), cond("and", OpIs, IsTrue))},
		{"users.or", "(name.eq.x,name.eq.y)", &Group{Relation: "users", Logic: Or, Filters: []Filter{
			&Condition{Relation: "users", Column: "name", Operator: OpEq, Value: "x"},
			&Condition{Relation: "users", Column: "name", Operator: OpEq, Value: "y"},
		}}},
		{"users.not.and", "(a.eq.1,or(b.eq.2))", &Group{Relation: "users", Logic: And, Negated: true, Filters: []Filter{
			&Condition{Relation: "users", Column: "a", Operator: OpEq, Value: "1"},
			&Group{Relation: "users", Logic: Or, Filters: []Filter{&Condition{Relation: "users", Column: "b", Operator: OpEq, Value: "2"}}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			got, err := ParseFilter(tt.key, tt.value)
			if err != nil {
				t.Fatalf("ParseFilter: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %s\nwant %s", dump(got), dump(tt.want))
			}
			assertRoundTrip(t, got)
		})
	}
}

func TestFilterParam(t *testing.T) {
	tests := []struct{ key, value, wantKey, wantValue string }{
		{"id", "eq.5", "id", "eq.5"},
		{"title", "like.*a*", "title", "like.%a%"},
		{"name", `in.(a,"b,c","")`, "name", `in.(a,"b,c","")`},
		{"name", `in.(x"y)`, "name", `in.("x\"y")`},
		{"tags", `cs.{ a , "b c" }`, "tags", `cs.{a,"b c"}`},
		{"meta", `cs.{ "a" : 1 }`, "meta", `cs.{"a":1}`},
		{"f", "is.NULL", "f", "is.null"},
		{"users.a->>b", "not.eq.(x)", "users.a->>b", "not.eq.(x)"},
		{"or", "( a.eq.\"x,y\" ,b.eq.[1])", "or", `(a.eq."x,y",b.eq."[1]")`},
		{"users.not.or", "(a.eq.1)", "users.not.or", "(a.eq.1)"},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.key, tt.value)
		if err != nil {
			t.Fatalf("ParseFilter(%q, %q): %v", tt.key, tt.value, err)
		}
		k, v := f.Param()
		if k != tt.wantKey || v != tt.wantValue {
			t.Errorf("ParseFilter(%q, %q).Param() = %q, %q; want %q, %q", tt.key, tt.value, k, v, tt.wantKey, tt.wantValue)
		}
	}
}

func TestParseFilterErrors(t *testing.T) {
	long := strings.Repeat("a", MaxParamLength+1)
	deep := "(" + strings.Repeat("and(", MaxLogicDepth) + "a.eq.1" + strings.Repeat(")", MaxLogicDepth) + ")"
	tests := []struct {
		key, value string
		details    string // a fragment of Details
	}{
		{"id", "5", `"5" is not a valid operator`},
		{"id", "", `expecting "not" or an operator`},
		{"id", "eq", `unexpected end of input expecting "."`},
		{"id", "foo.1", `"foo" is not a valid operator`},
		{"id", "EQ.1", `"EQ" is not a valid operator`},
		{"id", "not.not.eq.1", `"not" is not a valid operator`},
		{"id", "not.", `expecting "not" or an operator`},
		{"id", "match.^a", `the operator "match" is not supported`},
		{"id", "fts.cat", `the operator "fts" is not supported`},
		{"range", "ov.[1,5)", `the operator "ov" is not supported`},
		{"id", "like(any).{a,b}", "quantified operators"},
		{"id", "eq(all).{1,2}", "quantified operators"},
		{"f", "is.maybe", `"maybe" is not a valid value for is`},
		{"f", "is.", `"" is not a valid value for is`},
		{"id", "in.1,2", `expecting "("`},
		{"id", "in.(1,2", `expecting "," or ")"`},
		{"id", "in.(1,2))", "expecting end of input"},
		{"id", "in.(1,2)x", "expecting end of input"},
		{"tags", "cs.abc", "expecting an array literal"},
		{"tags", "cs.{{1,2},{3}}", "nested arrays"},
		{"tags", "cs.{a,,b}", "empty element"},
		{"tags", `cs.{"a}`, "unterminated double quote"},
		{"tags", "cs.{NULL}", "NULL elements are not supported"},
		{"tags", "cs.[1,2", "expecting an array literal"},
		{"tags", `cs."a"`, "expecting an array literal"},
		{"id", "eq.a\x00b", "NUL"},
		{"id", "eq.\xff", "UTF-8"},
		{"id", "in.(\"\x00\")", "NUL"},
		{"id", "eq." + long, "longer than"},
		// Keys.
		{"name;drop", "eq.1", `"name;drop" is not a valid column name`},
		{`"x"y`, "eq.1", `expecting "->", "->>", "." or end of input`},
		{`"a.b"`, "eq.1", `"a.b" is not a valid column name`},
		{`""`, "eq.1", `"" is not a valid column name`},
		{"1abc", "eq.1", `"1abc" is not a valid column name`},
		{"nic-hdl", "eq.1", `"nic-hdl" is not a valid column name`},
		{"na me", "eq.1", `"na me" is not a valid column name`},
		{"ctl\x01", "eq.1", "is not a valid column name"},
		{"é", "eq.1", "is not a valid column name"},
		{strings.Repeat("a", MaxIdentifierLength+1), "eq.1", "is not a valid column name"},
		{"", "eq.1", "expecting column name"},
		{"a.b.c", "eq.1", "one level deep"},
		{"a.", "eq.1", "expecting column name"},
		{"a::text", "eq.1", "casts are not allowed in filters"},
		{"data->", "eq.1", "is not a valid JSON key"},
		{"data->'k'", "eq.1", "is not a valid JSON key"},
		{"data->>k;x", "eq.1", "is not a valid JSON key"},
		{long, "eq.1", "longer than"},
		// Logic trees.
		{"or", "", `expecting "("`},
		{"or", "a.eq.1", `expecting "("`},
		{"or", "()", "expecting column name"},
		{"or", "(a.eq.1", `expecting "," or ")"`},
		{"or", "(a.eq.1,)", "expecting column name"},
		{"or", "(a.eq.1))", "expecting end of input"},
		{"or", "(a.eq.1)x", "expecting end of input"},
		{"or", "((a.eq.1))", "expecting column name"},
		{"or", "(and(a.eq.1)", `expecting "," or ")"`},
		{"or", "(a.b.eq.1)", `"b" is not a valid operator`},
		{"or", "(a.xx.1)", `"xx" is not a valid operator`},
		{"or", "(a.eq)", `expecting "."`},
		{"or", "(a;drop.eq.1)", `"a;drop" is not a valid column name`},
		{"or", "(a.in.(1,2)", `expecting "," or ")"`},
		{"or", "(a.cs.{x,y)", "unbalanced brackets"},
		{"or", "(a.eq.{z)", "unbalanced brackets"},
		{"or", deep, "nest at most"},
		{"or", "(a.eq.1\x00)", "NUL"},
		{"a.b.or", "(a.eq.1)", "a logic operator is written"},
		{"not.x.or", "(a.eq.1)", "a logic operator is written"},
		{"or->x", "(a.eq.1)", "a logic operator is written"},
		{"or", "(" + strings.Repeat("a.eq.1,", MaxParamLength/7) + "a.eq.1)", "longer than"},
	}
	for _, tt := range tests {
		t.Run(echo(tt.key+"="+tt.value), func(t *testing.T) {
			f, err := ParseFilter(tt.key, tt.value)
			if err == nil {
				t.Fatalf("ParseFilter succeeded: %s", dump(f))
			}
			e := assertParseError(t, err)
			if !strings.Contains(e.Details, tt.details) {
				t.Fatalf("details %q do not contain %q (message %q)", e.Details, tt.details, e.Message)
			}
		})
	}
}

func TestParseFilterMessage(t *testing.T) {
	_, err := ParseFilter("id", "foo.1")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not *Error", err)
	}
	want := &Error{Kind: fairbalance.KindInvalid, Code: "PGRST100", Message: `"failed to parse filter (foo.1)" (line 1, column 1)`, Details: `"foo" is not a valid operator`}
	if !reflect.DeepEqual(e, want) {
		t.Fatalf("got %#v\nwant %#v", e, want)
	}
	_, err = ParseFilter("or", "(a.eq.1,b)")
	if !errors.As(err, &e) || e.Message != `"failed to parse logic tree ((a.eq.1,b))" (line 1, column 10)` {
		t.Fatalf("got %v", err)
	}
	_, err = ParseFilter("a;b", "eq.1")
	if !errors.As(err, &e) || e.Message != `"failed to parse tree path (a;b)" (line 1, column 1)` {
		t.Fatalf("got %v", err)
	}
}

// assertRoundTrip checks that the canonical form of f parses back to f.
func assertRoundTrip(t *testing.T, f Filter) {
	t.Helper()
	k, v := f.Param()
	again, err := ParseFilter(k, v)
	if err != nil {
		t.Fatalf("re-parsing %q=%q: %v", k, v, err)
	}
	if !reflect.DeepEqual(again, f) {
		t.Fatalf("round trip through %q=%q:\ngot  %s\nwant %s", k, v, dump(again), dump(f))
	}
}

// assertParseError checks that err is a PGRST100 *Error of kind invalid.
func assertParseError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T (%v) is not *Error", err, err)
	}
	if e.Code != CodeParse || e.Kind != fairbalance.KindInvalid || !strings.HasPrefix(e.Message, `"failed to parse `) {
		t.Fatalf("unexpected error %#v", e)
	}
	return e
}

// dump renders a filter for failure messages.
func dump(f Filter) string {
	switch f := f.(type) {
	case *Condition:
		return fmt.Sprintf("%+v", *f)
	case *Group:
		parts := make([]string, len(f.Filters))
		for i, c := range f.Filters {
			parts[i] = dump(c)
		}
		return fmt.Sprintf("{Relation:%s Logic:%s Negated:%v Filters:[%s]}", f.Relation, f.Logic, f.Negated, strings.Join(parts, " "))
	}
	return fmt.Sprint(f)
}
