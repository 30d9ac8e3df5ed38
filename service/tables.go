package service

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// The tables of the organisation records, as the data API serves them.

func nowDefault(_ fairbalance.Caller, now time.Time) any { return now }
func uuidDefault(fairbalance.Caller, time.Time) any      { return auth.NewUUID() }
func member(c fairbalance.Caller) bool                   { return !c.Anon() }

func orgScoped(column string) func(c fairbalance.Caller) (*fairbalance.Cond, bool) {
	return func(c fairbalance.Caller) (*fairbalance.Cond, bool) {
		if !c.InOrg() {
			return nothing, !c.Anon()
		}
		return &fairbalance.Cond{Column: column, Operator: "eq", Value: c.OrgID}, true
	}
}

// OrgsTable is orgs: members see their organisation; a member without one
// may create one (onboarding); admins rename it.
func OrgsTable() *TableSpec {
	return &TableSpec{
		Name: "orgs", Key: []string{"id"},
		Columns: []ColumnSpec{
			{Name: "id", Type: fairbalance.TypeText, ServerSet: true, Default: uuidDefault},
			{Name: "name", Type: fairbalance.TypeText},
			{Name: "industry", Type: fairbalance.TypeText, Default: func(fairbalance.Caller, time.Time) any { return "" }},
			{Name: "created_by", Type: fairbalance.TypeText, ServerSet: true, Default: func(c fairbalance.Caller, _ time.Time) any { return c.UserID }},
			{Name: "created_at", Type: fairbalance.TypeTimestamp, ServerSet: true, Default: nowDefault},
			{Name: "updated_at", Type: fairbalance.TypeTimestamp, ServerSet: true, Default: nowDefault},
		},
		Relations: []RelationSpec{{Name: "profiles_v2", Table: "profiles_v2", LocalColumn: "id", ForeignColumn: "org_id", Many: true}},
		Rows:      orgScoped("id"),
		CanInsert: func(c fairbalance.Caller) bool { return !c.Anon() && c.OrgID == "" },
		CanUpdate: func(c fairbalance.Caller) bool { return c.IsAdmin() },
		CheckInsert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
			if name, _ := row["name"].(string); len(name) == 0 || len(name) > 200 {
				return pgErr(fairbalance.KindInvalid, "23514", "new row for relation \"orgs\" violates check constraint \"orgs_name_check\"", "An organisation needs a name of 1 to 200 characters.", "")
			}
			return nil
		},
	}
}

// ProfilesTable is profiles_v2: members see the profiles of their
// organisation and their own. Membership and roles are never a matter of
// writing a column freely (see checkProfileUpdate).
func ProfilesTable(sniff ContentSniffer) *TableSpec {
	return &TableSpec{
		Name: "profiles_v2", Key: []string{"id"},
		Columns: []ColumnSpec{
			{Name: "id", Type: fairbalance.TypeText, ServerSet: true},
			{Name: "org_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "role", Type: fairbalance.TypeText},
			{Name: "full_name", Type: fairbalance.TypeText},
			{Name: "avatar_url", Type: fairbalance.TypeText},
			{Name: "created_at", Type: fairbalance.TypeTimestamp, ServerSet: true},
			{Name: "updated_at", Type: fairbalance.TypeTimestamp, ServerSet: true},
			// Set and cleared only by deactivate_member and reactivate_member,
			// which also end the member's sessions.
			{Name: "deactivated_at", Type: fairbalance.TypeTimestamp, Nullable: true, ServerSet: true},
		},
		Relations: []RelationSpec{{Name: "orgs", Table: "orgs", LocalColumn: "org_id", ForeignColumn: "id"}},
		Rows: func(c fairbalance.Caller) (*fairbalance.Cond, bool) {
			if c.Anon() {
				return nil, false
			}
			own := &fairbalance.Cond{Column: "id", Operator: "eq", Value: c.UserID}
			if !c.InOrg() {
				return own, true
			}
			return &fairbalance.Cond{Logic: "or", Children: []*fairbalance.Cond{own, {Column: "org_id", Operator: "eq", Value: c.OrgID}}}, true
		},
		CanUpdate: member,
		CheckUpdate: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
			return checkProfileUpdate(ctx, tx, c, values, where, sniff)
		},
	}
}

var roleRank = map[string]int{
	fairbalance.RoleOwner: 3, fairbalance.RoleAdmin: 2,
	fairbalance.RoleMarketer: 1, fairbalance.RoleReviewerMedical: 1, fairbalance.RoleReviewerLegal: 1, fairbalance.RoleReviewerRegulatory: 1,
	fairbalance.RoleViewer: 0,
}

// checkProfileUpdate enforces the membership rules on every profile an
// update would touch:
//   - org_id: by its owner only from empty to an organisation this same
//     user created and that has no member yet (onboarding); otherwise only
//     by accepting an invitation (rpc) — never by writing the column;
//   - role: only by an admin of the profile's organisation, never on their
//     own profile and never above their own role; the first-admin
//     bootstrap lets a user make themselves admin while the instance has no
//     admin at all;
//   - names and avatars: the profile's owner or an admin of its
//     organisation, never one whose role is above the admin's (an admin
//     does not rename the organisation's owner).
func checkProfileUpdate(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond, sniff ContentSniffer) error {
	if v, ok := values["avatar_url"]; ok {
		s, _ := v.(string)
		if err := checkAvatarURL(s, sniff); err != nil {
			return err
		}
	}
	raw, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: "profiles_v2", Where: where, Columns: []fairbalance.SelectColumn{
		{Column: "id", Alias: "id", Type: fairbalance.TypeText}, {Column: "org_id", Alias: "org_id", Type: fairbalance.TypeText}, {Column: "role", Alias: "role", Type: fairbalance.TypeText},
	}})
	if err != nil {
		return err
	}
	var targets []struct {
		ID    string  `json:"id"`
		OrgID *string `json:"org_id"`
		Role  string  `json:"role"`
	}
	if err := json.Unmarshal(raw, &targets); err != nil {
		return err
	}
	refuse := func(why string) error {
		e := denied(c, "new row violates row-level security policy for table \"profiles_v2\"")
		e.Details = why
		return e
	}
	for _, p := range targets {
		own := p.ID == c.UserID
		orgID := ""
		if p.OrgID != nil {
			orgID = *p.OrgID
		}
		sameOrgAdmin := c.IsAdmin() && orgID == c.OrgID
		if v, ok := values["org_id"]; ok {
			newOrg, _ := v.(string)
			if newOrg != orgID {
				if !own || orgID != "" || newOrg == "" {
					return refuse("Members join an organisation by accepting an invitation.")
				}
				if ok, err := createdBy(ctx, tx, newOrg, c.UserID); err != nil || !ok {
					return refuse("Only the creator of a new organisation may join it this way.")
				}
				orgID = newOrg
			}
		}
		if v, ok := values["role"]; ok {
			role, _ := v.(string)
			if !fairbalance.ValidRole(role) {
				return pgErr(fairbalance.KindInvalid, "23514", "new row for relation \"profiles_v2\" violates check constraint \"profiles_v2_role_check\"", "", "")
			}
			if role != p.Role {
				switch {
				case own && role == fairbalance.RoleAdmin:
					// The first-admin bootstrap (no admin in the instance), or
					// the creator of an organisation that has no admin yet.
					n, err := tx.CountAdmins(ctx, "")
					if err != nil {
						return err
					}
					if n > 0 {
						creator, err := createdBy(ctx, tx, orgID, c.UserID)
						if err != nil {
							return err
						}
						m, err := tx.CountAdmins(ctx, orgID)
						if err != nil {
							return err
						}
						if !creator || m > 0 {
							return refuse("Roles are changed by an administrator.")
						}
					}
					// The instance's first administrator is its operator.
					if err := grantFirstAdmin(ctx, tx, c.UserID, n); err != nil {
						return err
					}
				case own:
					return refuse("Nobody changes their own role.")
				case !sameOrgAdmin:
					return refuse("Roles are changed by an administrator of the organisation.")
				case roleRank[role] > roleRank[c.Member] || roleRank[p.Role] > roleRank[c.Member]:
					return refuse("Nobody grants or changes a role above their own.")
				}
			}
		}
		for _, k := range []string{"full_name", "avatar_url"} {
			if _, ok := values[k]; !ok || own {
				continue
			}
			if !sameOrgAdmin {
				return refuse("Only the member or an administrator changes a profile.")
			}
			if roleRank[p.Role] > roleRank[c.Member] {
				return refuse("Only the owner changes the owner's name and picture.")
			}
		}
	}
	return nil
}

// createdBy reports whether org exists and was created by userID.
func createdBy(ctx context.Context, tx fairbalance.Tx, orgID, userID string) (bool, error) {
	if orgID == "" {
		return false, nil
	}
	org, err := tx.OrgByID(ctx, orgID)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return org.CreatedBy == userID, nil
}

// WorkspaceSettingsTable is workspace_settings, read by every member (the
// shell needs the flags); it changes only through the security manager.
func WorkspaceSettingsTable() *TableSpec {
	return &TableSpec{
		Name: "workspace_settings", Key: []string{"id"},
		Columns: []ColumnSpec{
			{Name: "id", Type: fairbalance.TypeInteger, ServerSet: true},
			{Name: "preview_passcode_enabled", Type: fairbalance.TypeBoolean},
			{Name: "site_access_mode", Type: fairbalance.TypeText},
			{Name: "disable_signup", Type: fairbalance.TypeBoolean},
			{Name: "block_indexing", Type: fairbalance.TypeBoolean},
			{Name: "updated_at", Type: fairbalance.TypeTimestamp, ServerSet: true},
		},
		Rows: func(c fairbalance.Caller) (*fairbalance.Cond, bool) { return nil, !c.Anon() },
	}
}

// recordTables are the organisation records served by the data API; sniff
// tells the type of an avatar's image.
func recordTables(sniff ContentSniffer) []*TableSpec {
	return []*TableSpec{OrgsTable(), ProfilesTable(sniff), WorkspaceSettingsTable(), AuditLogsV2Table(), AuditLogsTable()}
}

// Avatar limits: a data: URL of at most MaxAvatarDataURL characters (about
// 110 KB of image), an https URL of at most MaxAvatarURL.
const (
	MaxAvatarDataURL = 150000
	MaxAvatarURL     = 2048
)

// avatarTypes are the image types an avatar data: URL may hold.
var avatarTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true}

// checkAvatarURL accepts an empty avatar, an https URL, or a base64 data:
// URL of a PNG, JPEG or WebP image whose bytes are of the type it names
// (as sniff tells it); anything else is refused as a check violation
// (23514) saying why.
func checkAvatarURL(s string, sniff ContentSniffer) error {
	bad := func(why string) error {
		return constrained(pgErr(fairbalance.KindInvalid, "23514", why,
			"new row for relation \"profiles_v2\" violates check constraint \"profiles_v2_avatar_url_check\"",
			"Use an https:// address, or a PNG, JPEG or WebP image as a base64 data: URL of at most 150000 characters."), "profiles_v2_avatar_url_check")
	}
	switch {
	case s == "":
		return nil
	case strings.HasPrefix(s, "https://"):
		if len(s) > MaxAvatarURL {
			return bad(fmt.Sprintf("The avatar URL is longer than %d characters.", MaxAvatarURL))
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return bad("The avatar URL is not a valid https URL.")
		}
		return nil
	case strings.HasPrefix(s, "data:"):
		if len(s) > MaxAvatarDataURL {
			return bad(fmt.Sprintf("The avatar image is too large: a data: URL has at most %d characters.", MaxAvatarDataURL))
		}
		meta, data, ok := strings.Cut(s[len("data:"):], ",")
		mediaType, enc, _ := strings.Cut(meta, ";")
		mediaType = strings.ToLower(mediaType)
		if !ok || !avatarTypes[mediaType] || strings.ToLower(enc) != "base64" {
			return bad("An avatar data: URL must be data:image/png, image/jpeg or image/webp with ;base64.")
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(data); err != nil {
				return bad("The avatar data: URL is not valid base64.")
			}
		}
		if got := sniff(b); got != mediaType {
			return bad(fmt.Sprintf("The avatar data is not a %s image.", strings.TrimPrefix(mediaType, "image/")))
		}
		return nil
	}
	return bad("An avatar must be empty, an https:// URL or a data:image/… URL.")
}
