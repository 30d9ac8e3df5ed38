// Package fairbalance holds the domain of the Fairbalance compliance review
// workspace: its types, error codes and the ports (interfaces) that the
// service layer needs from storage and the outside world.
//
// It imports only the standard library. Adapters (sqlstore, mail) implement
// the ports; only cmd/fairbalance wires them together.
package fairbalance
