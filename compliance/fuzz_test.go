package compliance

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"Zelvora is the best treatment. Guaranteed results with no side effects. Better than lisinopril.",
		"Zelvora® (velorimab) reduced exacerbations by 40%.¹ [1–3] † ‡ §",
		"NEW!\f\fZelvora\n\nbreak-\nthrough — “game-changer” for children 😀",
		"IMPORTANT SAFETY INFORMATION\nDo not use in COPD.",
		"-\n-a ­\u200b® 100% #1 vs. [1,",
		"",
	} {
		f.Add(s)
	}
	e, err := Compile(Config{Rules: []Rule{
		{Code: "org-phrases", Version: 1, Kind: "phrases", Phrases: []string{"wonder drug", "cure-all", "doctor’s choice", "remedy"}, Severity: Warning, Message: "m"},
		{Code: "org-regex", Version: 1, Kind: "regex", Pattern: `(?i)free\s+trial|\d+x`, Severity: Info, Message: "m"},
	}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		n := utf8.RuneCountInString(text)
		doc := Document{Text: text, Modules: []ModuleSpan{{Span: Span{1, 5}, Kind: "module", Expired: true}, {Span: Span{0, 3}, ISI: true}}, Pages: []Span{{0, n / 2}, {n / 2, n}}}
		var fs []Finding
		done := make(chan bool)
		go func() {
			fs = e.Check(doc, Context{Product: zelvora, AssetType: "social_post", Channel: "Twitter", Audience: "patient", AsOf: asOf, LinkedClaims: []Span{{2, 9}}})
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("Check did not finish on %q", text)
		}
		if !utf8.ValidString(text) {
			// Offsets still count the code points Go decodes.
		}
		rs := []rune(text)
		for _, f := range fs {
			if f.Start < 0 || f.Start >= f.End || f.End > len(rs) {
				t.Fatalf("finding %+v outside [0,%d)", f, len(rs))
			}
			if utf8.ValidString(text) && string(rs[f.Start:f.End]) != f.Quote {
				t.Fatalf("finding %+v: quote is not runes[start:end] = %q", f, string(rs[f.Start:f.End]))
			}
		}
	})
}

// TestPathologicalInputsStayLinear feeds texts that would make a
// word-context lookup or a sentence splitter quadratic.
func TestPathologicalInputsStayLinear(t *testing.T) {
	e := mustCompile(t, Config{})
	for name, unit := range map[string]string{
		"percent signs":   "1%%%%%%%%%%%%%%%",
		"full stops":      "a.a.a.a.a.a.",
		"dots":            "...............",
		"comparisons":     " better than x and more than y ",
		"triggers":        " reduced improved 40% ",
		"markers":         "*†‡§¹²³[1][1,2]",
		"hyphens":         "a-   -   -\n-",
		"brand and names": "Zelvora velorimab Zelvora ",
		"children":        " children COPD pregnant new ",
	} {
		text := strings.Repeat(unit, (256<<10)/len(unit))
		t0 := time.Now()
		fs := e.Check(Document{Text: text}, Context{Product: zelvora, AssetType: "email", Audience: "patient", AsOf: asOf})
		if d := time.Since(t0); d > 15*time.Second {
			t.Errorf("%s: %v for 256 KB", name, d)
		}
		checkOffsets(t, text, fs)
	}
}
