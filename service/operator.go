package service

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"fairbalance"
)

// How an account became an operator (Operator.GrantedBy).
const (
	grantedByCLI        = "cli"
	grantedByFirstAdmin = "first_admin"
)

// marksOperator reports whether an account created by a safe-mode repair
// authorised via is marked operator: the initial setup's, and the recovery
// key's (its holder is the operator restoring their own access).
func marksOperator(via string) bool { return via == viaInitialSetup || via == viaRecoveryKey }

// markOperator marks u operator inside tx, recording how; marking an
// operator again changes nothing. Callers keep demo accounts out.
func (r *Recovery) markOperator(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, by string) error {
	_, err := tx.AddOperator(ctx, &fairbalance.Operator{UserID: u.ID, GrantedBy: by, CreatedAt: r.id.Now()})
	return err
}

// grantFirstAdmin marks userID, who is making themselves admin, operator
// when they are the instance's first administrator (admins counts the
// instance's active admins before the change; the demo organisation's do
// not count) and there is no operator yet: an instance set up through
// sign-up and the first-admin bootstrap, rather than Initial Setup, is
// held by its first admin too, so a single-organisation instance works as
// the specification says. The creator of a later organisation is not.
func grantFirstAdmin(ctx context.Context, tx fairbalance.Tx, userID string, admins int) error {
	demo, err := tx.CountAdmins(ctx, fairbalance.DemoOrgID)
	if err != nil || admins > demo {
		return err
	}
	n, err := tx.CountOperators(ctx)
	if err != nil || n > 0 {
		return err
	}
	now := time.Now().UTC()
	if _, err := tx.AddOperator(ctx, &fairbalance.Operator{UserID: userID, GrantedBy: grantedByFirstAdmin, CreatedAt: now}); err != nil {
		return err
	}
	payload, err := json.Marshal(map[string]any{"via": grantedByFirstAdmin, "user_id": userID})
	if err != nil {
		return err
	}
	return tx.RecordAuthEvent(ctx, &fairbalance.AuthEvent{Action: "operator_granted", ActorID: userID, Payload: payload, CreatedAt: now})
}

var (
	errNoSuchAccount = errf(fairbalance.KindNotFound, "user_not_found", "No account has this e-mail address")
	errLastOperator  = errf(fairbalance.KindUnprocessable, "last_operator", "This is the last operator of the instance: grant another account first")
)

// operatorAccount reads the account with the address email inside tx.
func operatorAccount(ctx context.Context, tx fairbalance.Tx, email string) (*fairbalance.User, error) {
	addr, err := normaliseEmail(email)
	if err != nil {
		return nil, err
	}
	u, err := tx.UserByEmail(ctx, addr)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, errNoSuchAccount
	}
	if err != nil {
		return nil, err
	}
	if u.DeletedAt != nil {
		return nil, errf(fairbalance.KindUnprocessable, "user_deleted", "This account was deleted")
	}
	return u, nil
}

// GrantOperator marks the account with the address email operator
// (`fairbalance operator grant`, which has the host's authority), with an
// audit entry in the same transaction. It reports false when the account
// was an operator already. Demo accounts are refused.
func (r *Recovery) GrantOperator(ctx context.Context, c Client, email string) (*fairbalance.User, bool, error) {
	var out *fairbalance.User
	var added bool
	err := r.id.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := operatorAccount(ctx, tx, email)
		if err != nil {
			return err
		}
		if IsDemoUser(u) {
			return errf(fairbalance.KindUnprocessable, "demo_account", "A demo account cannot be an operator")
		}
		out = u
		if added, err = tx.AddOperator(ctx, &fairbalance.Operator{UserID: u.ID, GrantedBy: grantedByCLI, CreatedAt: r.id.Now()}); err != nil || !added {
			return err
		}
		return r.id.audit(ctx, tx, "operator_granted", nil, c, map[string]any{"via": grantedByCLI, "user_id": u.ID, "email": u.Email})
	})
	if err != nil {
		return nil, false, internal(err)
	}
	return out, added, nil
}

// RevokeOperator removes the operator mark of the account with the address
// email (`fairbalance operator revoke`), with an audit entry in the same
// transaction. The last operator is never revoked (the recovery key would
// be the only way back in); an account without the mark is not_operator.
func (r *Recovery) RevokeOperator(ctx context.Context, c Client, email string) (*fairbalance.User, error) {
	var out *fairbalance.User
	err := r.id.tx(ctx, func(tx fairbalance.Tx) error {
		// The settings row is the instance's singleton: locking it
		// serialises revocations, so two cannot remove the last two
		// operators at once (SQLite's write lock already does).
		if _, err := tx.WorkspaceSettings(ctx); err != nil {
			return err
		}
		u, err := operatorAccount(ctx, tx, email)
		if err != nil {
			return err
		}
		op, err := tx.IsOperator(ctx, u.ID)
		if err != nil {
			return err
		}
		if !op {
			return errf(fairbalance.KindNotFound, "not_operator", "This account is not an operator")
		}
		n, err := tx.CountOperators(ctx)
		if err != nil {
			return err
		}
		if n <= 1 {
			return errLastOperator
		}
		if err := tx.RemoveOperator(ctx, u.ID); err != nil {
			return err
		}
		out = u
		return r.id.audit(ctx, tx, "operator_revoked", nil, c, map[string]any{"via": grantedByCLI, "user_id": u.ID, "email": u.Email})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// Operators lists the instance's operators, oldest mark first.
func (r *Recovery) Operators(ctx context.Context) ([]fairbalance.Operator, error) {
	ops, err := r.id.store.View().ListOperators(ctx)
	return ops, internal(err)
}
