package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore/blobtest"
	"fairbalance/httpapi"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// A data API function learns where its call came from — the client's
// address (the trusted forwarded-for header's first address, when one is
// configured) and user agent — through its context: decide_step records
// them on the electronic signature.
func TestRPCPassesTheClientToFunctions(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{SiteURL: siteURL}, nil)
	storage := service.NewStorage(db, blobtest.Open(t, "disk").Store, keys.Secret, http.DetectContentType)
	data := service.NewRegistry(db, storage)
	var seen service.Client
	data.RegisterFunctions(&service.FunctionSpec{Name: "client_seen", ReadOnly: true,
		Call: func(ctx context.Context, _ fairbalance.Tx, _ fairbalance.Caller, _ map[string]any) (any, error) {
			seen = service.ClientFrom(ctx)
			return map[string]any{"ok": true}, nil
		}})
	for _, c := range []struct {
		forwarded, header, want string
	}{{"", "198.51.100.9", "127.0.0.1"}, {"X-Forwarded-For", "198.51.100.9, 10.0.0.1", "198.51.100.9"}} {
		api := httpapi.New(httpapi.Config{Version: "test", ForwardedForHeader: c.forwarded}, httpapi.Deps{Identity: id, Data: data.Engine, Store: db})
		srv := httptest.NewServer(api.Handler())
		req, _ := http.NewRequest("POST", srv.URL+"/rest/v1/rpc/client_seen", strings.NewReader(`{}`))
		req.Header.Set("apikey", keys.APIKey("service_role"))
		req.Header.Set("Authorization", "Bearer "+keys.APIKey("service_role"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "Mozilla/5.0 (Reviewer)")
		req.Header.Set("X-Forwarded-For", c.header)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		srv.Close()
		if res.StatusCode != 200 || seen.IP != c.want || seen.UserAgent != "Mozilla/5.0 (Reviewer)" {
			t.Fatalf("forwarded-for header %q: %d, the function saw %+v, want address %s", c.forwarded, res.StatusCode, seen, c.want)
		}
	}
}
