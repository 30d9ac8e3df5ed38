package httpapi

import (
	"net/http"
	"time"

	"fairbalance"
	"fairbalance/ratelimit"
)

var rulePreview = ratelimit.Rule{Events: 30, Per: 5 * time.Minute, Burst: 30}

// handlePreviewSession issues a read-only session of the demo member with
// the requested role, seeding the demo data when absent. It exists only
// while the operator enables preview; the client's preview triggers merely
// choose to call it.
func (a *API) handlePreviewSession(w http.ResponseWriter, r *http.Request) error {
	if !a.cfg.Preview {
		return &fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "preview_disabled", Message: "Preview is not enabled on this instance"}
	}
	// PRIVATE site access closes the public preview whatever the operator's flag.
	if a.settings != nil {
		w, err := a.settings.Get(r.Context())
		if err != nil {
			return err
		}
		if w.SiteAccessMode == fairbalance.SiteAccessPrivate {
			return &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "site_private", Message: "This workspace is private: sign in to continue"}
		}
	}
	var b struct {
		Role str `json:"role"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	role := deref(b.Role)
	if role == "" {
		role = fairbalance.RoleAdmin // the spec's preview user is an admin
	}
	sess, err := a.id.DemoSession(r.Context(), a.client(r), role)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sessionJSON(sess))
	return nil
}
