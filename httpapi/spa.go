package httpapi

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// appDir is where the web build puts its content-hashed files (vite.config.ts build.assetsDir).
const appDir = "_app/"

const notBuiltPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fairbalance</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2933">
<h1>Fairbalance</h1><p>The web app was not built into this binary. Build it with <code>make build</code>; the APIs under
<code>/auth/v1</code> and <code>/api</code> work regardless.</p></body></html>`

// spa serves the embedded web app: files as they are (hashed files under
// _app/ cached for a year), and index.html for every other path so client
// routes work. The build's folder is _app/ rather than Vite's default
// assets/, which would shadow the app's own /assets/{id} route.
func (a *API) spa() http.Handler {
	if a.ui == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write([]byte(notBuiltPage))
		})
	}
	files := http.FileServerFS(a.ui)
	index, _ := fs.ReadFile(a.ui, "index.html")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if p != "" && p != "index.html" {
			if st, err := fs.Stat(a.ui, p); err == nil && !st.IsDir() {
				if strings.HasPrefix(p, appDir) {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "no-cache")
				}
				files.ServeHTTP(w, r)
				return
			}
			if strings.HasPrefix(p, appDir) {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(index)
	})
}
