package pgrest

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// searchParams encodes name/value pairs the way postgrest-js does (with the
// browser's URLSearchParams): only ASCII letters, digits and *-._ stay as
// they are, a space becomes +, every other byte is percent-encoded.
func searchParams(pairs ...string) string {
	enc := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("*-._", c) >= 0:
				b.WriteByte(c)
			case c == ' ':
				b.WriteByte('+')
			default:
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		return b.String()
	}
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, enc(pairs[i])+"="+enc(pairs[i+1]))
	}
	return strings.Join(parts, "&")
}

func TestSearchParamsEncoding(t *testing.T) {
	// The contract's example of what insert([{a},{a,b}]) sends.
	if got, want := searchParams("columns", `"a","b"`), "columns=%22a%22%2C%22b%22"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got, want := searchParams("select", "*", "name", "in.(a b,c)"), "select=*&name=in.%28a+b%2Cc%29"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestPostgrestJS feeds ParseRequest exactly what postgrest-js sends for the
// common calls (contract section 3.7 and the filter, transform and query
// builders), both as the literal query string and as rebuilt by
// searchParams.
func TestPostgrestJS(t *testing.T) {
	const (
		objectAccept = "application/vnd.pgrst.object+json"
	)
	usersEmbed := func(items ...SelectItem) SelectItem {
		return SelectItem{Embed: &Embed{Relation: "users", Select: items}}
	}
	tests := []struct {
		call   string   // the supabase-js call
		raw    string   // the query string it sends
		pairs  []string // the same, as the name/value pairs appended
		header http.Header
		want   Request
	}{
		{
			call:  "from('t').select('*').eq('id', 5)",
			raw:   "select=*&id=eq.5",
			pairs: []string{"select", "*", "id", "eq.5"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "5")}},
		},
		{
			call:   "select('*', {count: 'exact'}).range(0, 9)",
			raw:    "select=*&offset=0&limit=10",
			pairs:  []string{"select", "*", "offset", "0", "limit", "10"},
			header: http.Header{"Prefer": {"count=exact"}},
			want:   Request{Select: Select{star}, Limit: intp(10), Prefer: Prefer{Count: CountExact}},
		},
		{
			call:   "select('*', {head: true, count: 'exact'})",
			raw:    "select=*",
			pairs:  []string{"select", "*"},
			header: http.Header{"Prefer": {"count=exact"}},
			want:   Request{Select: Select{star}, Prefer: Prefer{Count: CountExact}},
		},
		{
			call: "insert({...})",
			want: Request{Select: Select{star}},
		},
		{
			call:   "insert({...}).select().single()",
			raw:    "select=*",
			pairs:  []string{"select", "*"},
			header: http.Header{"Prefer": {"return=representation"}, "Accept": {objectAccept}},
			want:   Request{Select: Select{star}, Prefer: Prefer{Return: ReturnRepresentation}, Singular: true},
		},
		{
			call:   "insert({...}, {count: 'exact'}).select('id')",
			raw:    "select=id",
			pairs:  []string{"select", "id"},
			header: http.Header{"Prefer": {"count=exact, return=representation"}},
			want:   Request{Select: Select{col("id")}, Prefer: Prefer{Count: CountExact, Return: ReturnRepresentation}},
		},
		{
			call:  "insert([{a}, {a, b}])",
			raw:   "columns=%22a%22%2C%22b%22",
			pairs: []string{"columns", `"a","b"`},
			want:  Request{Select: Select{star}, Columns: []string{"a", "b"}},
		},
		{
			call:   "insert(rows, {defaultToNull: false})",
			raw:    "columns=%22a%22%2C%22b%22",
			pairs:  []string{"columns", `"a","b"`},
			header: http.Header{"Prefer": {"missing=default"}},
			want:   Request{Select: Select{star}, Columns: []string{"a", "b"}, Prefer: Prefer{Missing: MissingDefault}},
		},
		{
			call:   "upsert(row, {onConflict: 'email'})",
			raw:    "on_conflict=email",
			pairs:  []string{"on_conflict", "email"},
			header: http.Header{"Prefer": {"resolution=merge-duplicates"}},
			want:   Request{Select: Select{star}, OnConflict: []string{"email"}, Prefer: Prefer{Resolution: MergeDuplicates}},
		},
		{
			call:   "upsert(rows, {onConflict: 'org_id,email', ignoreDuplicates: true})",
			raw:    "on_conflict=org_id%2Cemail&columns=%22org_id%22%2C%22email%22",
			pairs:  []string{"on_conflict", "org_id,email", "columns", `"org_id","email"`},
			header: http.Header{"Prefer": {"resolution=ignore-duplicates"}},
			want: Request{Select: Select{star}, OnConflict: []string{"org_id", "email"}, Columns: []string{"org_id", "email"},
				Prefer: Prefer{Resolution: IgnoreDuplicates}},
		},
		{
			call:  "update({...}).eq('id', 5)",
			raw:   "id=eq.5",
			pairs: []string{"id", "eq.5"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "5")}},
		},
		{
			call:   "update({...}).eq('id', 5).select()",
			raw:    "id=eq.5&select=*",
			pairs:  []string{"id", "eq.5", "select", "*"},
			header: http.Header{"Prefer": {"return=representation"}},
			want:   Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "5")}, Prefer: Prefer{Return: ReturnRepresentation}},
		},
		{
			call:  "delete().eq('id', 5)",
			raw:   "id=eq.5",
			pairs: []string{"id", "eq.5"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "5")}},
		},
		{
			call:   "select().eq('id', other).single()",
			raw:    "select=*&id=eq.42",
			pairs:  []string{"select", "*", "id", "eq.42"},
			header: http.Header{"Accept": {objectAccept}},
			want:   Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "42")}, Singular: true},
		},
		{
			call:  "select().maybeSingle()",
			raw:   "select=*",
			pairs: []string{"select", "*"},
			want:  Request{Select: Select{star}},
		},
		{
			call:   "select().stripNulls()",
			raw:    "select=*",
			pairs:  []string{"select", "*"},
			header: http.Header{"Accept": {"application/vnd.pgrst.array+json;nulls=stripped"}},
			want:   Request{Select: Select{star}, StripNulls: true},
		},
		{
			call:   "select().single().stripNulls()",
			raw:    "select=*",
			pairs:  []string{"select", "*"},
			header: http.Header{"Accept": {"application/vnd.pgrst.object+json;nulls=stripped"}},
			want:   Request{Select: Select{star}, Singular: true, StripNulls: true},
		},
		{
			call:  "select('id, name, users(id, name)')", // whitespace stripped by the client
			raw:   "select=id%2Cname%2Cusers%28id%2Cname%29",
			pairs: []string{"select", "id,name,users(id,name)"},
			want:  Request{Select: Select{col("id"), col("name"), usersEmbed(col("id"), col("name"))}},
		},
		{
			call:  "select('*, author:users!inner(name)').eq('author.name', 'Ann')",
			raw:   "select=*%2Cauthor%3Ausers%21inner%28name%29&author.name=eq.Ann",
			pairs: []string{"select", "*,author:users!inner(name)", "author.name", "eq.Ann"},
			want: Request{
				Select:  Select{star, {Alias: "author", Embed: &Embed{Relation: "users", Inner: true, Select: Select{col("name")}}}},
				Filters: []Filter{&Condition{Relation: "author", Column: "name", Operator: OpEq, Value: "Ann"}},
			},
		},
		{
			call:  "neq/gt/gte/lt/lte",
			raw:   "select=*&status=neq.done&n=gt.1&n=lt.10&m=gte.0&m=lte.5",
			pairs: []string{"select", "*", "status", "neq.done", "n", "gt.1", "n", "lt.10", "m", "gte.0", "m", "lte.5"},
			want: Request{Select: Select{star}, Filters: []Filter{
				cond("m", OpGte, "0"), cond("m", OpLte, "5"), cond("n", OpGt, "1"), cond("n", OpLt, "10"), cond("status", OpNeq, "done"),
			}},
		},
		{
			call:  "eq('id', null)",
			raw:   "id=eq.null",
			pairs: []string{"id", "eq.null"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "null")}},
		},
		{
			call:  "eq('title', 'a, b (c)')",
			raw:   "title=eq.a%2C+b+%28c%29",
			pairs: []string{"title", "eq.a, b (c)"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("title", OpEq, "a, b (c)")}},
		},
		{
			call:  "like('title', '%foo%').ilike('body', '*bar*')",
			raw:   "title=like.%25foo%25&body=ilike.*bar*",
			pairs: []string{"title", "like.%foo%", "body", "ilike.*bar*"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("body", OpILike, "%bar%"), cond("title", OpLike, "%foo%")}},
		},
		{
			call:  "is('deleted_at', null).is('done', false)",
			raw:   "deleted_at=is.null&done=is.false",
			pairs: []string{"deleted_at", "is.null", "done", "is.false"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("deleted_at", OpIs, IsNull), cond("done", OpIs, IsFalse)}},
		},
		{
			call:  "isDistinct('a', 1)",
			raw:   "a=isdistinct.1",
			pairs: []string{"a", "isdistinct.1"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("a", OpIsDistinct, "1")}},
		},
		{
			call:  "in('status', ['open', 'closed'])",
			raw:   "status=in.%28open%2Cclosed%29",
			pairs: []string{"status", "in.(open,closed)"},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "status", Operator: OpIn, Values: []string{"open", "closed"}}}},
		},
		{
			call:  "in('name', ['a,b', 'c (d)', 'e'])",
			raw:   "name=in.%28%22a%2Cb%22%2C%22c+%28d%29%22%2Ce%29",
			pairs: []string{"name", `in.("a,b","c (d)",e)`},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "name", Operator: OpIn, Values: []string{"a,b", "c (d)", "e"}}}},
		},
		{
			call:  `filter('name', 'in', '("a","b")')`,
			raw:   "name=in.%28%22a%22%2C%22b%22%29",
			pairs: []string{"name", `in.("a","b")`},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "name", Operator: OpIn, Values: []string{"a", "b"}}}},
		},
		{
			call:  "in('id', [1, 2, 2, 3]) (duplicates removed by the client)",
			raw:   "id=in.%281%2C2%2C3%29",
			pairs: []string{"id", "in.(1,2,3)"},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "id", Operator: OpIn, Values: []string{"1", "2", "3"}}}},
		},
		{
			call:  "in('id', [])",
			raw:   "id=in.%28%29",
			pairs: []string{"id", "in.()"},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "id", Operator: OpIn, Values: []string{}}}},
		},
		{
			call:  "notIn('id', [1, 2])",
			raw:   "id=not.in.%281%2C2%29",
			pairs: []string{"id", "not.in.(1,2)"},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "id", Operator: OpIn, Negated: true, Values: []string{"1", "2"}}}},
		},
		{
			call:  "contains('tags', ['a', 'b']).containedBy('roles', ['x', 'y'])",
			raw:   "tags=cs.%7Ba%2Cb%7D&roles=cd.%7Bx%2Cy%7D",
			pairs: []string{"tags", "cs.{a,b}", "roles", "cd.{x,y}"},
			want: Request{Select: Select{star}, Filters: []Filter{
				&Condition{Column: "roles", Operator: OpContainedIn, Values: []string{"x", "y"}},
				&Condition{Column: "tags", Operator: OpContains, Values: []string{"a", "b"}},
			}},
		},
		{
			call:  "contains('meta', {kind: 'memo', n: 1})",
			raw:   "meta=cs.%7B%22kind%22%3A%22memo%22%2C%22n%22%3A1%7D",
			pairs: []string{"meta", `cs.{"kind":"memo","n":1}`},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "meta", Operator: OpContains, JSON: true, Value: `{"kind":"memo","n":1}`}}},
		},
		{
			call:  "contains('tags', '{a,b}')",
			raw:   "tags=cs.%7Ba%2Cb%7D",
			pairs: []string{"tags", "cs.{a,b}"},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "tags", Operator: OpContains, Values: []string{"a", "b"}}}},
		},
		{
			call:  "or('status.eq.open,priority.gt.2')",
			raw:   "or=%28status.eq.open%2Cpriority.gt.2%29",
			pairs: []string{"or", "(status.eq.open,priority.gt.2)"},
			want: Request{Select: Select{star}, Filters: []Filter{
				&Group{Logic: Or, Filters: []Filter{cond("status", OpEq, "open"), cond("priority", OpGt, "2")}},
			}},
		},
		{
			call:  "or('a.eq.1').or('b.eq.2') (two or parameters, ANDed)",
			raw:   "or=%28a.eq.1%29&or=%28b.eq.2%29",
			pairs: []string{"or", "(a.eq.1)", "or", "(b.eq.2)"},
			want: Request{Select: Select{star}, Filters: []Filter{
				&Group{Logic: Or, Filters: []Filter{cond("a", OpEq, "1")}},
				&Group{Logic: Or, Filters: []Filter{cond("b", OpEq, "2")}},
			}},
		},
		{
			call:  "or('id.eq.1, and(kind.eq.memo, not.or(a.is.null, b.in.(1,2)))')",
			raw:   "or=%28id.eq.1%2C+and%28kind.eq.memo%2C+not.or%28a.is.null%2C+b.in.%281%2C2%29%29%29%29",
			pairs: []string{"or", "(id.eq.1, and(kind.eq.memo, not.or(a.is.null, b.in.(1,2))))"},
			want: Request{Select: Select{star}, Filters: []Filter{
				&Group{Logic: Or, Filters: []Filter{
					cond("id", OpEq, "1"),
					&Group{Logic: And, Filters: []Filter{
						cond("kind", OpEq, "memo"),
						&Group{Logic: Or, Negated: true, Filters: []Filter{
							cond("a", OpIs, IsNull),
							&Condition{Column: "b", Operator: OpIn, Values: []string{"1", "2"}},
						}},
					}},
				}},
			}},
		},
		{
			call:  "select('*, users(*)').or('name.eq.x,name.eq.y', {referencedTable: 'users'})",
			raw:   "select=*%2Cusers%28*%29&users.or=%28name.eq.x%2Cname.eq.y%29",
			pairs: []string{"select", "*,users(*)", "users.or", "(name.eq.x,name.eq.y)"},
			want: Request{Select: Select{star, usersEmbed(star)}, Filters: []Filter{
				&Group{Relation: "users", Logic: Or, Filters: []Filter{
					&Condition{Relation: "users", Column: "name", Operator: OpEq, Value: "x"},
					&Condition{Relation: "users", Column: "name", Operator: OpEq, Value: "y"},
				}},
			}},
		},
		{
			call:  "not('status', 'eq', 'done').not('deleted_at', 'is', null)",
			raw:   "status=not.eq.done&deleted_at=not.is.null",
			pairs: []string{"status", "not.eq.done", "deleted_at", "not.is.null"},
			want: Request{Select: Select{star}, Filters: []Filter{
				&Condition{Column: "deleted_at", Operator: OpIs, Negated: true, Value: IsNull},
				&Condition{Column: "status", Operator: OpEq, Negated: true, Value: "done"},
			}},
		},
		{
			call:  "not('id', 'in', '(1,2)')",
			raw:   "id=not.in.%281%2C2%29",
			pairs: []string{"id", "not.in.(1,2)"},
			want:  Request{Select: Select{star}, Filters: []Filter{&Condition{Column: "id", Operator: OpIn, Negated: true, Values: []string{"1", "2"}}}},
		},
		{
			call:  "match({a: 1, b: 'x'})",
			raw:   "a=eq.1&b=eq.x",
			pairs: []string{"a", "eq.1", "b", "eq.x"},
			want:  Request{Select: Select{star}, Filters: []Filter{cond("a", OpEq, "1"), cond("b", OpEq, "x")}},
		},
		{
			call:  "eq('data->>kind', 'memo')",
			raw:   "data-%3E%3Ekind=eq.memo",
			pairs: []string{"data->>kind", "eq.memo"},
			want: Request{Select: Select{star}, Filters: []Filter{
				&Condition{Column: "data", Path: []PathStep{{Key: "kind", Text: true}}, Operator: OpEq, Value: "memo"},
			}},
		},
		{
			call:  "order('created_at', {ascending: false})",
			raw:   "select=*&order=created_at.desc",
			pairs: []string{"select", "*", "order", "created_at.desc"},
			want:  Request{Select: Select{star}, Order: Order{{Column: "created_at", Desc: true}}},
		},
		{
			call:  "order('a').order('b', {ascending: false, nullsFirst: true})",
			raw:   "order=a.asc%2Cb.desc.nullsfirst",
			pairs: []string{"order", "a.asc,b.desc.nullsfirst"},
			want:  Request{Select: Select{star}, Order: Order{{Column: "a"}, {Column: "b", Desc: true, Nulls: NullsFirst}}},
		},
		{
			call:  "order('a', {nullsFirst: false})",
			raw:   "order=a.asc.nullslast",
			pairs: []string{"order", "a.asc.nullslast"},
			want:  Request{Select: Select{star}, Order: Order{{Column: "a", Nulls: NullsLast}}},
		},
		{
			call:  "select('id, users(name)').order('name', {referencedTable: 'users'}).limit(3, {referencedTable: 'users'})",
			raw:   "select=id%2Cusers%28name%29&users.order=name.asc&users.limit=3",
			pairs: []string{"select", "id,users(name)", "users.order", "name.asc", "users.limit", "3"},
			want: Request{Select: Select{col("id"), {Embed: &Embed{Relation: "users", Select: Select{col("name")},
				Order: Order{{Column: "name"}}, Limit: intp(3)}}}},
		},
		{
			call:  "select('id, users(name)').range(5, 9, {referencedTable: 'users'})",
			raw:   "select=id%2Cusers%28name%29&users.offset=5&users.limit=5",
			pairs: []string{"select", "id,users(name)", "users.offset", "5", "users.limit", "5"},
			want: Request{Select: Select{col("id"), {Embed: &Embed{Relation: "users", Select: Select{col("name")},
				Limit: intp(5), Offset: 5}}}},
		},
		{
			call:  "select('id, users(name)').order('users(name)', {ascending: false})",
			raw:   "select=id%2Cusers%28name%29&order=users%28name%29.desc",
			pairs: []string{"select", "id,users(name)", "order", "users(name).desc"},
			want: Request{Select: Select{col("id"), usersEmbed(col("name"))},
				Order: Order{{Relation: "users", Column: "name", Desc: true}}},
		},
		{
			call:  "limit(5)",
			raw:   "select=*&limit=5",
			pairs: []string{"select", "*", "limit", "5"},
			want:  Request{Select: Select{star}, Limit: intp(5)},
		},
		{
			call:  "range(10, 19)",
			raw:   "select=*&offset=10&limit=10",
			pairs: []string{"select", "*", "offset", "10", "limit", "10"},
			want:  Request{Select: Select{star}, Offset: 10, Limit: intp(10)},
		},
		{
			call:   "delete().eq('id', 5).rollback()",
			raw:    "id=eq.5",
			pairs:  []string{"id", "eq.5"},
			header: http.Header{"Prefer": {"tx=rollback"}},
			want:   Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "5")}, Prefer: Prefer{Tx: TxRollback}},
		},
		{
			call:   "update({...}).eq('id', 5).maxAffected(1)",
			raw:    "id=eq.5",
			pairs:  []string{"id", "eq.5"},
			header: http.Header{"Prefer": {"handling=strict, max-affected=1"}},
			want:   Request{Select: Select{star}, Filters: []Filter{cond("id", OpEq, "5")}, Prefer: Prefer{Handling: HandlingStrict, MaxAffected: intp(1)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			if got := searchParams(tt.pairs...); got != tt.raw {
				t.Fatalf("the pairs encode as %q, the test says %q", got, tt.raw)
			}
			q, err := url.ParseQuery(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			got, err := ParseRequest(q, h)
			if err != nil {
				t.Fatalf("ParseRequest(%q): %v", tt.raw, err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Fatalf("ParseRequest(%q):\ngot  %s\nwant %s", tt.raw, dumpRequest(got), dumpRequest(&tt.want))
			}
			assertIdentifiers(t, got)
		})
	}
}

func dumpRequest(r *Request) string {
	var fs []string
	for _, f := range r.Filters {
		fs = append(fs, dump(f))
	}
	lim := "nil"
	if r.Limit != nil {
		lim = fmt.Sprint(*r.Limit)
	}
	return fmt.Sprintf("select=%s filters=[%s] order=%s limit=%s offset=%d columns=%q on_conflict=%q prefer=%+v singular=%v stripnulls=%v",
		r.Select, strings.Join(fs, " "), r.Order, lim, r.Offset, r.Columns, r.OnConflict, r.Prefer, r.Singular, r.StripNulls)
}
