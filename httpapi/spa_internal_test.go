package httpapi

import (
	"strings"
	"testing"
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
