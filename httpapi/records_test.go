package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/pdftext"
	"fairbalance/pgrest"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The exports over HTTP: GET /api/reviews/{id}/record.pdf and .json,
// GET /api/assets/{id}/form-2253.pdf and .json — who gets them, in what
// shape, and what everyone else is answered (/api's {code, message}).

// exportOrg is an organisation's members, each signed in, by role.
type exportOrg struct {
	callers map[string]fairbalance.Caller
	tokens  map[string]string
}

func (h *harness) exportOrg(orgID string) exportOrg {
	h.t.Helper()
	o := exportOrg{callers: map[string]fairbalance.Caller{}, tokens: map[string]string{}}
	for _, role := range fairbalance.Roles {
		uid, sess := h.signedInMember(fmt.Sprintf("%s-%s@example.com", orgID, role), orgID, role)
		o.callers[role] = fairbalance.Caller{Role: "authenticated", UserID: uid, OrgID: orgID, Member: role}
		o.tokens[role] = sess.AccessToken
	}
	return o
}

// call runs a data API function as c.
func (h *harness) call(c fairbalance.Caller, fn string, args map[string]any) map[string]any {
	h.t.Helper()
	raw, err := h.data.Call(h.ctx, c, fn, args, false)
	if err != nil {
		h.t.Fatalf("%s as %s: %v", fn, c.Member, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// get sends a GET with only the bearer token, as an inspector's script does.
func (h *harness) get(path, token string) *response {
	h.t.Helper()
	opts := []reqOpt{func(r *http.Request) { r.Header.Del("apikey") }}
	if token != "" {
		opts = append(opts, bearer(token))
	}
	return h.do("GET", path, nil, opts...)
}

// apiErr checks an /api refusal: status, {code, message}, JSON.
func (r *response) apiErr(status int, code string) {
	r.t.Helper()
	if r.Status != status || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		r.t.Fatalf("status %d (%s), want %d %s: %s", r.Status, r.Header.Get("Content-Type"), status, code, r.Body)
	}
	m := r.JSON()
	if m["code"] != code || m["message"] == "" || m["message"] == nil {
		r.t.Fatalf("error %s, want code %s", r.Body, code)
	}
}

// insert adds a row to table as c through the data API.
func (h *harness) insert(c fairbalance.Caller, table string, row map[string]any) map[string]any {
	h.t.Helper()
	body, _ := json.Marshal(row)
	q, _ := url.ParseQuery("select=*")
	req, err := pgrest.ParseRequest(q, http.Header{"Prefer": {"return=representation"}})
	if err != nil {
		h.t.Fatal(err)
	}
	res, err := h.data.Insert(h.ctx, c, table, req, body)
	if err != nil {
		h.t.Fatalf("insert %s: %v", table, err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(res.Rows, &rows); err != nil || len(rows) != 1 {
		h.t.Fatalf("insert %s: %s", table, res.Rows)
	}
	return rows[0]
}

func TestExportsHTTP(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			h := newHarness(t, backend)
			own, other := h.exportOrg("org-exports"), h.exportOrg("org-elsewhere")
			admin, marketer := own.callers[fairbalance.RoleAdmin], own.callers[fairbalance.RoleMarketer]
			const isi = "IMPORTANT SAFETY INFORMATION: Zelvora can cause liver problems."
			product := h.insert(admin, "products", map[string]any{"brand_name": "Zelvora", "established_name": "rosulitide", "isi_text": isi})
			asset := func(title string) map[string]any {
				return h.call(marketer, "create_asset", map[string]any{"title": title, "type": "email", "audience": "hcp", "channel": "Email",
					"market": "US", "product_id": product["id"], "content_html": "<p>Zelvora lowers LDL-C by half.</p><p>" + isi + "</p>"})
			}
			approved, draft := asset("Exported e-mail"), asset("Draft e-mail")
			round := h.call(marketer, "submit_for_review", map[string]any{"asset_id": approved["id"]})
			for _, s := range round["steps"].([]any) {
				step := s.(map[string]any)
				if _, err := h.data.Reviews.DecideSigned(h.ctx, own.callers[step["role"].(string)], service.DecideInput{StepID: step["id"].(string), Decision: fairbalance.DecisionApproved, Comment: "Fine."}); err != nil {
					t.Fatal(err)
				}
			}
			code := approved["job_code"].(string)
			record := "/api/reviews/" + round["id"].(string) + "/record"
			form := "/api/assets/" + approved["id"].(string) + "/form-2253"

			for _, role := range fairbalance.Roles {
				tok := own.tokens[role]
				if role == fairbalance.RoleViewer {
					for _, path := range []string{record + ".pdf", record + ".json", form + ".pdf", form + ".json"} {
						h.in(t).get(path, tok).apiErr(403, "forbidden")
					}
					continue
				}
				res := h.in(t).get(record+".pdf", tok)
				if res.Status != 200 || res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) ||
					res.Header.Get("Content-Disposition") != `attachment; filename="review-record-`+code+`-round-1.pdf"` || res.Header.Get("Cache-Control") != "no-store" {
					t.Fatalf("record.pdf as %s: %d %v", role, res.Status, res.Header)
				}
				doc, err := pdftext.Extract(bytes.NewReader(res.Body), int64(len(res.Body)))
				if err != nil || !strings.Contains(strings.Join(doc.Pages, "\n"), "REVIEW RECORD") {
					t.Fatalf("record.pdf as %s: %v", role, err)
				}
				res = h.in(t).get(record+".json", tok)
				var rec fairbalance.ReviewRecord
				if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || json.Unmarshal(res.Body, &rec) != nil ||
					rec.Format != fairbalance.ReviewRecordFormat || rec.Round.ID != round["id"] || len(rec.Steps) != 3 || rec.GeneratedBy.ID != own.callers[role].UserID ||
					res.Header.Get("Content-Disposition") != `attachment; filename="review-record-`+code+`-round-1.json"` {
					t.Fatalf("record.json as %s: %d %s", role, res.Status, res.Body)
				}
				res = h.in(t).get(form+".pdf", tok)
				if res.Status != 200 || res.Header.Get("Content-Type") != "application/pdf" || res.Header.Get("Content-Disposition") != `attachment; filename="form-2253-`+code+`.pdf"` {
					t.Fatalf("form-2253.pdf as %s: %d %s", role, res.Status, res.Body)
				}
				res = h.in(t).get(form+".json", tok)
				var f fairbalance.Form2253
				if res.Status != 200 || json.Unmarshal(res.Body, &f) != nil || f.Product.EstablishedName != "rosulitide" || f.Material.MaterialID != code {
					t.Fatalf("form-2253.json as %s: %d %s", role, res.Status, res.Body)
				}
			}
			// Another organisation's members, whatever their role: not found.
			for _, role := range fairbalance.Roles {
				h.in(t).get(record+".pdf", other.tokens[role]).apiErr(404, "not_found")
				h.in(t).get(form+".json", other.tokens[role]).apiErr(404, "not_found")
			}
			// No token, a bad one, the anon key; bad and unknown ids.
			h.in(t).get(record+".pdf", "").apiErr(401, "no_authorization")
			h.in(t).get(record+".json", "not-a-token").apiErr(401, "bad_jwt")
			h.in(t).get(record+".json", h.anon).apiErr(401, "no_authorization")
			h.in(t).get("/api/reviews/not-an-id/record.pdf", own.tokens[fairbalance.RoleAdmin]).apiErr(400, "invalid_id")
			h.in(t).get("/api/reviews/00000000-0000-4000-8000-000000000000/record.json", own.tokens[fairbalance.RoleAdmin]).apiErr(404, "not_found")
			h.in(t).get("/api/assets/%2e%2e/form-2253.pdf", own.tokens[fairbalance.RoleAdmin]).apiErr(400, "invalid_id")
			h.in(t).get("/api/reviews/"+round["id"].(string)+"/record.txt", own.tokens[fairbalance.RoleAdmin]).apiErr(404, "not_found")
			// Form 2253 only for an approved asset.
			h.in(t).get("/api/assets/"+draft["id"].(string)+"/form-2253.pdf", own.tokens[fairbalance.RoleMarketer]).apiErr(409, "not_approved")
			// The service role reaches any organisation's record.
			if res := h.in(t).get(record+".json", h.service); res.Status != 200 {
				t.Fatalf("service role: %d %s", res.Status, res.Body)
			}
		})
	}
}
