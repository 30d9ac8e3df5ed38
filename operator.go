package fairbalance

import (
	"context"
	"time"
)

// Operator marks an account as an operator of the instance: beside the
// recovery key and the service role, operators alone change the
// instance-wide settings (sign-up, site access, passcode gate, indexing)
// and run the safe-mode repairs. The mark is independent of the account's
// role in its organisation; an organisation's admin who is not an operator
// sees the instance-wide settings read-only.
type Operator struct {
	UserID string
	// Email is the account's address (read only; "" for none).
	Email string
	// GrantedBy says how the account became an operator: "initial_setup",
	// "first_admin", "cli", "recovery_key" or "migration".
	GrantedBy string
	CreatedAt time.Time
}

// OperatorStore keeps the operator marks. A mark goes with its account
// when the account is deleted.
type OperatorStore interface {
	// IsOperator reports whether the account userID is marked operator.
	IsOperator(ctx context.Context, userID string) (bool, error)
	// AddOperator marks an account; it reports false when the account was
	// marked already (the existing mark is kept as it is).
	AddOperator(ctx context.Context, o *Operator) (bool, error)
	// RemoveOperator removes an account's mark; ErrNotFound when it has none.
	RemoveOperator(ctx context.Context, userID string) error
	// CountOperators counts the marked accounts that are not deleted.
	CountOperators(ctx context.Context) (int, error)
	// ListOperators lists the marked accounts, oldest mark first.
	ListOperators(ctx context.Context) ([]Operator, error)
}
