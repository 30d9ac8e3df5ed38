package service

import (
	"context"
	"errors"

	"fairbalance"
)

// Member returns the member profile of the signed-in caller. A caller
// without a profile, or whose profile is deactivated, is forbidden.
func (s *Identity) Member(ctx context.Context, p *Principal) (*fairbalance.Profile, error) {
	if p == nil || p.User == nil {
		return nil, errf(fairbalance.KindUnauthorized, "no_authorization", "This action requires a signed-in member")
	}
	prof, err := s.store.View().ProfileByID(ctx, p.User.ID)
	if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return nil, internal(err)
	}
	if err := memberRefusal(prof); err != nil {
		return nil, err
	}
	return prof, nil
}

// IsAdmin reports whether a member profile administers its workspace
// (role owner or admin). A nil or deactivated profile is not an admin.
func IsAdmin(p *fairbalance.Profile) bool {
	return p != nil && p.DeactivatedAt == nil && (p.Role == fairbalance.RoleOwner || p.Role == fairbalance.RoleAdmin)
}
