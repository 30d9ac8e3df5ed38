package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/dataapi"
	"fairbalance/pgrest"
	"fairbalance/service"
)

// The data API (/rest/v1): a PostgREST-compatible subset over the
// registry of package service. Errors come in PostgREST's shape.

// restCaller establishes the caller from the bearer token (see
// service.Identity.Caller); no token is the anonymous caller.
func (a *API) restCaller(r *http.Request) (fairbalance.Caller, error) {
	tok, ok := bearer(r)
	if !ok {
		return fairbalance.Caller{Role: "anon"}, nil
	}
	c, err := a.id.Caller(r.Context(), tok)
	return c, restCallerError(err)
}

// handleRest serves GET, HEAD, POST, PATCH and DELETE on /rest/v1/{table}.
func (a *API) handleRest(w http.ResponseWriter, r *http.Request) {
	if !a.checkAPIKey(w, r) {
		return
	}
	table := r.PathValue("table")
	fail := func(err error) { restError(w, r, a, err) }
	for _, h := range []string{"Accept-Profile", "Content-Profile"} {
		if v := r.Header.Get(h); v != "" && v != "public" {
			fail(&fairbalance.Error{Kind: fairbalance.KindNotAcceptable, Code: "PGRST106", Message: "Invalid schema: " + v, Hint: "Only the following schemas are exposed: public"})
			return
		}
	}
	if a.data == nil {
		fail(&fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "PGRST205", Message: "Could not find the table 'public." + table + "' in the schema cache"})
		return
	}
	caller, err := a.restCaller(r)
	if err != nil {
		fail(err)
		return
	}
	h := r.Header
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h = h.Clone()
		h.Del("Range") // Range applies to reads only
	}
	q := r.URL.Query()
	q.Del("apikey") // a key in the query string is not a filter
	req, err := pgrest.ParseRequest(q, h)
	if err != nil {
		fail(err)
		return
	}
	ctx := r.Context()
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if req.CSV && r.Method == http.MethodGet {
			a.readCSV(w, r, caller, table, req)
			return
		}
		res, err := a.data.Read(ctx, caller, table, req)
		if err != nil {
			fail(err)
			return
		}
		a.writeRead(w, r, req, res)
	case http.MethodPost, http.MethodPatch, http.MethodDelete:
		var body []byte
		if r.Method != http.MethodDelete {
			if body, err = readRestBody(r); err != nil {
				fail(err)
				return
			}
		}
		var res *dataapi.WriteResult
		switch r.Method {
		case http.MethodPost:
			res, err = a.data.Insert(ctx, caller, table, req, body)
		case http.MethodPatch:
			res, err = a.data.Update(ctx, caller, table, req, body)
		default:
			res, err = a.data.Delete(ctx, caller, table, req)
		}
		if err != nil {
			fail(err)
			return
		}
		a.writeWrite(w, r, req, res)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST, PATCH, DELETE")
		fail(&fairbalance.Error{Kind: fairbalance.KindMethodNotAllowed, Code: "PGRST101", Message: "Unsupported HTTP method: " + r.Method})
	}
}

// csvWriteWindow is how long a CSV response may wait for the client to
// take each chunk; the server's write timeout would otherwise end a long
// export.
const csvWriteWindow = 60 * time.Second

// deadlineWriter moves the connection's write deadline forward before
// each chunk.
type deadlineWriter struct {
	w  io.Writer
	rc *http.ResponseController
}

func (d deadlineWriter) Write(b []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
	return d.w.Write(b)
}

// readCSV answers a GET with Accept: text/csv, streaming the rows (see
// service.Data.ReadCSV). A failure after the response has started cuts
// the connection, so a client never takes a truncated export for a whole one.
func (a *API) readCSV(w http.ResponseWriter, r *http.Request, caller fairbalance.Caller, table string, req *pgrest.Request) {
	started := false
	err := a.data.ReadCSV(r.Context(), caller, table, req, func(info dataapi.CSVInfo) io.Writer {
		started = true
		hdr := w.Header()
		hdr.Set("Content-Type", "text/csv; charset=utf-8")
		status := http.StatusOK
		if info.Counted {
			n := max(info.Total-int64(info.Offset), 0)
			if info.Limit > 0 {
				n = min(n, int64(info.Limit))
			}
			hdr.Set("Content-Range", contentRange(info.Offset, int(n), info.Total))
			hdr.Set("Preference-Applied", "count="+string(req.Prefer.Count))
			if int64(info.Offset)+n < info.Total {
				status = http.StatusPartialContent
			}
		}
		w.WriteHeader(status)
		return deadlineWriter{w: w, rc: http.NewResponseController(w)}
	})
	if err == nil {
		return
	}
	if !started {
		restError(w, r, a, err)
		return
	}
	a.log.Warn("rest: CSV response cut short", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
	panic(http.ErrAbortHandler)
}

func contentRange(first, n int, total int64) string {
	t := "*"
	if total >= 0 {
		t = strconv.FormatInt(total, 10)
	}
	if n == 0 {
		return "*/" + t
	}
	return strconv.Itoa(first) + "-" + strconv.Itoa(first+n-1) + "/" + t
}

// singularBody turns a one-element array into its element.
func singularBody(rows json.RawMessage) json.RawMessage {
	b := []byte(strings.TrimSpace(string(rows)))
	if len(b) >= 2 && b[0] == '[' && b[len(b)-1] == ']' {
		return json.RawMessage(strings.TrimSpace(string(b[1 : len(b)-1])))
	}
	return rows
}

func (a *API) writeRead(w http.ResponseWriter, r *http.Request, req *pgrest.Request, res *dataapi.ReadResult) {
	hdr := w.Header()
	if req.Singular && res.Count != 1 {
		restError(w, r, a, &fairbalance.Error{Kind: fairbalance.KindNotAcceptable, Code: "PGRST116", Message: "Cannot coerce the result to a single JSON object", Details: "The result contains " + strconv.Itoa(res.Count) + " rows"})
		return
	}
	if res.Counted && res.Count == 0 && int64(res.Offset) > res.Total && res.Offset > 0 {
		restError(w, r, a, &fairbalance.Error{Kind: fairbalance.KindRangeNotSatisfiable, Code: "PGRST103", Message: "Requested range not satisfiable",
			Details: "An offset of " + strconv.Itoa(res.Offset) + " was requested, but there are only " + strconv.FormatInt(res.Total, 10) + " rows."})
		return
	}
	hdr.Set("Content-Range", contentRange(res.Offset, res.Count, res.Total))
	if req.Prefer.Count != "" {
		hdr.Set("Preference-Applied", "count="+string(req.Prefer.Count))
	}
	status := http.StatusOK
	if res.Counted && int64(res.Offset+res.Count) < res.Total {
		status = http.StatusPartialContent
	}
	body := res.Rows
	if req.Singular {
		hdr.Set("Content-Type", "application/vnd.pgrst.object+json; charset=utf-8")
		body = singularBody(body)
	} else {
		hdr.Set("Content-Type", "application/json; charset=utf-8")
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func (a *API) writeWrite(w http.ResponseWriter, r *http.Request, req *pgrest.Request, res *dataapi.WriteResult) {
	hdr := w.Header()
	if req.Prefer.Count != "" {
		if r.Method == http.MethodPatch && res.Affected > 0 {
			hdr.Set("Content-Range", "0-"+strconv.FormatInt(res.Affected-1, 10)+"/"+strconv.FormatInt(res.Affected, 10))
		} else {
			hdr.Set("Content-Range", "*/"+strconv.FormatInt(res.Affected, 10))
		}
	}
	if p := req.Prefer.String(); p != "" {
		hdr.Set("Preference-Applied", p)
	}
	represent := req.Prefer.Return == pgrest.ReturnRepresentation && res.Rows != nil
	status := http.StatusNoContent
	switch {
	case r.Method == http.MethodPost && represent:
		status = http.StatusCreated
	case r.Method == http.MethodPost:
		w.WriteHeader(http.StatusCreated)
		return
	case represent:
		status = http.StatusOK
	}
	if !represent {
		w.WriteHeader(status)
		return
	}
	body := res.Rows
	if req.Singular {
		hdr.Set("Content-Type", "application/vnd.pgrst.object+json; charset=utf-8")
		body = singularBody(body)
	} else {
		hdr.Set("Content-Type", "application/json; charset=utf-8")
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// handleRPC serves POST (and GET for read-only functions) on
// /rest/v1/rpc/{fn}.
func (a *API) handleRPC(w http.ResponseWriter, r *http.Request) {
	if !a.checkAPIKey(w, r) {
		return
	}
	fail := func(err error) { restError(w, r, a, err) }
	if a.data == nil {
		fail(&fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "PGRST202", Message: "Could not find the function public." + r.PathValue("fn") + " in the schema cache"})
		return
	}
	caller, err := a.restCaller(r)
	if err != nil {
		fail(err)
		return
	}
	args := map[string]any{}
	get := false
	switch r.Method {
	case http.MethodPost:
		body, err := readRestBody(r)
		if err != nil {
			fail(err)
			return
		}
		if len(strings.TrimSpace(string(body))) > 0 {
			if err := json.Unmarshal(body, &args); err != nil {
				fail(&fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "PGRST102", Message: "Empty or invalid json", Details: err.Error()})
				return
			}
		}
	case http.MethodGet, http.MethodHead:
		get = true
		for k, v := range r.URL.Query() {
			args[k] = v[len(v)-1]
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		fail(&fairbalance.Error{Kind: fairbalance.KindMethodNotAllowed, Code: "PGRST101", Message: "Only GET, HEAD and POST are allowed on functions"})
		return
	}
	// The function learns where the call came from (an electronic
	// signature records it).
	out, err := a.data.Call(service.WithClient(r.Context(), a.client(r)), caller, r.PathValue("fn"), args, get)
	if err != nil {
		fail(err)
		return
	}
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(out)
	}
}

// handleRestRoot serves the OpenAPI description of the registry.
func (a *API) handleRestRoot(w http.ResponseWriter, r *http.Request) {
	if !a.checkAPIKey(w, r) {
		return
	}
	if a.data == nil {
		writeJSON(w, http.StatusOK, map[string]any{"swagger": "2.0", "paths": map[string]any{}})
		return
	}
	w.Header().Set("Content-Type", "application/openapi+json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(a.data.OpenAPI(r.Host, a.cfg.Version))
}
