package httpapi

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

// A value that looks like markup cannot end the data block early.
func TestWithConfigEscapesMarkup(t *testing.T) {
	out := string(withConfig([]byte("<html><head></head><body></body></html>"), map[string]any{"site_url": "</script><script>alert(1)</script>"}))
	if strings.Count(out, "</script>") != 1 || !strings.Contains(out, `\u003c/script\u003e`) {
		t.Errorf("markup not escaped: %s", out)
	}
	if got := string(withConfig([]byte("<p>no head</p>"), map[string]any{"a": 1})); got != "<p>no head</p>" {
		t.Errorf("a page without </head> changed: %s", got)
	}
}

// Warming compresses the build's text files ahead and leaves the rest alone.
func TestGzipCacheWarmCompressesTextFilesAhead(t *testing.T) {
	fsys := fstest.MapFS{
		"_app/index-abc.js":  {Data: []byte(strings.Repeat("console.log('fairbalance');\n", 100))},
		"_app/style-abc.css": {Data: []byte(strings.Repeat("body{margin:0}\n", 100))},
		"_app/logo-abc.png":  {Data: []byte("\x89PNG\r\n\x1a\n....")},
		"_app/tiny-abc.js":   {Data: []byte("x")},
		"index.html":         {Data: []byte(strings.Repeat("<p>page</p>", 100))},
	}
	var c gzipCache
	c.warm(fsys)
	for p, want := range map[string]bool{"_app/index-abc.js": true, "_app/style-abc.css": true, "_app/logo-abc.png": false, "_app/tiny-abc.js": false, "index.html": false} {
		v, ok := c.files.Load(p)
		body, _ := v.([]byte)
		if got := ok && body != nil; got != want {
			t.Errorf("%s compressed ahead = %v, want %v", p, got, want)
		}
	}
	// What was compressed ahead is what a request gets.
	v, _ := c.files.Load("_app/index-abc.js")
	if got := c.load(fsys, "_app/index-abc.js"); !bytes.Equal(got, v.([]byte)) {
		t.Error("load after warm compressed again")
	}
}
