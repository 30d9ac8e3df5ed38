// Package service holds Fairbalance's use cases. It owns transactions,
// checks permissions and writes the audit entry of a change in the same
// transaction as the change. It depends on the ports of package fairbalance,
// never on a particular store.
package service
