package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/service"
)

// The functions the app invokes with supabase-js (POST /functions/v1/{name}
// with a JSON body {action, …}). Every answer is JSON {success, message?, …}:
// 200 on success, otherwise 400 (unknown action, bad input), 401 (no or
// invalid credentials), 403 (not allowed), 404 (unknown function), 422
// (refused by a rule, e.g. a weak password), so that functions-js reports a
// FunctionsHttpError whose context.json() is that body.

const (
	fnDBRecovery      = "db-recovery"
	fnSecurityManager = "security-manager"
	fnDemoData        = "demo-data-manager"
)

func fnInvalid(msg string) error {
	return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "validation_failed", Message: msg}
}

// fnBody is a function's request body.
type fnBody map[string]json.RawMessage

// str reads a string field; absent and null are "".
func (b fnBody) str(k string) (string, error) {
	v, ok := b[k]
	if !ok || string(v) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", fnInvalid(k + " must be a string")
	}
	return s, nil
}

// fnActor establishes the caller of a function from its credentials: a
// bearer token that is the service-role key (or another admin-role token of
// this instance), a signed-in user's access token, or the anon key (a
// caller without identity). A recovery key alone also counts for the
// repair functions, which check it.
func (a *API) fnActor(r *http.Request, recoveryKey string) (service.Actor, error) {
	act := service.Actor{RecoveryKey: recoveryKey, Client: a.client(r)}
	if k := apiKey(r); k != "" && k != a.anonKey && k != a.adminKey {
		return act, &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "invalid_api_key", Message: "Invalid API key"}
	}
	tok, ok := bearer(r)
	if !ok {
		if recoveryKey != "" {
			return act, nil
		}
		return act, &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "no_authorization", Message: "Missing authorization: send the API key or a bearer token"}
	}
	// As on the auth admin routes, the bearer token decides (the API key
	// stands in for it when there is no Authorization header).
	c, err := a.id.Caller(r.Context(), tok)
	if err != nil {
		return act, fnCallerError(err)
	}
	switch {
	case c.Service():
		act.ServiceRole = true
	case !c.Anon():
		// The functions need the account itself (for the audit trail).
		p, err := a.id.Authenticate(r.Context(), tok, "")
		if err != nil {
			return act, fnCallerError(err)
		}
		act.Principal = p
	}
	return act, nil
}

// handleFunction serves POST /functions/v1/{name}.
func (a *API) handleFunction(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	name := r.PathValue("name")
	switch {
	case name == fnDemoData,
		name == fnDBRecovery && a.recovery != nil,
		name == fnSecurityManager && a.settings != nil:
	default:
		a.handleFunctionNotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST, OPTIONS")
		a.fnFail(w, r, &fairbalance.Error{Kind: fairbalance.KindMethodNotAllowed, Code: "method_not_allowed", Message: "Functions are invoked with POST"})
		return
	}
	body := fnBody{}
	if err := decodeJSON(r, &body); err != nil {
		a.fnFail(w, r, err)
		return
	}
	rk := r.Header.Get("X-Recovery-Key")
	if rk == "" {
		var err error
		if rk, err = body.str("recovery_key"); err != nil {
			a.fnFail(w, r, err)
			return
		}
	}
	// The gate middleware lets the repair functions through so that a
	// call with the recovery key works without the cookie; others pass
	// the gate here.
	if repairFunction(r.URL.Path) && !a.id.ValidRecoveryKey(rk) && !a.serviceRole(r) {
		ok, err := a.gatePassed(r)
		if err != nil {
			a.gateUnavailable(w, r, err)
			return
		}
		if !ok {
			writeGateRequired(w)
			return
		}
	}
	act, err := a.fnActor(r, rk)
	if err != nil {
		a.fnFail(w, r, err)
		return
	}
	action, err := body.str("action")
	if err != nil {
		a.fnFail(w, r, err)
		return
	}
	switch name {
	case fnDBRecovery:
		err = a.dbRecovery(w, r, act, action, body)
	case fnSecurityManager:
		err = a.securityManager(w, r, act, action, body)
	default:
		err = a.demoData(w, r, act, action)
	}
	if err != nil {
		a.fnFail(w, r, err)
	}
}

func (a *API) handleFunctionNotFound(w http.ResponseWriter, r *http.Request) {
	a.fnFail(w, r, &fairbalance.Error{Kind: fairbalance.KindNotFound, Code: "function_not_found", Message: "Function not found"})
}

func unknownAction(action string) error {
	if action == "" {
		return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "unknown_action", Message: "Missing action"}
	}
	return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "unknown_action", Message: "Unknown action: " + action}
}

func userBrief(u *fairbalance.User) map[string]any {
	return map[string]any{"id": u.ID, "email": u.Email}
}

// dbRecovery runs an action of the db-recovery function (safe mode).
func (a *API) dbRecovery(w http.ResponseWriter, r *http.Request, act service.Actor, action string, b fnBody) error {
	ctx := r.Context()
	switch action {
	case "GET_DB_STATUS":
		st := a.recovery.Status(ctx)
		out := map[string]any{"success": true, "backend": st.Backend, "healthy": st.Healthy, "has_users": st.HasUsers, "migration_level": nil}
		if st.MigrationLevel >= 0 {
			out["migration_level"] = st.MigrationLevel
		}
		if !st.Healthy {
			out["message"] = "The database does not answer or its schema cannot be read"
		}
		writeJSON(w, http.StatusOK, out)
	case "GET_USER_COUNT":
		n, err := a.recovery.UserCount(ctx)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "count": n})
	case "SAFE_CONNECT_AND_MIGRATE":
		res, err := a.recovery.Migrate(ctx, act)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"success": true, "message": "Database connected and migrations applied",
			"backend": res.Backend, "migration_level_before": res.Before, "migration_level": res.After,
		})
	case "SAFE_CREATE_ADMIN":
		email, err := b.str("admin_email")
		if err != nil {
			return err
		}
		password, err := b.str("admin_password")
		if err != nil {
			return err
		}
		u, err := a.recovery.CreateAdmin(ctx, act, strings.TrimSpace(email), password)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Administrator account created", "user": userBrief(u)})
	case "FORCE_CREATE_ADMIN_DEV":
		email, err := b.str("admin_email")
		if err != nil {
			return err
		}
		res, err := a.recovery.ForceCreateAdminDev(ctx, act, strings.TrimSpace(email))
		if err != nil {
			return err
		}
		msg := "Administrator account reset with a temporary password"
		if res.Created {
			msg = "Administrator account created with a temporary password"
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"success": true, "message": msg, "user": userBrief(res.User), "email": res.User.Email,
			"temporary_password": res.TemporaryPassword, "must_reset_password": true, "created": res.Created,
		})
	default:
		return unknownAction(action)
	}
	return nil
}

// settingsJSON is the workspace settings as the operator or an
// organisation's admin sees them: whether a passcode is set, never its
// hash; who changed them last only for the operator (updated_by is null
// otherwise, see service.SettingsView).
func settingsJSON(s *fairbalance.WorkspaceSettings) map[string]any {
	var by any
	if s.UpdatedBy != "" {
		by = s.UpdatedBy
	}
	return map[string]any{
		"preview_passcode_enabled": s.PreviewPasscodeEnabled,
		"preview_passcode_set":     s.PreviewPasscodeHash != "",
		"site_access_mode":         s.SiteAccessMode,
		"disable_signup":           s.DisableSignup,
		"block_indexing":           s.BlockIndexing,
		"updated_by":               by,
		"updated_at":               s.UpdatedAt.UTC().Format(time.RFC3339Nano),
	}
}

// securityManager runs an action of the security-manager function. The
// answers say whether the caller may change the settings ("editable"); an
// organisation's admin who is not the operator reads them only.
func (a *API) securityManager(w http.ResponseWriter, r *http.Request, act service.Actor, action string, b fnBody) error {
	switch action {
	case "GET_SETTINGS":
		v, err := a.settings.View(r.Context(), act)
		if err != nil {
			return err
		}
		out := map[string]any{"success": true, "editable": v.Editable, "settings": settingsJSON(&v.WorkspaceSettings)}
		if !v.Editable {
			out["message"] = service.ReadOnlySettings
		}
		writeJSON(w, http.StatusOK, out)
	case "UPDATE_SETTINGS":
		p, err := settingsPatch(b["settings"])
		if err != nil {
			return err
		}
		s, err := a.settings.Update(r.Context(), act, p)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Settings updated", "editable": true, "settings": settingsJSON(s)})
	default:
		return unknownAction(action)
	}
	return nil
}

// settingsPatch reads the settings object of UPDATE_SETTINGS. Unknown keys
// are refused (a misspelt security setting must not pass silently); the
// read-only keys GET_SETTINGS returns are ignored, so a read settings
// object can be sent back changed.
func settingsPatch(raw json.RawMessage) (service.SettingsPatch, error) {
	var p service.SettingsPatch
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return p, fnInvalid("settings must be an object")
	}
	boolean := func(k string, v json.RawMessage) (*bool, error) {
		if string(v) == "null" {
			return nil, nil
		}
		var x bool
		if err := json.Unmarshal(v, &x); err != nil {
			return nil, fnInvalid(k + " must be true or false")
		}
		return &x, nil
	}
	text := func(k string, v json.RawMessage) (*string, error) {
		if string(v) == "null" {
			return nil, nil
		}
		var x string
		if err := json.Unmarshal(v, &x); err != nil {
			return nil, fnInvalid(k + " must be a string")
		}
		return &x, nil
	}
	var err error
	for k, v := range m {
		switch k {
		case "preview_passcode_enabled":
			p.PreviewPasscodeEnabled, err = boolean(k, v)
		case "preview_passcode":
			p.PreviewPasscode, err = text(k, v)
		case "site_access_mode":
			p.SiteAccessMode, err = text(k, v)
		case "disable_signup":
			p.DisableSignup, err = boolean(k, v)
		case "block_indexing":
			p.BlockIndexing, err = boolean(k, v)
		case "id", "preview_passcode_set", "updated_by", "updated_at", "editable":
		default:
			err = fnInvalid("Unknown setting: " + k)
		}
		if err != nil {
			return p, err
		}
	}
	return p, nil
}

// demoData serves demo-data-manager: CHECK_DEMO_DATA for anyone;
// SEED_DEMO_DATA for administrators, the recovery key or the service role
// (and anyone while preview is enabled, since the preview seeds it anyway);
// REMOVE_DEMO_DATA for administrators, the recovery key or the service role.
func (a *API) demoData(w http.ResponseWriter, r *http.Request, act service.Actor, action string) error {
	ctx := r.Context()
	details := func(st *service.DemoStatus) map[string]any {
		return map[string]any{"organizations": st.Orgs, "orgs": st.Orgs, "users": st.Users, "assets": st.Assets}
	}
	switch action {
	case "CHECK_DEMO_DATA":
		st, err := a.id.CheckDemo(ctx)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "hasDemo": st.HasDemo, "details": details(st)})
	case "SEED_DEMO_DATA":
		if !a.cfg.Preview {
			if err := a.id.AuthoriseDemo(ctx, act); err != nil {
				return err
			}
		}
		st, err := a.id.SeedDemo(ctx, act.Client)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Demo data seeded", "details": details(st)})
	case "REMOVE_DEMO_DATA":
		if err := a.id.AuthoriseDemo(ctx, act); err != nil {
			return err
		}
		if err := a.id.RemoveDemo(ctx, act.Client); err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "All demo data has been successfully removed", "details": map[string]any{"organizations": 0, "users": 0, "assets": 0}})
	default:
		return unknownAction(action)
	}
	return nil
}
