package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the server's concurrent logging.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestKeysAreStableAndPrivate(t *testing.T) {
	dir := t.TempDir()
	var out1, out2 bytes.Buffer
	if err := run(context.Background(), []string{"keys", "--json", "--data-dir", dir}, nil, &out1, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"keys", "--json", "--data-dir", dir}, nil, &out2, io.Discard); err != nil {
		t.Fatal(err)
	}
	if out1.String() != out2.String() {
		t.Fatal("keys changed between runs")
	}
	var k map[string]string
	if err := json.Unmarshal(out1.Bytes(), &k); err != nil || k["anon_key"] == "" || k["service_role_key"] == "" || k["anon_key"] == k["service_role_key"] {
		t.Fatalf("keys --json printed %q", out1.String())
	}
	st, err := os.Stat(filepath.Join(dir, "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("keys.json mode %v, want 0600", st.Mode().Perm())
	}
}

func TestMigrateAndVersion(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "--data-dir", t.TempDir()}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`database sqlite at migration [1-9]`).MatchString(out.String()) {
		t.Fatalf("migrate printed %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"version"}, nil, &out, io.Discard); err != nil || !strings.HasPrefix(out.String(), "fairbalance ") {
		t.Fatalf("version printed %q, %v", out.String(), err)
	}
	if err := run(context.Background(), []string{"nonsense"}, nil, io.Discard, io.Discard); err == nil {
		t.Fatal("unknown command accepted")
	}
}

// startServer runs "serve" on a free port and returns its base URL and a
// function that stops it (as SIGTERM would) and returns run's error.
func startServer(t *testing.T, dir string, extra ...string) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan error, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir, "--access-log=false"}, extra...)
	go func() { done <- run(ctx, args, nil, io.Discard, logs) }()
	addrRE := regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := addrRE.FindStringSubmatch(logs.String()); m != nil {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("server log:\n%s", logs.String())
				}
			})
			return "http://" + m[1], func() error { cancel(); return <-done }
		}
		select {
		case err := <-done:
			t.Fatalf("serve exited: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestAdminCreateThenSignIn(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	err := run(context.Background(), []string{"admin", "create", "--email", "Admin@Example.com", "--name", "Ada Admin", "--data-dir", dir}, strings.NewReader(""), &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Password \(shown once\): (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no generated password in %q", out.String())
	}
	if err := run(context.Background(), []string{"admin", "create", "--email", "admin@example.com", "--data-dir", dir}, strings.NewReader(""), io.Discard, io.Discard); err == nil {
		t.Fatal("second administrator with the same e-mail created")
	}
	if err := run(context.Background(), []string{"admin", "create", "--email", "weak@example.com", "--password-stdin", "--data-dir", dir}, strings.NewReader("short\n"), io.Discard, io.Discard); err == nil {
		t.Fatal("weak password accepted")
	}

	var keys bytes.Buffer
	if err := run(context.Background(), []string{"keys", "--json", "--data-dir", dir}, nil, &keys, io.Discard); err != nil {
		t.Fatal(err)
	}
	var k map[string]string
	_ = json.Unmarshal(keys.Bytes(), &k)

	base, stop := startServer(t, dir)
	defer stop()
	body := `{"email":"admin@example.com","password":"` + m[1] + `"}`
	req, _ := http.NewRequest("POST", base+"/auth/v1/token?grant_type=password", strings.NewReader(body))
	req.Header.Set("apikey", k["anon_key"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var sess struct {
		AccessToken string `json:"access_token"`
		User        struct {
			AppMetadata  map[string]any `json:"app_metadata"`
			UserMetadata map[string]any `json:"user_metadata"`
		} `json:"user"`
	}
	if err := json.NewDecoder(res.Body).Decode(&sess); err != nil || res.StatusCode != 200 || sess.AccessToken == "" {
		t.Fatalf("sign-in as the new administrator: %d %v", res.StatusCode, err)
	}
	if sess.User.AppMetadata["fairbalance_role"] != "admin" || sess.User.UserMetadata["full_name"] != "Ada Admin" {
		t.Fatalf("administrator metadata %+v", sess.User)
	}
	// The member profile holds the role the app checks: admin, so the
	// administrator is offered onboarding.
	req, _ = http.NewRequest("GET", base+"/rest/v1/profiles_v2?select=role,full_name,org_id", nil)
	req.Header.Set("apikey", k["anon_key"])
	req.Header.Set("Authorization", "Bearer "+sess.AccessToken)
	pres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer pres.Body.Close()
	var profiles []map[string]any
	if err := json.NewDecoder(pres.Body).Decode(&profiles); err != nil || len(profiles) != 1 || profiles[0]["role"] != "admin" || profiles[0]["full_name"] != "Ada Admin" || profiles[0]["org_id"] != nil {
		t.Fatalf("administrator profile %v %v", profiles, err)
	}
}

func TestServeHealthAndGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	base, stop := startServer(t, dir)
	res, err := http.Get(base + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	_ = json.NewDecoder(res.Body).Decode(&h)
	res.Body.Close()
	if res.StatusCode != 200 || h["status"] != "ok" || h["database"] != "sqlite" || h["migration"] == nil {
		t.Fatalf("health %d %v", res.StatusCode, h)
	}

	// Requests in flight when the server is told to stop are completed,
	// never cut off.
	var keys bytes.Buffer
	_ = run(context.Background(), []string{"keys", "--json", "--data-dir", dir}, nil, &keys, io.Discard)
	var k map[string]string
	_ = json.Unmarshal(keys.Bytes(), &k)
	// New connections only: a request written on a kept-alive connection
	// that the server is closing as idle fails on the client side (POST is
	// not retried), which says nothing about draining.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	var wg, written sync.WaitGroup
	const n = 6
	results := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		written.Add(1)
		go func() {
			defer wg.Done()
			var once sync.Once
			trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { once.Do(written.Done) }}
			req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "POST", base+"/auth/v1/token?grant_type=password", strings.NewReader(`{"email":"nobody@example.com","password":"Wrong-passw0rd"}`))
			req.Header.Set("apikey", k["anon_key"])
			res, err := client.Do(req)
			once.Do(written.Done)
			if err != nil {
				results <- err
				return
			}
			defer res.Body.Close()
			if _, err := io.ReadAll(res.Body); err != nil {
				results <- err
				return
			}
			if res.StatusCode != 400 {
				results <- errors.New(res.Status)
				return
			}
			results <- nil
		}()
	}
	// Stop once every request is on the wire and its connection accepted:
	// sign-ins queue behind the password hasher, so most are still being
	// handled. A connection the server has not accepted yet would be dropped
	// with its listener, so one more request on a connection opened after
	// them is the barrier: the server accepts connections in order, and once
	// that one is answered the six are in.
	written.Wait()
	barrier, err := client.Get(base + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, barrier.Body)
	barrier.Body.Close()
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v after shutdown", err)
	}
	wg.Wait()
	close(results)
	for err := range results {
		if err != nil {
			t.Errorf("request during shutdown: %v", err)
		}
	}
}
