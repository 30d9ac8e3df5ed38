package service

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"fairbalance"
)

// SettingsCacheTTL is how long a process trusts its copy of the workspace
// settings. The passcode gate consults them on every API request; a change
// made in this process takes effect at once, one made by another process
// sharing the database within this time.
const SettingsCacheTTL = 2 * time.Second

// Passcode length limits of the preview gate.
const (
	MinPasscodeLength = 6
	MaxPasscodeLength = 128
)

// Settings is the security manager: the instance-wide workspace settings
// (passcode gate, site access mode, sign-up, indexing), read through a
// short-lived in-memory cache.
type Settings struct {
	id *Identity

	// Now is the cache's clock; tests move it.
	Now func() time.Time

	cur       atomic.Pointer[settingsEntry]
	gen       atomic.Uint64 // bumped by every change made in this process
	refreshMu sync.Mutex
}

type settingsEntry struct {
	w       *fairbalance.WorkspaceSettings // nil when err is set
	err     error
	fetched time.Time
}

// NewSettings returns the security manager.
func NewSettings(id *Identity) *Settings {
	return &Settings{id: id, Now: time.Now}
}

func (e *settingsEntry) fresh(now time.Time) bool {
	return e != nil && !now.Before(e.fetched) && now.Sub(e.fetched) < SettingsCacheTTL
}

// Get returns the workspace settings (a copy; the passcode hash included),
// from the cache when it is fresh. When the database cannot be read, the
// last settings read are used if there are any.
func (s *Settings) Get(ctx context.Context) (*fairbalance.WorkspaceSettings, error) {
	now := s.Now()
	e := s.cur.Load()
	if !e.fresh(now) {
		if e != nil && e.w != nil {
			// Another request is refreshing: keep serving the last copy
			// rather than queueing behind it.
			if !s.refreshMu.TryLock() {
				return copySettings(e.w), nil
			}
		} else {
			s.refreshMu.Lock()
		}
		e = s.refresh(ctx, now)
		s.refreshMu.Unlock()
	}
	if e.err != nil {
		return nil, e.err
	}
	return copySettings(e.w), nil
}

// refresh reads the row (unless a concurrent refresh just did) and caches
// it; it runs under refreshMu.
func (s *Settings) refresh(ctx context.Context, now time.Time) *settingsEntry {
	if e := s.cur.Load(); e.fresh(now) {
		return e
	}
	gen := s.gen.Load()
	// The read outlives the request that triggered it: its result serves
	// every request of the next TTL.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	w, err := s.id.store.View().WorkspaceSettings(rctx)
	cancel()
	var e *settingsEntry
	switch {
	case err == nil:
		e = &settingsEntry{w: w, fetched: now}
	case s.cur.Load() != nil && s.cur.Load().w != nil:
		s.id.log.Warn("workspace settings: read failed; using the last copy", "err", err)
		e = &settingsEntry{w: s.cur.Load().w, fetched: now}
	default:
		e = &settingsEntry{err: internal(err), fetched: now}
	}
	// A change made meanwhile by Update wins over what was read before it.
	if s.gen.Load() == gen {
		s.cur.Store(e)
	}
	return e
}

func copySettings(w *fairbalance.WorkspaceSettings) *fairbalance.WorkspaceSettings {
	c := *w
	return &c
}

// SettingsPatch is a change of the workspace settings; nil fields are left
// as they are.
type SettingsPatch struct {
	PreviewPasscodeEnabled *bool
	// PreviewPasscode sets a new passcode (stored as an argon2id hash); ""
	// removes it, which requires the gate to end up disabled.
	PreviewPasscode *string
	SiteAccessMode  *string // PUBLIC or PRIVATE
	DisableSignup   *bool
	BlockIndexing   *bool
}

func (p SettingsPatch) empty() bool {
	return p.PreviewPasscodeEnabled == nil && p.PreviewPasscode == nil && p.SiteAccessMode == nil && p.DisableSignup == nil && p.BlockIndexing == nil
}

// auditView is what the audit entry keeps of the settings.
func auditView(w *fairbalance.WorkspaceSettings) map[string]any {
	return map[string]any{
		"preview_passcode_enabled": w.PreviewPasscodeEnabled,
		"preview_passcode_set":     w.PreviewPasscodeHash != "",
		"site_access_mode":         w.SiteAccessMode,
		"disable_signup":           w.DisableSignup,
		"block_indexing":           w.BlockIndexing,
	}
}

// SettingsView is the workspace settings as GET_SETTINGS shows them to one
// caller.
type SettingsView struct {
	fairbalance.WorkspaceSettings
	// Editable is true for the operator (see Actor). An organisation's
	// admin who is not an operator reads the settings only, and UpdatedBy
	// is "" for them: whoever changed the instance's settings may belong
	// to another organisation, whose user ids they never learn.
	Editable bool
}

// View returns the settings (GET_SETTINGS) for the operator, editable, or
// for an organisation's admin, read-only; anyone else is refused. They are
// read from the database, not the cache.
func (s *Settings) View(ctx context.Context, a Actor) (*SettingsView, error) {
	_, op, err := s.id.authoriseRepair(ctx, a)
	if err != nil {
		return nil, err
	}
	w, err := s.id.store.View().WorkspaceSettings(ctx)
	if err != nil {
		return nil, internal(err)
	}
	v := &SettingsView{WorkspaceSettings: *w, Editable: op}
	if !op {
		v.UpdatedBy = ""
	}
	return v, nil
}

// Update changes the workspace settings (UPDATE_SETTINGS), for the
// operator only (see Actor): an organisation's admin who is not an
// operator gets not_operator. It records the change with its before and
// after values in the auth audit in the same transaction. This process
// sees the change at once.
func (s *Settings) Update(ctx context.Context, a Actor, p SettingsPatch) (*fairbalance.WorkspaceSettings, error) {
	via, err := s.id.authoriseOperator(ctx, a)
	if err != nil {
		return nil, err
	}
	if p.empty() {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "No settings to update")
	}
	var mode string
	if p.SiteAccessMode != nil {
		mode = strings.ToUpper(strings.TrimSpace(*p.SiteAccessMode))
		if mode != fairbalance.SiteAccessPublic && mode != fairbalance.SiteAccessPrivate {
			return nil, settingRefused("site_access_mode", "site_access_mode must be PUBLIC or PRIVATE")
		}
	}
	var hash string
	if p.PreviewPasscode != nil && *p.PreviewPasscode != "" {
		n := utf8.RuneCountInString(*p.PreviewPasscode)
		if n < MinPasscodeLength || n > MaxPasscodeLength || !utf8.ValidString(*p.PreviewPasscode) {
			return nil, settingRefused("preview_passcode", "The passcode must have between 6 and 128 characters")
		}
		if hash, err = s.id.hasher.Hash(ctx, *p.PreviewPasscode); err != nil {
			return nil, internal(err)
		}
	}
	var out *fairbalance.WorkspaceSettings
	err = s.id.tx(ctx, func(tx fairbalance.Tx) error {
		w, err := tx.WorkspaceSettings(ctx)
		if err != nil {
			return err
		}
		before := auditView(w)
		if p.PreviewPasscode != nil {
			w.PreviewPasscodeHash = hash
		}
		if p.PreviewPasscodeEnabled != nil {
			w.PreviewPasscodeEnabled = *p.PreviewPasscodeEnabled
		}
		if w.PreviewPasscodeEnabled && w.PreviewPasscodeHash == "" {
			return settingRefused("preview_passcode", "Set a passcode before enabling the passcode gate")
		}
		if p.SiteAccessMode != nil {
			w.SiteAccessMode = mode
		}
		if p.DisableSignup != nil {
			w.DisableSignup = *p.DisableSignup
		}
		if p.BlockIndexing != nil {
			w.BlockIndexing = *p.BlockIndexing
		}
		w.UpdatedAt = s.id.Now()
		w.UpdatedBy = via
		if u := a.actorUser(); u != nil && via == viaOperator {
			w.UpdatedBy = u.ID
		}
		if err := tx.UpdateWorkspaceSettings(ctx, w); err != nil {
			return err
		}
		out = w
		return s.id.audit(ctx, tx, "workspace_settings_updated", a.actorUser(), a.Client, map[string]any{
			"via": via, "before": before, "after": auditView(w), "passcode_changed": p.PreviewPasscode != nil,
		})
	})
	if err != nil {
		return nil, internal(err)
	}
	s.gen.Add(1)
	s.cur.Store(&settingsEntry{w: copySettings(out), fetched: s.Now()})
	return copySettings(out), nil
}

// CheckPasscode reports whether passcode opens the preview gate: the gate
// is on and the passcode matches the stored hash.
func (s *Settings) CheckPasscode(ctx context.Context, passcode string) (bool, error) {
	w, err := s.Get(ctx)
	if err != nil {
		return false, err
	}
	if !w.PreviewPasscodeEnabled || w.PreviewPasscodeHash == "" || passcode == "" || len(passcode) > 4*MaxPasscodeLength {
		return false, nil
	}
	ok, err := s.id.hasher.Verify(ctx, passcode, w.PreviewPasscodeHash)
	if err != nil {
		return false, internal(err)
	}
	return ok, nil
}

// SignupDisabled reports whether the workspace settings turn sign-up off;
// wire it to IdentityConfig.SignupDisabled.
func (s *Settings) SignupDisabled(ctx context.Context) (bool, error) {
	w, err := s.Get(ctx)
	if err != nil {
		return false, err
	}
	return w.DisableSignup, nil
}

var errSignupDisabled = errf(fairbalance.KindUnprocessable, "signup_disabled", "Signups not allowed for this instance")

// signupOpen refuses a sign-up of addr (lowercase) while sign-up is
// disabled, by configuration or by the workspace settings, unless the
// address has a pending, unexpired invitation. q runs the invitation
// lookup (the caller's transaction, or the read view).
func (s *Identity) signupOpen(ctx context.Context, q fairbalance.Tx, addr string) error {
	disabled := s.cfg.DisableSignup
	if !disabled && s.cfg.SignupDisabled != nil {
		d, err := s.cfg.SignupDisabled(ctx)
		if err != nil {
			return internal(err)
		}
		disabled = d
	}
	if !disabled {
		return nil
	}
	inv, err := q.PendingInviteForEmail(ctx, addr)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return errSignupDisabled
	}
	if err != nil {
		return internal(err)
	}
	if inv.Status != fairbalance.InvitePending || !s.Now().Before(inv.ExpiresAt) {
		return errSignupDisabled
	}
	return nil
}

// settingRefused is a refused value of the setting field, with msg as the
// form's message for that field too.
func settingRefused(field, msg string) *fairbalance.Error {
	e := errf(fairbalance.KindInvalid, "validation_failed", msg)
	e.Fields = map[string]string{field: msg}
	return e
}
