package httpapi_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"fairbalance"
)

// truncated sends a request whose body stops short of the Content-Length
// it announces, then closes its sending side (the client gives up but
// still listens), and returns the answer. The headers are those of h.do
// plus hdr.
func (h *harness) truncated(method, path string, hdr map[string]string, body string, announced int) *response {
	h.t.Helper()
	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		h.t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", method, path, h.srv.Listener.Addr(), announced)
	all := map[string]string{"apikey": h.anon, "X-Supabase-Api-Version": apiVersion, "Content-Type": "application/json"}
	for k, v := range hdr {
		all[k] = v
	}
	for k, v := range all {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n" + body)
	if _, err := conn.Write([]byte(b.String())); err != nil {
		h.t.Fatal(err)
	}
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		h.t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		h.t.Fatalf("%s %s with a cut body: no answer: %v", method, path, err)
	}
	defer res.Body.Close()
	var out strings.Builder
	if _, err := bufio.NewReader(res.Body).WriteTo(&out); err != nil {
		h.t.Fatalf("%s %s with a cut body: a half-written answer: %v", method, path, err)
	}
	return &response{t: h.t, Status: res.StatusCode, Header: res.Header, Body: []byte(out.String())}
}

// restErr checks a PostgREST error: status, code and a fragment of its
// message or details.
func restErr(t testing.TB, r *response, status int, code, text string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	var e struct {
		Code    string  `json:"code"`
		Message string  `json:"message"`
		Details *string `json:"details"`
		Hint    *string `json:"hint"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("not a PostgREST error: %s", r.Body)
	}
	details := ""
	if e.Details != nil {
		details = *e.Details
	}
	if e.Code != code || !strings.Contains(e.Message+" "+details, text) {
		t.Fatalf("error %s, want code %s with %q", r.Body, code, text)
	}
}

// TestBadInput sends bad input to every surface: each gets a 4xx in the
// surface's shape, never a 500, and changes nothing. The harness fails the
// test on any error the server logs. Over the data API: a select of more
// than 500 items, an order of more than 500 terms, filters of more than
// 10 000 values, NUL and bytes that are not UTF-8 in filters and in the
// search; NUL in the addresses of sign-in and sign-up; over every surface:
// a body cut short of its Content-Length.
func TestBadInput(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		tok := h.orgMember("admin@bad.example", "org-bad", fairbalance.RoleAdmin)
		get := func(h *harness, path string, opts ...reqOpt) *response {
			return h.do("GET", path, nil, append([]reqOpt{bearer(tok)}, opts...)...)
		}
		rpc := func(h *harness, fn string, args any) *response {
			return h.do("POST", "/rest/v1/rpc/"+fn, args, bearer(tok))
		}
		list := func(sep string, item string, n int) string {
			return strings.TrimSuffix(strings.Repeat(item+sep, n), sep)
		}
		rows := func(h *harness, path string) int {
			var l []json.RawMessage
			get(h, path).OK(http.StatusOK).Decode(&l)
			return len(l)
		}
		if r := h.do("POST", "/rest/v1/claims", map[string]any{"text": "Fewer flare-ups in 12 weeks"}, bearer(tok)); r.Status != http.StatusCreated {
			t.Fatalf("insert a claim: %d %s", r.Status, r.Body)
		}

		t.Run("select", func(t *testing.T) {
			h := h.in(t)
			restErr(t, get(h, "/rest/v1/claims?select="+list(",", "id", 501)), 400, "PGRST100", "the select lists more than 500 items")
			restErr(t, get(h, "/rest/v1/claims?select=id,claim_references("+list(",", "id", 500)+")"), 400, "PGRST100", "more than 500 items")
			// Up to the limit every select works, however many
			// expressions it makes (a star is every column).
			var l []map[string]any
			get(h, "/rest/v1/claims?select="+list(",", "text", 500)).OK(http.StatusOK).Decode(&l)
			if len(l) != 1 || l[0]["text"] != "Fewer flare-ups in 12 weeks" {
				t.Fatalf("select of 500 columns: %v", l)
			}
			get(h, "/rest/v1/claims?select="+list(",", "*", 100)).OK(http.StatusOK).Decode(&l)
			if len(l) != 1 || l[0]["text"] != "Fewer flare-ups in 12 weeks" {
				t.Fatalf("select of 100 stars: %v", l)
			}
			if r := get(h, "/rest/v1/claims?select="+list(",", "id", 120), header("Accept", "text/csv")); r.Status != http.StatusOK || strings.Count(strings.SplitN(string(r.Body), "\n", 2)[0], ",") != 119 {
				t.Fatalf("CSV of 120 columns: %d %.200s", r.Status, r.Body)
			}
		})

		t.Run("order and filters", func(t *testing.T) {
			h := h.in(t)
			restErr(t, get(h, "/rest/v1/claims?order="+list(",", "id", 501)), 400, "PGRST100", "the order lists more than 500 terms")
			get(h, "/rest/v1/claims?order="+list(",", "id", 500)).OK(http.StatusOK)
			restErr(t, get(h, "/rest/v1/claims?text=in.("+list(",", "a", 6000)+")&status=in.("+list(",", "b", 4001)+")"), 400, "PGRST100", "more than 10000 values")
			get(h, "/rest/v1/claims?text=in.("+list(",", "a", 6000)+")&status=in.("+list(",", "b", 4000)+")").OK(http.StatusOK)
			restErr(t, get(h, "/rest/v1/claims?text=ilike.*a%00b*"), 400, "PGRST100", "NUL")
			restErr(t, get(h, "/rest/v1/claims?or=(text.ilike.*%00*,status.eq.draft)"), 400, "PGRST100", "NUL")
			restErr(t, get(h, "/rest/v1/claims?text=eq.%FF"), 400, "PGRST100", "UTF-8")
		})

		// More rows than one statement can bind (SQLite takes 32766
		// parameters; a claim binds several): written all together.
		t.Run("many rows", func(t *testing.T) {
			h := h.in(t)
			many := make([]map[string]any, 6000)
			for i := range many {
				many[i] = map[string]any{"text": fmt.Sprintf("Bulk claim %d", i), "status": "withdrawn"}
			}
			var got []map[string]any
			h.do("POST", "/rest/v1/claims?select=id,text", many, bearer(tok), header("Prefer", "return=representation")).OK(http.StatusCreated).Decode(&got)
			if len(got) != len(many) || got[0]["text"] != "Bulk claim 0" || got[len(got)-1]["text"] != "Bulk claim 5999" {
				t.Fatalf("%d rows returned", len(got))
			}
			r := h.do("HEAD", "/rest/v1/claims?status=eq.withdrawn", nil, bearer(tok), header("Prefer", "count=exact"))
			if cr := r.Header.Get("Content-Range"); !strings.HasSuffix(cr, "/6000") {
				t.Fatalf("Content-Range %q", cr)
			}
			h.do("DELETE", "/rest/v1/claims?status=eq.withdrawn", nil, bearer(tok)).OK(http.StatusNoContent)
		})

		t.Run("search", func(t *testing.T) {
			h := h.in(t)
			var ok struct {
				Results []map[string]any `json:"results"`
			}
			rpc(h, "search_content", map[string]any{"query": "flare"}).OK(http.StatusOK).Decode(&ok)
			if len(ok.Results) != 1 {
				t.Fatalf("search: %+v", ok)
			}
			for _, path := range []string{
				"/rest/v1/rpc/search_content?query=fl%00are",
				"/rest/v1/rpc/search_content?query=%00",
				"/rest/v1/rpc/search_content?query=%FF%FE",
				"/rest/v1/rpc/search_content?query=flare&status=dr%00aft",
			} {
				restErr(t, get(h, path), 400, "P0001", "without NUL")
			}
			restErr(t, rpc(h, "search_content", map[string]any{"query": "fl\x00are"}), 400, "P0001", "without NUL")
			restErr(t, rpc(h, "search_content", map[string]any{"query": "flare", "market": "U\x00S"}), 400, "P0001", "without NUL")
		})

		t.Run("auth", func(t *testing.T) {
			h := h.in(t)
			// A failed sign-in is recorded with the address as typed.
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "admin\x00@bad.example", "password": testPassword}).Err(400, "invalid_credentials")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": strings.Repeat("é", 200) + "@bad.example", "password": testPassword}).Err(400, "invalid_credentials")
			h.do("POST", "/auth/v1/signup", map[string]any{"email": "n\x00ew@bad.example", "password": testPassword}).Err(400, "validation_failed")
		})

		t.Run("cut bodies", func(t *testing.T) {
			h := h.in(t)
			auth := map[string]string{"Authorization": "Bearer " + tok}
			restErr(t, h.truncated("POST", "/rest/v1/claims", auth, `{"text":"Cut short`, 200), 400, "PGRST102", "ended before")
			if n := rows(h, "/rest/v1/claims?select=id"); n != 1 {
				t.Fatalf("%d claims after a cut insert", n)
			}
			restErr(t, h.truncated("PATCH", "/rest/v1/claims?text=neq.x", auth, `{"status":"appr`, 200), 400, "PGRST102", "ended before")
			if n := rows(h, "/rest/v1/claims?select=id&status=eq.draft"); n != 1 {
				t.Fatalf("%d draft claims after a cut update", n)
			}
			restErr(t, h.truncated("POST", "/rest/v1/rpc/search_content", auth, `{"query":"fla`, 200), 400, "PGRST102", "ended before")

			h.truncated("POST", "/auth/v1/token?grant_type=password", nil, `{"email":"admin@bad.example","pass`, 200).Err(400, "bad_json")
			h.truncated("POST", "/auth/v1/signup", nil, `{"email":"new@bad.example","password":"`+testPassword, 200).Err(400, "bad_json")
			if _, err := h.db.View().UserByEmail(h.ctx, "new@bad.example"); err == nil {
				t.Fatal("a cut sign-up created the account")
			}
			h.truncated("PUT", "/auth/v1/user", auth, `{"data":{"team":"cut`, 200).Err(400, "bad_json")

			r := h.truncated("POST", "/functions/v1/db-recovery", map[string]string{"Authorization": "Bearer " + h.anon}, `{"action":"GET_DB_`, 200)
			if m := r.JSON(); r.Status != 400 || m["success"] != false || m["code"] != "bad_json" {
				t.Fatalf("function with a cut body: %d %s", r.Status, r.Body)
			}

			storageCut := func(r *response) {
				t.Helper()
				m := r.JSON()
				if r.Status != 400 || m["statusCode"] != "400" || m["code"] != "InvalidRequest" || m["message"] == "" {
					t.Fatalf("storage with a cut body: %d %s", r.Status, r.Body)
				}
			}
			storageCut(h.truncated("POST", "/storage/v1/bucket", auth, `{"id":"cut","public":tr`, 200))
			storageCut(h.truncated("POST", "/storage/v1/object/list/docs", auth, `{"prefix":"`, 200))
			var buckets []map[string]any
			h.do("GET", "/storage/v1/bucket", nil, bearer(tok)).OK(http.StatusOK).Decode(&buckets)
			if len(buckets) != 0 {
				t.Fatalf("buckets after a cut create: %v", buckets)
			}
			h.do("POST", "/storage/v1/bucket", map[string]any{"id": "docs"}, bearer(tok)).OK(http.StatusOK)
			pdf := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/pdf"}
			storageCut(h.truncated("POST", "/storage/v1/object/docs/cut.pdf", pdf, string(testPDF[:len(testPDF)/2]), len(testPDF)))
			form, ct := multipartBody(t, testPDF)
			storageCut(h.truncated("POST", "/storage/v1/object/docs/cut.pdf", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": ct}, string(form[:len(form)-100]), len(form)))
			storageErr(t, h.do("GET", "/storage/v1/object/docs/cut.pdf", nil, bearer(tok)), "404", "NoSuchKey")
		})
	})
}
