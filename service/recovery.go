package service

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"time"

	"fairbalance"
)

// Actor is the caller of a safe-mode repair or a security-manager action,
// as the transport established it. The instance-wide settings and the
// repairs belong to the instance operator: the holder of the recovery key,
// the service-role key, or a signed-in account marked operator. An
// organisation's admin who is not an operator reads the settings only.
// The service checks which of these the Actor is, reading the operator
// mark from the store, so no transport needs to know about it.
type Actor struct {
	// Principal is the signed-in user, nil when the call carries none.
	Principal *Principal
	// ServiceRole is set by the transport only after it verified the
	// service-role key.
	ServiceRole bool
	// RecoveryKey is the recovery key presented with the call, "" for none.
	RecoveryKey string
	Client      Client
}

// How a repair was authorised, as recorded in the audit payload.
const (
	viaRecoveryKey  = "recovery_key"
	viaOperator     = "operator"
	viaAdmin        = "admin" // an organisation admin who is not an operator: reads only
	viaServiceRole  = "service_role"
	viaInitialSetup = "initial_setup"
)

// ValidRecoveryKey reports, in constant time, whether k is the instance's
// recovery key. An instance without a recovery key accepts none.
func (s *Identity) ValidRecoveryKey(k string) bool {
	if k == "" || s.keys.RecoveryKey == "" {
		return false
	}
	// Hash both so the comparison takes the same time whatever the length.
	a, b := sha256.Sum256([]byte(k)), sha256.Sum256([]byte(s.keys.RecoveryKey))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// ReadOnlySettings is what GET_SETTINGS says to an organisation's admin
// who is not the operator.
const ReadOnlySettings = "Instance settings are managed by the instance operator"

var (
	errBadRecoveryKey = errf(fairbalance.KindForbidden, "invalid_recovery_key", "Invalid recovery key")
	errRepairNeedsKey = errf(fairbalance.KindUnauthorized, "no_authorization", "Sign in as the instance operator or present the recovery key")
	errNotAdmin       = errf(fairbalance.KindForbidden, "not_admin", "Only an administrator may do this")
	errNotOperator    = errf(fairbalance.KindForbidden, "not_operator", "Instance settings and safe-mode repairs are managed by the instance operator: sign in as the operator or present the recovery key")
)

// authoriseRepair establishes who a is for the instance: the recovery key
// ("recovery_key"), the service role ("service_role"), a signed-in operator
// ("operator") — all three with the operator's rights — or an active
// admin (or owner) of an organisation who is not an operator ("admin",
// operator false). Anyone else is refused. A recovery key that is
// presented must be the right one, whatever else the call carries.
func (s *Identity) authoriseRepair(ctx context.Context, a Actor) (via string, operator bool, err error) {
	switch {
	case a.RecoveryKey != "":
		if !s.ValidRecoveryKey(a.RecoveryKey) {
			return "", false, errBadRecoveryKey
		}
		return viaRecoveryKey, true, nil
	case a.ServiceRole:
		return viaServiceRole, true, nil
	case a.Principal != nil:
		// A demo session (the public preview's read-only admin) never
		// repairs or reconfigures the instance.
		if IsDemoUser(a.Principal.User) {
			return "", false, errDemo
		}
		// A deactivated member is refused, operator or not.
		prof, err := s.Member(ctx, a.Principal)
		if err != nil {
			return "", false, err
		}
		op, err := s.store.View().IsOperator(ctx, a.Principal.User.ID)
		if err != nil {
			return "", false, internal(err)
		}
		if op {
			return viaOperator, true, nil
		}
		if !IsAdmin(prof) {
			return "", false, errNotAdmin
		}
		return viaAdmin, false, nil
	}
	return "", false, errRepairNeedsKey
}

// authoriseOperator checks that a holds the operator's rights and returns
// how (see authoriseRepair); an organisation admin who is not an operator
// gets not_operator.
func (s *Identity) authoriseOperator(ctx context.Context, a Actor) (string, error) {
	via, op, err := s.authoriseRepair(ctx, a)
	if err != nil {
		return "", err
	}
	if !op {
		return "", errNotOperator
	}
	return via, nil
}

// actorUser is the user of an actor for the audit trail, nil when none.
func (a Actor) actorUser() *fairbalance.User {
	if a.Principal != nil {
		return a.Principal.User
	}
	return nil
}

// RecoveryConfig configures the safe-mode repairs.
type RecoveryConfig struct {
	// Dev enables the development-only FORCE_CREATE_ADMIN_DEV action.
	Dev bool
	// Migrate applies pending database migrations; nil when the store
	// cannot migrate while serving.
	Migrate func(ctx context.Context) error
}

// Recovery is the safe-mode service behind the db-recovery function:
// database status, migrations and administrator creation.
type Recovery struct {
	id  *Identity
	cfg RecoveryConfig
}

// NewRecovery returns the safe-mode service.
func NewRecovery(id *Identity, cfg RecoveryConfig) *Recovery {
	return &Recovery{id: id, cfg: cfg}
}

// DevTemporaryPassword is the password FORCE_CREATE_ADMIN_DEV gives, to be
// changed at first sign-in.
const DevTemporaryPassword = "ChangeMe-Now-1"

// DBStatus is the answer of GET_DB_STATUS.
type DBStatus struct {
	Backend        string
	MigrationLevel int // -1 when unknown
	// Healthy is true when the database answers and its schema is readable.
	Healthy  bool
	HasUsers bool
}

// Status reports the database's state; it never fails: an unreachable
// database is reported as unhealthy. Open to anyone.
func (r *Recovery) Status(ctx context.Context) *DBStatus {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	st := &DBStatus{Backend: r.id.store.Backend(), MigrationLevel: -1}
	if err := r.id.store.Ping(ctx); err != nil {
		r.id.log.Warn("safe mode: database ping failed", "err", err)
		return st
	}
	level, err := r.id.store.MigrationLevel(ctx)
	if err != nil {
		r.id.log.Warn("safe mode: migration level", "err", err)
		return st
	}
	st.MigrationLevel = level
	n, err := r.id.store.View().CountUsers(ctx)
	if err != nil {
		r.id.log.Warn("safe mode: count users", "err", err)
		return st
	}
	st.Healthy, st.HasUsers = true, n > 0
	return st
}

// UserCount is the number of accounts (GET_USER_COUNT). Open to anyone:
// the sign-in screen shows its initial-setup card while it is zero.
func (r *Recovery) UserCount(ctx context.Context) (int, error) {
	n, err := r.id.store.View().CountUsers(ctx)
	return n, internal(err)
}

// MigrateResult is the answer of SAFE_CONNECT_AND_MIGRATE.
type MigrateResult struct {
	Backend string
	Before  int
	After   int
}

// Migrate checks the connection and applies pending migrations
// (SAFE_CONNECT_AND_MIGRATE), for the operator (see Actor).
func (r *Recovery) Migrate(ctx context.Context, a Actor) (*MigrateResult, error) {
	via, err := r.id.authoriseOperator(ctx, a)
	if err != nil {
		return nil, err
	}
	if err := r.id.store.Ping(ctx); err != nil {
		return nil, &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "database_unavailable", Message: "The database does not answer", Err: err}
	}
	res := &MigrateResult{Backend: r.id.store.Backend()}
	if res.Before, err = r.id.store.MigrationLevel(ctx); err != nil {
		return nil, internal(err)
	}
	if r.cfg.Migrate != nil {
		if err := r.cfg.Migrate(ctx); err != nil {
			return nil, &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "migration_failed", Message: "Migration failed, please check server logs for more information", Err: err}
		}
	}
	if res.After, err = r.id.store.MigrationLevel(ctx); err != nil {
		return nil, internal(err)
	}
	err = r.id.tx(ctx, func(tx fairbalance.Tx) error {
		return r.id.audit(ctx, tx, "db_migrated", a.actorUser(), a.Client, map[string]any{"via": via, "before": res.Before, "after": res.After})
	})
	if err != nil {
		return nil, internal(err)
	}
	return res, nil
}

// CreateAdmin creates a confirmed account whose member profile has the
// admin role (SAFE_CREATE_ADMIN). It is allowed to the operator (see
// Actor), and to anyone while the instance has no account at all (the
// initial setup); the count is taken under the settings row lock, so two
// concurrent initial setups cannot both succeed. The account is marked
// operator when it is the initial setup's or the recovery key's (whoever
// holds the key restores the operator's access); the service role and an
// operator's session create an organisation admin, whom `fairbalance
// operator grant` can mark.
func (r *Recovery) CreateAdmin(ctx context.Context, a Actor, email, password string) (*fairbalance.User, error) {
	if email == "" || password == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Email and password required")
	}
	addr, err := normaliseEmail(email)
	if err != nil {
		return nil, err
	}
	if err := checkNewPassword(password); err != nil {
		return nil, err
	}
	via, authErr := r.id.authoriseOperator(ctx, a)
	if authErr != nil {
		// Only the absence of credentials may fall back to the initial
		// setup; a wrong key or a session without the rights is refused.
		if !errors.Is(authErr, errRepairNeedsKey) {
			return nil, authErr
		}
		n, err := r.id.store.View().CountUsers(ctx)
		if err != nil {
			return nil, internal(err)
		}
		if n > 0 {
			return nil, authErr
		}
		via = viaInitialSetup
	}
	hash, err := r.id.hasher.Hash(ctx, password)
	if err != nil {
		return nil, internal(err)
	}
	var out *fairbalance.User
	err = r.id.tx(ctx, func(tx fairbalance.Tx) error {
		if via == viaInitialSetup {
			// The settings row is the instance's singleton: locking it
			// serialises initial setups (SQLite's write lock already does).
			if _, err := tx.WorkspaceSettings(ctx); err != nil {
				return err
			}
			n, err := tx.CountUsers(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				return errRepairNeedsKey
			}
		}
		if _, err := tx.UserByEmail(ctx, addr); err == nil {
			return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
		} else if !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		u, err := r.newAdmin(ctx, tx, a.Client, addr, hash, nil)
		if err != nil {
			return err
		}
		op := marksOperator(via)
		if op {
			if err := r.markOperator(ctx, tx, u, via); err != nil {
				return err
			}
		}
		out = u
		return r.id.audit(ctx, tx, "safe_admin_created", a.actorUser(), a.Client, map[string]any{"via": via, "user_id": u.ID, "email": u.Email, "operator": op})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// newAdmin creates a confirmed account with an admin profile inside tx.
func (r *Recovery) newAdmin(ctx context.Context, tx fairbalance.Tx, c Client, addr, hash string, appMeta map[string]any) (*fairbalance.User, error) {
	u, id, err := r.id.newUser(addr, hash, nil)
	if err != nil {
		return nil, err
	}
	if u.AppMetadata, err = adminAppMetadata(u.AppMetadata, appMeta); err != nil {
		return nil, err
	}
	if err := r.id.createUser(ctx, tx, u, id); err != nil {
		if errors.Is(err, fairbalance.ErrConflict) {
			return nil, errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
		}
		return nil, err
	}
	if err := r.id.confirmEmail(ctx, tx, u); err != nil {
		return nil, err
	}
	if err := r.makeAdmin(ctx, tx, u); err != nil {
		return nil, err
	}
	return u, r.id.audit(ctx, tx, "user_signedup", u, c, map[string]any{"provider": "email", "by": "safe_mode"})
}

// makeAdmin gives u's member profile the admin role (creating the profile
// if the account has none) and reactivates it. An owner stays owner.
func (r *Recovery) makeAdmin(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User) error {
	now := r.id.Now()
	p, err := tx.ProfileByID(ctx, u.ID)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return tx.CreateProfile(ctx, &fairbalance.Profile{ID: u.ID, Role: fairbalance.RoleAdmin, FullName: fullName(u.UserMetadata), CreatedAt: now, UpdatedAt: now})
	}
	if err != nil {
		return err
	}
	if p.Role != fairbalance.RoleOwner {
		p.Role = fairbalance.RoleAdmin
	}
	p.DeactivatedAt, p.UpdatedAt = nil, now
	return tx.UpdateProfile(ctx, p)
}

// adminAppMetadata marks app metadata as an administrator's (as the
// command-line "admin create" does) and merges extra keys into it.
func adminAppMetadata(base json.RawMessage, extra map[string]any) (json.RawMessage, error) {
	m := map[string]any{"fairbalance_role": fairbalance.RoleAdmin}
	for k, v := range extra {
		m[k] = v
	}
	patch, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return mergeMetadata(base, patch)
}

// ForcedAdmin is the answer of FORCE_CREATE_ADMIN_DEV.
type ForcedAdmin struct {
	User              *fairbalance.User
	Created           bool // false when an existing account was reset
	TemporaryPassword string
}

// ForceCreateAdminDev creates an admin account, or resets an existing one,
// with the fixed password DevTemporaryPassword, flagged in app metadata
// must_reset_password (FORCE_CREATE_ADMIN_DEV). It exists only in
// development mode (elsewhere it is not found) and, even there, needs the
// recovery key or an admin: it hands out a known password. A reset also
// signs the account out everywhere.
func (r *Recovery) ForceCreateAdminDev(ctx context.Context, a Actor, email string) (*ForcedAdmin, error) {
	if !r.cfg.Dev {
		return nil, errf(fairbalance.KindNotFound, "unknown_action", "This action is only available in development mode")
	}
	if email == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Email address required")
	}
	addr, err := normaliseEmail(email)
	if err != nil {
		return nil, err
	}
	via, err := r.id.authoriseOperator(ctx, a)
	if err != nil {
		return nil, err
	}
	hash, err := r.id.hasher.Hash(ctx, DevTemporaryPassword)
	if err != nil {
		return nil, internal(err)
	}
	out := &ForcedAdmin{TemporaryPassword: DevTemporaryPassword}
	err = r.id.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByEmail(ctx, addr)
		switch {
		case errors.Is(err, fairbalance.ErrNotFound):
			if u, err = r.newAdmin(ctx, tx, a.Client, addr, hash, map[string]any{"must_reset_password": true}); err != nil {
				return err
			}
			out.Created = true
		case err != nil:
			return err
		case u.DeletedAt != nil:
			return errf(fairbalance.KindUnprocessable, "user_deleted", "This account was deleted and cannot be restored")
		default:
			if u.AppMetadata, err = adminAppMetadata(u.AppMetadata, map[string]any{"must_reset_password": true}); err != nil {
				return err
			}
			u.PasswordHash, u.BannedUntil, u.UpdatedAt = hash, nil, r.id.Now()
			if err := tx.UpdateUser(ctx, u); err != nil {
				return err
			}
			if err := r.id.confirmEmail(ctx, tx, u); err != nil {
				return err
			}
			if err := tx.DeleteSessions(ctx, u.ID, "", false); err != nil {
				return err
			}
			if err := r.makeAdmin(ctx, tx, u); err != nil {
				return err
			}
		}
		// A demo account (reset here in development) is never an operator.
		op := marksOperator(via) && !IsDemoUser(u)
		if op {
			if err := r.markOperator(ctx, tx, u, via); err != nil {
				return err
			}
		}
		out.User = u
		return r.id.audit(ctx, tx, "dev_admin_forced", a.actorUser(), a.Client, map[string]any{"via": via, "user_id": u.ID, "email": u.Email, "created": out.Created, "operator": op})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// clearMustReset drops the must_reset_password flag from app metadata once
// the user has chosen a password of their own.
func clearMustReset(m json.RawMessage) json.RawMessage {
	var meta map[string]any
	if json.Unmarshal(m, &meta) != nil || meta == nil {
		return m
	}
	if _, ok := meta["must_reset_password"]; !ok {
		return m
	}
	delete(meta, "must_reset_password")
	b, err := json.Marshal(meta)
	if err != nil {
		return m
	}
	return b
}

// PromoteAdmin gives an existing account the admin role and marks it
// instance operator (the operator's `fairbalance admin create`, which has
// the host's authority), creating its member profile if needed, with an
// audit entry in the same transaction.
func (r *Recovery) PromoteAdmin(ctx context.Context, c Client, userID string) error {
	err := r.id.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		if err := r.makeAdmin(ctx, tx, u); err != nil {
			return err
		}
		if err := r.markOperator(ctx, tx, u, grantedByCLI); err != nil {
			return err
		}
		return r.id.audit(ctx, tx, "admin_promoted", nil, c, map[string]any{"via": "cli", "user_id": u.ID, "email": u.Email, "operator": true})
	})
	if err != nil {
		return internal(err)
	}
	return nil
}
