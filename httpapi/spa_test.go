package httpapi_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"fairbalance/auth"
	"fairbalance/httpapi"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

func spaServer(t *testing.T) *httptest.Server {
	t.Helper()
	db := storetest.Open(t, "sqlite")
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{SiteURL: siteURL, Version: "test"}, slog.New(slog.DiscardHandler))
	ui := fstest.MapFS{
		"index.html":        {Data: []byte("<!doctype html><head><title>t</title></head><div id=root></div>")},
		"_app/index-abc.js": {Data: []byte(strings.Repeat("console.log('fairbalance');\n", 200))},
		"_app/logo-abc.png": {Data: []byte("\x89PNG\r\n\x1a\n....")},
		"favicon.svg":       {Data: []byte("<svg/>")},
	}
	srv := httptest.NewServer(httpapi.New(httpapi.Config{Version: "test"}, httpapi.Deps{Identity: id, Store: db, Log: slog.New(slog.DiscardHandler), UI: ui}).Handler())
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, url string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	// A bare transport: the default one would ask for gzip and decode it itself.
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

func TestSPAServesBuildFilesCompressedAndRoutesToIndex(t *testing.T) {
	srv := spaServer(t)

	res := get(t, srv.URL+"/_app/index-abc.js", map[string]string{"Accept-Encoding": "br, gzip"})
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("script: status %d, encoding %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	if !strings.Contains(res.Header.Get("Cache-Control"), "immutable") || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("script headers: %v", res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(zr)
	if !strings.HasPrefix(string(body), "console.log('fairbalance');") || len(body) != 200*len("console.log('fairbalance');\n") {
		t.Errorf("decompressed script differs: %d bytes", len(body))
	}

	plain := get(t, srv.URL+"/_app/index-abc.js", map[string]string{"Accept-Encoding": "gzip;q=0"})
	if plain.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still got %q", plain.Header.Get("Content-Encoding"))
	}
	if png := get(t, srv.URL+"/_app/logo-abc.png", map[string]string{"Accept-Encoding": "gzip"}); png.Header.Get("Content-Encoding") != "" {
		t.Errorf("images are not recompressed, got %q", png.Header.Get("Content-Encoding"))
	}
	if missing := get(t, srv.URL+"/_app/gone.js", nil); missing.StatusCode != 404 {
		t.Errorf("missing build file: %d, want 404", missing.StatusCode)
	}
	// /assets/{id} is one of the app's routes, not a build folder.
	for _, p := range []string{"/assets/1234", "/audit-log", "/"} {
		res := get(t, srv.URL+p, nil)
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.Contains(string(b), "id=root") {
			t.Errorf("%s: %d %q", p, res.StatusCode, b)
		}
	}
}

// The page carries /api/config's answer for this browser as a JSON data
// block in <head>, so the app's first screen does not wait for it.
func TestSPAPageCarriesThePublicConfig(t *testing.T) {
	srv := spaServer(t)
	res := get(t, srv.URL+"/assets/1234", nil)
	page, _ := io.ReadAll(res.Body)
	const open = `<script type="application/json" id="fairbalance-config">`
	start := strings.Index(string(page), open)
	end := strings.Index(string(page), "</script></head>")
	if start < 0 || end < start {
		t.Fatalf("no config block before </head>: %s", page)
	}
	var embedded map[string]any
	if err := json.Unmarshal(page[start+len(open):end], &embedded); err != nil {
		t.Fatalf("config block is not JSON: %v", err)
	}
	var served map[string]any
	if err := json.NewDecoder(get(t, srv.URL+"/api/config", nil).Body).Decode(&served); err != nil {
		t.Fatal(err)
	}
	if len(embedded) == 0 || embedded["anon_key"] != served["anon_key"] || embedded["gate_passed"] != served["gate_passed"] || embedded["version"] != "test" {
		t.Errorf("embedded %v, served %v", embedded, served)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("page Cache-Control %q: the config in it must not be cached stale", cc)
	}
}
