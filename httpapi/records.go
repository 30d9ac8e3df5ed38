package httpapi

import (
	"bytes"
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

func (a *API) handleReviewRecord(format string) http.HandlerFunc {
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
		exp, err := a.records.ReviewRecord(service.WithClient(r.Context(), a.client(r)), c, r.PathValue("id"), format)
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		if exp.File != nil {
			defer exp.File.Close()
		}
		rec := exp.Record
		name := fmt.Sprintf("review-record-%s-round-%d", fileSafe(rec.Asset.JobCode), rec.Round.Number)
		if format == service.FormatJSON {
			a.sendJSONDocument(w, r, name+".json", rec)
			return
		}
		var file io.ReadSeeker
		if exp.File != nil {
			file = exp.File
		}
		doc, err := recordpdf.ReviewRecord(rec, file, exp.FileProblem)
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		sendDocument(w, "application/pdf", name+".pdf", doc)
	}
}

func (a *API) handleForm2253(format string) http.HandlerFunc {
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
		form, err := a.records.Form2253(service.WithClient(r.Context(), a.client(r)), c, r.PathValue("id"), format)
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		name := "form-2253-" + fileSafe(form.Material.MaterialID)
		if format == service.FormatJSON {
			a.sendJSONDocument(w, r, name+".json", form)
			return
		}
		doc, err := recordpdf.Form2253(form)
		if err != nil {
			a.apiError(w, r, err)
			return
		}
		sendDocument(w, "application/pdf", name+".pdf", doc)
	}
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
