package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"fairbalance"
	"fairbalance/recordpdf"
	"fairbalance/service"
)

// The exports (issue 16): GET /api/reviews/{id}/record.pdf and .json, the
// record of a review round; GET /api/assets/{id}/form-2253.pdf and .json,
// the Form 2253 data of an approved asset. They take the member's bearer
// token (no API key: an inspector's script needs only the token), answer
// the document as an attachment, and refuse in /api's shape (apiError).

var errExportNoToken = &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "no_authorization", Message: "This endpoint requires a valid Bearer token"}

// exportCaller is the member behind the request's bearer token.
func (a *API) exportCaller(r *http.Request) (fairbalance.Caller, error) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "bearer") || strings.TrimSpace(tok) == "" {
		return fairbalance.Caller{}, errExportNoToken
	}
	c, err := a.id.Caller(r.Context(), strings.TrimSpace(tok))
	return c, exportCallerError(err)
}

// exportCallerError gives a refusal of the token its /api status: the
// member deactivated or banned, or short of the second factor, is
// forbidden (403); any other refused token is not a credential (401). The
// code stays the caller resolver's.
func exportCallerError(err error) error {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		return err
	}
	kind := fairbalance.KindUnauthorized
	switch e.Code {
	case fairbalance.CodeMemberDeactivated, fairbalance.CodeUserBanned, fairbalance.CodeInsufficientAAL:
		kind = fairbalance.KindForbidden
	}
	return &fairbalance.Error{Kind: kind, Code: e.Code, Message: e.Message}
}

// export is one document an export route answers: its file name without
// the extension, the value its JSON carries, how its PDF is drawn, and what
// to release once it is sent.
type export struct {
	name  string
	value any
	pdf   func() ([]byte, error)
	done  func()
}

// handleExport answers the document load builds for the member behind the
// bearer token and the path's id, as JSON or as a PDF.
func (a *API) handleExport(format string, load func(ctx context.Context, c fairbalance.Caller, id, format string) (export, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if a.records == nil {
			a.handleAPINotFound(w, r)
			return
		}
		c, err := a.exportCaller(r)
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		exp, err := load(service.WithClient(r.Context(), a.client(r)), c, r.PathValue("id"), format)
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		if exp.done != nil {
			defer exp.done()
		}
		if format == service.FormatJSON {
			a.sendJSONDocument(w, r, exp.name+".json", exp.value)
			return
		}
		doc, err := exp.pdf()
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		sendDocument(w, "application/pdf", exp.name+".pdf", doc)
	}
}

// reviewRecord is the record of a review round: its JSON, or its PDF (the
// version's own pages, when it is a PDF, then the record's).
func (a *API) reviewRecord(ctx context.Context, c fairbalance.Caller, id, format string) (export, error) {
	exp, err := a.records.ReviewRecord(ctx, c, id, format)
	if err != nil {
		return export{}, err
	}
	rec := exp.Record
	out := export{
		name:  fmt.Sprintf("review-record-%s-round-%d", fileSafe(rec.Asset.JobCode), rec.Round.Number),
		value: rec,
		pdf: func() ([]byte, error) {
			var file io.ReadSeeker
			if exp.File != nil {
				file = exp.File
			}
			return recordpdf.ReviewRecord(rec, file, exp.FileProblem)
		},
	}
	if exp.File != nil {
		out.done = func() { _ = exp.File.Close() }
	}
	return out, nil
}

// form2253 is the Form 2253 data of an approved asset.
func (a *API) form2253(ctx context.Context, c fairbalance.Caller, id, format string) (export, error) {
	form, err := a.records.Form2253(ctx, c, id, format)
	if err != nil {
		return export{}, err
	}
	return export{
		name:  "form-2253-" + fileSafe(form.Material.MaterialID),
		value: form,
		pdf:   func() ([]byte, error) { return recordpdf.Form2253(form) },
	}, nil
}

// sendJSONDocument answers v as an indented JSON attachment.
func (a *API) sendJSONDocument(w http.ResponseWriter, r *http.Request, name string, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		a.apiError(w, r, err)
		return
	}
	sendDocument(w, "application/json; charset=utf-8", name, b.Bytes())
}

// sendDocument answers body as a file to save, never cached.
func sendDocument(w http.ResponseWriter, contentType, name string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// fileSafe keeps the letters, digits, dashes and underscores of s, for a
// file name.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r == ' ' || r == '.' || r == '/':
			return '-'
		}
		return -1
	}, s)
	if s == "" {
		return "asset"
	}
	return s
}
