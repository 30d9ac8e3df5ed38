package pgrest

import (
	"reflect"
	"strings"
	"testing"
)

func col(name string) SelectItem { return SelectItem{Column: name} }

var star = SelectItem{Star: true}

func TestParseSelect(t *testing.T) {
	tests := []struct {
		in   string
		want Select
	}{
		{"*", Select{star}},
		{"", Select{}},
		{"id", Select{col("id")}},
		{"id,name", Select{col("id"), col("name")}},
		{" id , name ", Select{col("id"), col("name")}},
		{`"id","name"`, Select{col("id"), col("name")}},
		{"fullName:full_name,birthDate:birth_date", Select{
			{Alias: "fullName", Column: "full_name"}, {Alias: "birthDate", Column: "birth_date"},
		}},
		{"full_name,salary::text", Select{col("full_name"), {Column: "salary", Cast: "text"}}},
		{"s:salary::INT", Select{{Alias: "s", Column: "salary", Cast: "integer"}}},
		{"a::int8,b::bool,c::decimal,d::jsonb", Select{
			{Column: "a", Cast: "bigint"}, {Column: "b", Cast: "boolean"}, {Column: "c", Cast: "numeric"}, {Column: "d", Cast: "jsonb"},
		}},
		{"id,json_data->>blood_type,json_data->phones", Select{
			col("id"),
			{Column: "json_data", Path: []PathStep{{Key: "blood_type", Text: true}}},
			{Column: "json_data", Path: []PathStep{{Key: "phones"}}},
		}},
		{"id,json_data->phones->0->>number", Select{
			col("id"),
			{Column: "json_data", Path: []PathStep{{Key: "phones"}, {Key: "0"}, {Key: "number", Text: true}}},
		}},
		{"primary_language:languages->0,x->-1", Select{
			{Alias: "primary_language", Column: "languages", Path: []PathStep{{Key: "0"}}},
			{Column: "x", Path: []PathStep{{Key: "-1"}}},
		}},
		{"age:data->>age::int", Select{{Alias: "age", Column: "data", Path: []PathStep{{Key: "age", Text: true}}, Cast: "integer"}}},
		{"*,users(*)", Select{star, {Embed: &Embed{Relation: "users", Select: Select{star}}}}},
		{"id,users(id,name)", Select{col("id"), {Embed: &Embed{Relation: "users", Select: Select{col("id"), col("name")}}}}},
		{"*,author:users(name)", Select{star, {Alias: "author", Embed: &Embed{Relation: "users", Select: Select{col("name")}}}}},
		{"*,users!inner(name)", Select{star, {Embed: &Embed{Relation: "users", Inner: true, Select: Select{col("name")}}}}},
		{"*,users!left(name)", Select{star, {Embed: &Embed{Relation: "users", Select: Select{col("name")}}}}},
		{"*,owner:users!owner_id!inner(n:name,meta->>k)", Select{star, {Alias: "owner", Embed: &Embed{
			Relation: "users", Hint: "owner_id", Inner: true,
			Select: Select{{Alias: "n", Column: "name"}, {Column: "meta", Path: []PathStep{{Key: "k", Text: true}}}},
		}}}},
		{"*,users!inner()", Select{star, {Embed: &Embed{Relation: "users", Inner: true, Select: Select{}}}}},
		{"a(x),b(y)", Select{
			{Embed: &Embed{Relation: "a", Select: Select{col("x")}}},
			{Embed: &Embed{Relation: "b", Select: Select{col("y")}}},
		}},
		{"users ( id , name::text )", Select{{Embed: &Embed{Relation: "users", Select: Select{col("id"), {Column: "name", Cast: "text"}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSelect(tt.in)
			if err != nil {
				t.Fatalf("ParseSelect: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
			again, err := ParseSelect(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip through %q: %#v, %v", got.String(), again, err)
			}
		})
	}
}

func TestSelectString(t *testing.T) {
	sel, err := ParseSelect(` id, a : b -> c ->> 0 :: INT, o:users ! fk ! inner ( * , x )`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sel.String(), "id,a:b->c->>0::integer,o:users!fk!inner(*,x)"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestSelectItemName(t *testing.T) {
	sel, err := ParseSelect("*,id,n:name,data->a->>b,arr->0,data->k->1,u:users(id),teams(id)")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range sel {
		names = append(names, it.Name())
	}
	want := []string{"", "id", "n", "b", "arr", "k", "u", "teams"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	if e, ok := sel.Embedding("u"); !ok || e.Relation != "users" {
		t.Fatalf("Embedding(u) = %v, %v", e, ok)
	}
	if _, ok := sel.Embedding("users"); ok {
		t.Fatal("an aliased embedding is found by its relation name")
	}
	if _, ok := sel.Embedding("id"); ok {
		t.Fatal("a column is found as an embedding")
	}
}

func TestParseSelectErrors(t *testing.T) {
	tests := []struct{ in, details string }{
		{"id,", "unexpected end of input expecting column name"},
		{",id", `unexpected "," expecting column name`},
		{"id,,name", `unexpected "," expecting column name`},
		{"id name", `"id name" is not a valid column name`},
		{"name;drop", `"name;drop" is not a valid column name`},
		{"name;drop table users", `"name;drop table users" is not a valid column name`},
		{`"x"`, ""}, // valid, see below
		{`"a b"`, `"a b" is not a valid column name`},
		{`"a`, "unterminated double quote"},
		{"1a", `"1a" is not a valid column name`},
		{"nic-hdl", `"nic-hdl" is not a valid column name`},
		{"a\x00", "is not a valid column name"},
		{"a\nb", "is not a valid column name"},
		{"ünï", "is not a valid column name"},
		{strings.Repeat("x", MaxIdentifierLength+1), "is not a valid column name"},
		{"x:*", `"*" is not a valid column name`},
		{"a:b:c", `unexpected ":" expecting "," or end of input`},
		{"a::", `"" is not a supported cast type`},
		{"a::varchar", `"varchar" is not a supported cast type`},
		{"a::text;drop", `"text;drop" is not a supported cast type`},
		{"a->", `"" is not a valid JSON key`},
		{"a->'k'", `"'k'" is not a valid JSON key`},
		{"a->k k", `"k k" is not a valid JSON key`},
		{"a->1234567890", "is not a valid JSON key"},
		{"id)", `unexpected ")" expecting "," or end of input`},
		{"users(id", `expecting "," or ")"`},
		{"users(id))", `unexpected ")" expecting "," or end of input`},
		{"users((id)", `unexpected "(" expecting column name`},
		{"users(id)x", `unexpected "x" expecting "," or end of input`},
		{"users(teams(id))", "embedding is supported one level deep"},
		{"users(t:teams!inner(id))", "embedding is supported one level deep"},
		{"*,users(*,teams(*,orgs(*)))", "embedding is supported one level deep"},
		{"users!(id)", `unexpected "(" expecting hint name`},
		{"users!inner!left(id)", "only one of !inner and !left"},
		{"users!a!b(id)", "only one disambiguation hint"},
		{"users!x;y(id)", `"x;y" is not a valid hint name`},
		{"users!inner", `unexpected end of input expecting "("`},
		{"...users(id)", "spread embedding"},
		{"count()", "aggregate functions are not supported"},
		{"n:count()", "aggregate functions are not supported"},
		{"count( )", "aggregate functions are not supported"},
		{"count!inner()", "aggregate functions are not supported"},
		{"amount.sum()", "aggregate functions"},
		{"a.b", "aggregate functions"},
		{"*x", `unexpected "x" expecting "," or end of input`},
		{strings.Repeat("a,", MaxParamLength/2+1) + "a", "longer than"},
		{strings.Repeat("id,", MaxSelectItems) + "id", "the select lists more than 500 items"},
		{strings.Repeat("*,", MaxSelectItems) + "*", "the select lists more than 500 items"},
		{"id,users(" + strings.Repeat("id,", MaxSelectItems-2) + "id)", "the select lists more than 500 items"},
	}
	for _, tt := range tests {
		t.Run(echo(tt.in), func(t *testing.T) {
			sel, err := ParseSelect(tt.in)
			if tt.details == "" {
				if err != nil {
					t.Fatalf("ParseSelect: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseSelect succeeded: %#v", sel)
			}
			e := assertParseError(t, err)
			if !strings.Contains(e.Details, tt.details) {
				t.Fatalf("details %q do not contain %q", e.Details, tt.details)
			}
			if !strings.HasPrefix(e.Message, `"failed to parse select parameter (`) {
				t.Fatalf("message %q", e.Message)
			}
		})
	}
}

func TestCastTypes(t *testing.T) {
	want := []string{"bigint", "boolean", "date", "integer", "json", "jsonb", "numeric", "text", "timestamptz", "uuid"}
	if got := CastTypes(); !reflect.DeepEqual(got, want) {
		t.Fatalf("CastTypes() = %q", got)
	}
}
