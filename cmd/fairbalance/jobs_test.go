package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// The server works its background jobs: /api/health says so, and the
// confirmation e-mail of a sign-up is delivered by a job (logged, since
// no SMTP server is configured) and recorded once in the outbox. (That the
// job is inserted in the sign-up's own transaction is shown in package
// jobs; here either it or the outbox sweep may deliver.)
func TestServeDeliversMailThroughTheJobQueue(t *testing.T) {
	backends := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		backends = append(backends, "postgres")
	}
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			dir := t.TempDir()
			var flags []string
			if backend == "postgres" {
				flags, _ = auditStore(t, backend)
			}
			var keys bytes.Buffer
			if err := run(context.Background(), []string{"keys", "--json", "--data-dir", dir}, nil, &keys, io.Discard); err != nil {
				t.Fatal(err)
			}
			var k map[string]string
			_ = json.Unmarshal(keys.Bytes(), &k)
			base, stop := startServer(t, dir, flags...)
			defer stop()

			get := func(path, key string, out any) {
				t.Helper()
				req, _ := http.NewRequest("GET", base+path, nil)
				if key != "" {
					req.Header.Set("apikey", key)
					req.Header.Set("Authorization", "Bearer "+key)
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				if res.StatusCode != 200 {
					b, _ := io.ReadAll(res.Body)
					t.Fatalf("GET %s: %s %s", path, res.Status, b)
				}
				if err := json.NewDecoder(res.Body).Decode(out); err != nil {
					t.Fatal(err)
				}
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				var h map[string]any
				get("/api/health", "", &h)
				if h["jobs"] == "running" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("health = %v, want jobs running", h)
				}
				time.Sleep(20 * time.Millisecond)
			}

			req, _ := http.NewRequest("POST", base+"/auth/v1/signup", strings.NewReader(`{"email":"new.reviewer@example.com","password":"Corr3ct-Horse-Battery"}`))
			req.Header.Set("apikey", k["anon_key"])
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("sign-up: %s %s", res.Status, b)
			}
			for {
				var box []map[string]any
				get("/api/admin/mail?to=new.reviewer@example.com", k["service_role_key"], &box)
				if len(box) == 1 && box[0]["status"] == "logged" && box[0]["sent_at"] != nil {
					break
				}
				if len(box) > 1 || time.Now().After(deadline) {
					t.Fatalf("outbox = %v, want the confirmation logged once", box)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
