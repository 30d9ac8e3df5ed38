package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"fairbalance"
)

// handleHealth reports whether the instance can serve: the database answers
// and its migration level; and whether its background jobs run.
func (a *API) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Cache-Control", "no-store")
	body := map[string]any{"status": "ok", "version": a.cfg.Version, "database": a.store.Backend()}
	level, err := a.store.MigrationLevel(ctx)
	if err != nil {
		a.log.Error("health: database", "request_id", RequestID(r.Context()), "err", err)
		body["status"] = "unavailable"
		body["migration"] = nil
		writeJSON(w, http.StatusServiceUnavailable, body)
		return
	}
	body["migration"] = level
	body["uptime_seconds"] = int(time.Since(a.started).Seconds())
	if a.jobsState != nil {
		body["jobs"] = a.jobsState()
	}
	writeJSON(w, http.StatusOK, body)
}

// handleConfig gives the web app what it needs to build its client: the
// public (anon) API key, the site URL, whether the passcode gate is on and
// passed by this browser, and whether the read-only preview is offered.
func (a *API) handleConfig(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, a.publicConfig(r))
}

// publicConfig is the body of GET /api/config for this request's browser;
// the app's HTML carries the same object so the first screen need not ask.
func (a *API) publicConfig(r *http.Request) map[string]any {
	passed, err := a.gatePassed(r)
	if err != nil {
		passed = false
	}
	return map[string]any{"anon_key": a.anonKey, "site_url": a.id.Config().SiteURL, "version": a.cfg.Version, "gate": a.gateOn(r), "gate_passed": passed, "preview": a.cfg.Preview}
}

// handleMail lists the newest outbox messages (service role only): the
// Diagnostics screen and operators without SMTP read links here.
func (a *API) handleMail(w http.ResponseWriter, r *http.Request) error {
	limit := 50
	if v, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && v > 0 && v <= 500 {
		limit = v
	}
	msgs, err := a.store.RecentMail(r.Context(), r.URL.Query().Get("to"), limit)
	if err != nil {
		return err
	}
	out := make([]map[string]any, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, map[string]any{
			"id": m.ID, "to": m.To, "subject": m.Subject, "kind": m.Kind, "status": m.Status, "attempts": m.Attempts,
			"last_error": m.LastError, "text": m.Text, "html": m.HTML,
			"created_at": m.CreatedAt.Format(time.RFC3339Nano), "sent_at": rfc3339(m.SentAt),
		})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) handleAuthNotFound(w http.ResponseWriter, r *http.Request) error {
	return &fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "not_found", Message: "Not Found"}
}

func (a *API) handleAPINotFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, map[string]any{"code": "not_found", "message": "Not Found"})
}
