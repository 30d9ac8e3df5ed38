package service_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// Without SMTP nothing is delivered, so Diagnostics' outbox shows an
// administrator the messages to the organisation's members and pending
// invitees (a sign-up's confirmation has no organisation yet) with the
// links they hold; never an owner's links to anyone but an owner, never a
// stranger's message.
func TestDiagnosticsOutboxWithoutSMTP(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			m.data.Config = service.DataConfig{Version: "1.2.3", SiteURL: "https://review.example.com"}
			admin := m.members["own"][fairbalance.RoleAdmin]
			call(t, m, admin, "create_invite", map[string]any{"email": "invitee@example.com", "role": fairbalance.RoleMarketer})
			now := time.Now().UTC()
			link := func(who string) string {
				return "https://review.example.com/auth/v1/verify?token=" + who + "&type=signup"
			}
			err := m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
				for _, to := range []string{"invitee@example.com", "own-marketer@example.com", "own-owner@example.com", "stranger@example.com"} {
					if err := tx.EnqueueMail(m.ctx, &fairbalance.MailMessage{To: to, Subject: "Confirm", Text: "Confirm your address:\n" + link(to) + ".\n", HTML: "x", Kind: "signup", CreatedAt: now, NextAttemptAt: now}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			outbox := func(c fairbalance.Caller) (string, map[string][]string) {
				raw, err := m.data.Call(m.ctx, c, "diagnostics", nil, true)
				if err != nil {
					t.Fatal(err)
				}
				var out struct {
					MailSender string `json:"mail_sender"`
					Outbox     []struct {
						To    string   `json:"to"`
						Links []string `json:"links"`
					} `json:"outbox"`
				}
				if err := json.Unmarshal(raw, &out); err != nil {
					t.Fatal(err)
				}
				links := map[string][]string{}
				for _, msg := range out.Outbox {
					links[msg.To] = append(links[msg.To], msg.Links...)
				}
				return out.MailSender, links
			}
			sender, got := outbox(admin)
			want := map[string][]string{
				"invitee@example.com":      {link("invitee@example.com")},
				"own-marketer@example.com": {link("own-marketer@example.com")},
				"own-owner@example.com":    nil,
			}
			if sender != "log" || !reflect.DeepEqual(got, want) {
				t.Fatalf("admin's outbox (%s): %v, want %v", sender, got, want)
			}
			if _, owners := outbox(m.members["own"][fairbalance.RoleOwner]); !reflect.DeepEqual(owners["own-owner@example.com"], []string{link("own-owner@example.com")}) {
				t.Fatalf("owner's outbox: %v", owners)
			}
			if _, others := outbox(m.members["other"][fairbalance.RoleAdmin]); len(others) != 0 {
				t.Fatalf("another organisation's outbox: %v", others)
			}
		})
	}
}
