package service

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"fairbalance"
)

// Demo data: a complete demo organisation ("Demo Pharma") with a member of
// every role. Demo members have no password anyone knows; the server issues
// their sessions only while preview is enabled, and such sessions are
// read-only (see fairbalance.Caller.Demo).

// DemoStatus answers CHECK_DEMO_DATA.
type DemoStatus struct {
	HasDemo bool
	Orgs    int
	Users   int
	Assets  int
}

var demoNames = map[string]string{
	fairbalance.RoleOwner:              "Olivia Owner",
	fairbalance.RoleAdmin:              "Adam Admin",
	fairbalance.RoleMarketer:           "Maya Marketer",
	fairbalance.RoleReviewerMedical:    "Dr. Mei Medical",
	fairbalance.RoleReviewerLegal:      "Leo Legal",
	fairbalance.RoleReviewerRegulatory: "Rita Regulatory",
	fairbalance.RoleViewer:             "Victor Viewer",
}

// DemoEmail is the e-mail of the demo member with the given role.
func DemoEmail(role string) string {
	return strings.ReplaceAll(role, "_", ".") + "@" + fairbalance.DemoEmailDomain
}

// CheckDemo counts the demo data.
func (s *Identity) CheckDemo(ctx context.Context) (*DemoStatus, error) {
	v := s.store.View()
	st := &DemoStatus{}
	if _, err := v.OrgByID(ctx, fairbalance.DemoOrgID); err == nil {
		st.Orgs = 1
	} else if !errors.Is(err, fairbalance.ErrNotFound) {
		return nil, internal(err)
	}
	members, err := v.OrgMembers(ctx, fairbalance.DemoOrgID)
	if err != nil {
		return nil, internal(err)
	}
	st.Users = len(members)
	assets, err := readDBRows(ctx, v, "assets", condEq("org_id", fairbalance.DemoOrgID), 0, selCol("id", fairbalance.TypeText))
	if err != nil {
		return nil, internal(err)
	}
	st.Assets = len(assets)
	st.HasDemo = st.Orgs > 0
	return st, nil
}

// SeedDemo creates the demo data if it is absent (idempotent).
func (s *Identity) SeedDemo(ctx context.Context, c Client) (*DemoStatus, error) {
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		if _, err := tx.OrgByID(ctx, fairbalance.DemoOrgID); err == nil {
			return nil
		} else if !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		now := s.Now()
		if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: fairbalance.DemoOrgID, Name: fairbalance.DemoOrgName, Industry: "Pharmaceuticals", CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		for _, role := range fairbalance.Roles {
			id := fairbalance.DemoUserID(role)
			meta, _ := json.Marshal(map[string]string{"full_name": demoNames[role]})
			u, ident, err := s.newUser(DemoEmail(role), "", meta)
			if err != nil {
				return err
			}
			u.ID, ident.ProviderID, ident.UserID = id, id, id
			u.AppMetadata = json.RawMessage(`{"provider":"email","providers":["email"],"demo":true}`)
			u.EmailConfirmedAt = &now
			var d map[string]any
			_ = json.Unmarshal(ident.IdentityData, &d)
			d["sub"], d["email_verified"] = id, true
			ident.IdentityData, _ = json.Marshal(d)
			if err := tx.CreateUser(ctx, u); err != nil {
				return err
			}
			if err := tx.CreateIdentity(ctx, ident); err != nil {
				return err
			}
			if err := tx.CreateProfile(ctx, &fairbalance.Profile{ID: id, OrgID: fairbalance.DemoOrgID, Role: role, FullName: demoNames[role], CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, "demo_data_seeded", nil, c, map[string]any{"org_id": fairbalance.DemoOrgID})
	})
	if err != nil {
		return nil, internal(err)
	}
	// The content comes after the members who author it; Seed completes
	// content an earlier run left unfinished.
	if s.DemoContent != nil {
		if err := s.DemoContent.Seed(ctx); err != nil {
			return nil, internal(err)
		}
	}
	return s.CheckDemo(ctx)
}

// RemoveDemo removes exactly the demo data: the demo organisation's
// content and files, its invitations, the organisation and the demo
// members' accounts. (The audit trail is append-only and keeps its
// entries.)
func (s *Identity) RemoveDemo(ctx context.Context, c Client) error {
	// The content first: its files are blobs, which no cascade removes.
	if s.DemoContent != nil {
		if err := s.DemoContent.Remove(ctx); err != nil {
			return internal(err)
		}
	}
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		members, err := tx.OrgMembers(ctx, fairbalance.DemoOrgID)
		if err != nil {
			return err
		}
		for _, m := range members {
			u, err := tx.UserByID(ctx, m.ID)
			if err != nil {
				return err
			}
			// Only demo accounts: a real person who somehow joined stays.
			if !strings.HasSuffix(u.Email, "@"+fairbalance.DemoEmailDomain) || !strings.HasPrefix(u.ID, "00000000-") {
				return errf(fairbalance.KindConflict, "demo_not_removable", "The demo organisation has members who are not demo accounts")
			}
			if err := tx.DeleteUser(ctx, u.ID); err != nil {
				return err
			}
		}
		if err := tx.DeleteOrg(ctx, fairbalance.DemoOrgID); err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		return s.audit(ctx, tx, "demo_data_removed", nil, c, map[string]any{"org_id": fairbalance.DemoOrgID, "users": len(members)})
	})
	return internal(err)
}

// DemoSession issues a read-only session for the demo member with role,
// seeding the demo data when absent. Callers must check that preview is
// enabled.
func (s *Identity) DemoSession(ctx context.Context, c Client, role string) (*Session, error) {
	if !fairbalance.ValidRole(role) {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Unknown role")
	}
	if _, err := s.SeedDemo(ctx, c); err != nil {
		return nil, err
	}
	var out *Session
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, fairbalance.DemoUserID(role))
		if err != nil {
			return err
		}
		ds, rt, err := s.newSession(ctx, tx, u, "demo", c)
		if err != nil {
			return err
		}
		if out, err = s.finish(u, ds, rt); err != nil {
			return err
		}
		return s.audit(ctx, tx, "login", u, c, map[string]any{"method": "demo", "role": role})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// IsDemoUser reports whether an account is a demo member.
func IsDemoUser(u *fairbalance.User) bool {
	var m struct {
		Demo bool `json:"demo"`
	}
	_ = json.Unmarshal(u.AppMetadata, &m)
	return m.Demo
}

// DemoWriteRefused is the specification's refusal of writes in demo mode.
const DemoWriteRefused = fairbalance.DemoWriteRefused

var errDemo = errf(fairbalance.KindForbidden, "demo_read_only", DemoWriteRefused)

// AuthoriseDemo checks that an actor may seed or remove demo data: the
// recovery key, the service role, an operator or an organisation's
// administrator.
func (s *Identity) AuthoriseDemo(ctx context.Context, a Actor) error {
	_, _, err := s.authoriseRepair(ctx, a)
	return err
}
