package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
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
	gz := &gzipCache{}
	// Compressed ahead, in the background: otherwise the first visitor after
	// a start waits while each script is compressed (about a second for the
	// whole build on a small machine).
	go gz.warm(a.ui)
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
					if gz.serve(w, r, a.ui, p) {
						return
					}
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
		_, _ = w.Write(withConfig(index, a.publicConfig(r)))
	})
}

// withConfig puts the public configuration into the page as a JSON data
// block (<script type="application/json" id="fairbalance-config">), which
// the app reads instead of waiting for GET /api/config before its first
// screen. A data block is never executed, so the script-src 'self' policy
// stands; json.Marshal escapes <, > and &, so the values cannot end the element.
func withConfig(index []byte, config map[string]any) []byte {
	at := bytes.Index(index, []byte("</head>"))
	body, err := json.Marshal(config)
	if at < 0 || err != nil {
		return index
	}
	out := make([]byte, 0, len(index)+len(body)+80)
	out = append(out, index[:at]...)
	out = append(out, `<script type="application/json" id="fairbalance-config">`...)
	out = append(out, body...)
	out = append(out, "</script>"...)
	return append(out, index[at:]...)
}

// gzipCache holds gzip-compressed copies of the build's immutable files,
// made on first request: scripts and styles shrink to about a third, which
// is most of the sign-in screen's load time on a real network.
type gzipCache struct {
	files sync.Map // path → []byte (nil: not worth compressing)
}

// serve writes the compressed copy of p when the client accepts gzip and
// the file is text; it reports whether it wrote the response.
func (c *gzipCache) serve(w http.ResponseWriter, r *http.Request, fsys fs.FS, p string) bool {
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r) {
		return false
	}
	if !compressible(p) {
		return false
	}
	body := c.load(fsys, p)
	if body == nil {
		return false
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(p)))
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
	return true
}

// compressible reports whether files named like p are worth compressing (text).
func compressible(p string) bool {
	ctype := mime.TypeByExtension(path.Ext(p))
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") || strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
}

// load returns the compressed copy of p, compressing it on first use; nil
// when p cannot be read or does not shrink.
func (c *gzipCache) load(fsys fs.FS, p string) []byte {
	if v, ok := c.files.Load(p); ok {
		body, _ := v.([]byte)
		return body
	}
	raw, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	var body []byte
	if buf.Len() < len(raw) {
		body = buf.Bytes()
	}
	v, _ := c.files.LoadOrStore(p, body)
	body, _ = v.([]byte)
	return body
}

// warm compresses every text file under _app/ of fsys, one at a time.
func (c *gzipCache) warm(fsys fs.FS) {
	_ = fs.WalkDir(fsys, strings.TrimSuffix(appDir, "/"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && compressible(p) {
			c.load(fsys, p)
		}
		return nil
	})
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q, found := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
