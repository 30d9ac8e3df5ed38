package compliance_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/compliance"
)

// The evaluation set is hand-written promotional copy on fictional products
// (testdata/eval), each sentence labelled for every rule it must and must not
// trigger. The rules below are the ones the set measures.
var evalRules = []string{
	compliance.RuleSuperlative,
	compliance.RuleComparative,
	compliance.RuleUnsubstantiated,
	compliance.RuleEstablishedName,
	compliance.RuleNewClaim,
	compliance.RuleOffLabel,
}

// evalSets are the labelled sets the evaluation runs on: the tuning set, and
// a held-out set written separately (never used to tune the rules) that
// shows whether the rules generalise. minSentences and minPerRule are what the
// format check asks of each (positives and negatives per rule). The held-out
// set is reported, never enforced: its misses are a measure of overfitting, and
// fixing them one by one would turn it into a second tuning set.
var evalSets = []struct {
	name                     string
	minSentences, minPerRule int
	enforced                 bool
}{
	{"eval", 400, 60, true},
	{"holdout", 200, 30, false},
}

// evalTarget is the precision and recall every rule must reach.
const evalTarget = 0.90

// evalStrict reports whether missing the target fails the test on an
// enforced set. The engine has landed and reaches the targets on the tuning
// set, so they are binding; the held-out set stays reported only.
func evalStrict() bool { return true }

type evalProduct struct {
	BrandName       string `json:"brand_name"`
	EstablishedName string `json:"established_name"`
	TherapyArea     string `json:"therapy_area"`
	Indications     string `json:"indications"`
	ISIText         string `json:"isi_text"`
	PIReference     string `json:"pi_reference"`
	LaunchDate      string `json:"launch_date"`
}

type evalSentence struct {
	ID        string   `json:"id"`
	Text      string   `json:"text"`
	Product   string   `json:"product"`
	AssetType string   `json:"asset_type"`
	Audience  string   `json:"audience"`
	Channel   string   `json:"channel"`
	AsOf      string   `json:"as_of"`
	Expect    []string `json:"expect"`
	Not       []string `json:"not"`

	line int
	asOf time.Time
}

// loadEvalSet reads and validates the set; every problem is reported, so a
// broken file says everything that is wrong with it at once.
func loadEvalSet(t *testing.T, set string) (map[string]*compliance.Product, []evalSentence) {
	t.Helper()
	dir := filepath.Join("testdata", set)

	raw, err := os.ReadFile(filepath.Join(dir, "products.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pf struct {
		About    string        `json:"about"`
		Products []evalProduct `json:"products"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pf); err != nil {
		t.Fatalf("products.json: %v", err)
	}

	products := map[string]*compliance.Product{}
	for i, p := range pf.Products {
		where := fmt.Sprintf("products.json product %d (%q)", i, p.BrandName)
		if p.BrandName == "" || p.EstablishedName == "" || p.Indications == "" || p.ISIText == "" || p.PIReference == "" {
			t.Errorf("%s: brand_name, established_name, indications, isi_text and pi_reference are required", where)
		}
		launch, err := time.Parse(time.DateOnly, p.LaunchDate)
		if err != nil {
			t.Errorf("%s: launch_date: %v", where, err)
		}
		if _, dup := products[p.BrandName]; dup {
			t.Errorf("%s: brand name listed twice", where)
		}
		products[p.BrandName] = &compliance.Product{
			BrandName:       p.BrandName,
			EstablishedName: p.EstablishedName,
			Indications:     p.Indications,
			ISIText:         p.ISIText,
			PIReference:     p.PIReference,
			LaunchDate:      launch,
		}
	}
	if len(products) < 3 {
		t.Errorf("products.json: %d products, want at least 3", len(products))
	}

	f, err := os.Open(filepath.Join(dir, "sentences.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sentences []evalSentence
	ids := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var s evalSentence
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.DisallowUnknownFields()
		if err := d.Decode(&s); err != nil {
			t.Errorf("sentences.jsonl:%d: %v", line, err)
			continue
		}
		s.line = line
		where := fmt.Sprintf("sentences.jsonl:%d (%s)", line, s.ID)
		if s.ID == "" {
			t.Errorf("%s: no id", where)
		} else if prev, dup := ids[s.ID]; dup {
			t.Errorf("%s: id already used on line %d", where, prev)
		}
		ids[s.ID] = line
		if strings.TrimSpace(s.Text) == "" {
			t.Errorf("%s: empty text", where)
		}
		if _, ok := products[s.Product]; !ok {
			t.Errorf("%s: unknown product %q", where, s.Product)
		}
		if !fairbalance.AssetType(s.AssetType).Valid() {
			t.Errorf("%s: asset_type %q is not one of %v", where, s.AssetType, fairbalance.AllAssetTypes)
		}
		if !fairbalance.Audience(s.Audience).Valid() {
			t.Errorf("%s: audience %q is not one of %v", where, s.Audience, fairbalance.AllAudiences)
		}
		if s.asOf, err = time.Parse(time.DateOnly, s.AsOf); err != nil {
			t.Errorf("%s: as_of: %v", where, err)
		}
		for _, r := range append(slices.Clone(s.Expect), s.Not...) {
			if !slices.Contains(evalRules, r) {
				t.Errorf("%s: %q is not one of the evaluated rules %v", where, r, evalRules)
			}
		}
		for _, r := range evalRules {
			in, out := slices.Contains(s.Expect, r), slices.Contains(s.Not, r)
			switch {
			case in && out:
				t.Errorf("%s: %s is both expected and not", where, r)
			case !in && !out:
				t.Errorf("%s: %s is neither in expect nor in not: label every rule", where, r)
			}
		}
		if hasDup(s.Expect) || hasDup(s.Not) {
			t.Errorf("%s: a rule is listed twice", where)
		}
		sentences = append(sentences, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return products, sentences
}

func hasDup(xs []string) bool {
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			return true
		}
		seen[x] = true
	}
	return false
}

// TestEvalSetFormat holds the set to what the issue asks of it: big enough,
// every rule with positives and negatives, new-claim both due and not due.
func TestEvalSetFormat(t *testing.T) {
	for _, set := range evalSets {
		t.Run(set.name, func(t *testing.T) { testEvalSetFormat(t, set.name, set.minSentences, set.minPerRule) })
	}
}

func testEvalSetFormat(t *testing.T, set string, minSentences, minPerRule int) {
	products, sentences := loadEvalSet(t, set)
	if len(sentences) < minSentences {
		t.Errorf("%d sentences, want at least %d", len(sentences), minSentences)
	}
	pos, neg := map[string]int{}, map[string]int{}
	for _, s := range sentences {
		for _, r := range s.Expect {
			pos[r]++
		}
		for _, r := range s.Not {
			neg[r]++
		}
	}
	for _, r := range evalRules {
		if pos[r] < minPerRule || neg[r] < minPerRule {
			t.Errorf("%s: %d positives and %d negatives, want at least %d of each", r, pos[r], neg[r], minPerRule)
		}
	}
	// new-claim must be exercised on both sides of the six-month line.
	var due, notDue int
	for _, s := range sentences {
		p := products[s.Product]
		if p == nil || s.asOf.IsZero() || p.LaunchDate.IsZero() {
			continue
		}
		if s.asOf.After(p.LaunchDate.AddDate(0, 6, 0)) {
			due++
		} else {
			notDue++
		}
	}
	if due == 0 || notDue == 0 {
		t.Errorf("sentences past six months after launch: %d, within six months: %d; want both", due, notDue)
	}
}

type evalCount struct{ tp, fp, fn, pos, neg int }

func (c evalCount) precision() (float64, bool) {
	if c.tp+c.fp == 0 {
		return 0, false
	}
	return float64(c.tp) / float64(c.tp+c.fp), true
}

func (c evalCount) recall() (float64, bool) {
	if c.tp+c.fn == 0 {
		return 0, false
	}
	return float64(c.tp) / float64(c.tp+c.fn), true
}

// TestEval runs the built-in rules over every sentence of the evaluation set
// with its context and reports precision and recall per rule.
func TestEval(t *testing.T) {
	for _, set := range evalSets {
		t.Run(set.name, func(t *testing.T) { testEval(t, set.name, set.enforced) })
	}
}

func testEval(t *testing.T, set string, enforced bool) {
	products, sentences := loadEvalSet(t, set)
	if t.Failed() {
		t.FailNow()
	}
	engine, err := compliance.Compile(compliance.Config{})
	if err != nil {
		t.Fatal(err)
	}

	counts := map[string]*evalCount{}
	missed, falsePos := map[string][]string{}, map[string][]string{} // rule → sentence ids
	for _, r := range evalRules {
		counts[r] = &evalCount{}
	}
	for _, s := range sentences {
		got := map[string]bool{}
		for _, f := range engine.Check(compliance.Document{Text: s.Text}, compliance.Context{
			Product:   products[s.Product],
			AssetType: s.AssetType,
			Audience:  s.Audience,
			Channel:   s.Channel,
			AsOf:      s.asOf,
		}) {
			got[f.Rule] = true
		}
		for _, r := range s.Expect {
			c := counts[r]
			c.pos++
			if got[r] {
				c.tp++
			} else {
				c.fn++
				missed[r] = append(missed[r], s.ID)
			}
		}
		for _, r := range s.Not {
			c := counts[r]
			c.neg++
			if got[r] {
				c.fp++
				falsePos[r] = append(falsePos[r], s.ID)
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "evaluation set %s: %d sentences, %d products\n", set, len(sentences), len(products))
	fmt.Fprintf(&b, "%-17s %5s %5s %5s %5s %5s %10s %7s\n", "rule", "pos", "neg", "TP", "FP", "FN", "precision", "recall")
	for _, r := range evalRules {
		c := counts[r]
		fmt.Fprintf(&b, "%-17s %5d %5d %5d %5d %5d %10s %7s\n", r, c.pos, c.neg, c.tp, c.fp, c.fn, ratio(c.precision()), ratio(c.recall()))
	}
	t.Log("\n" + b.String())
	if testing.Verbose() {
		for _, r := range evalRules {
			if len(missed[r]) > 0 {
				t.Logf("%s missed (FN): %s", r, strings.Join(missed[r], " "))
			}
			if len(falsePos[r]) > 0 {
				t.Logf("%s wrongly found (FP): %s", r, strings.Join(falsePos[r], " "))
			}
		}
	}

	if !enforced {
		t.Logf("targets (precision and recall ≥ %.2f per rule) are reported, not enforced, on the held-out set", evalTarget)
		return
	}
	if !evalStrict() {
		t.Logf("targets (precision and recall ≥ %.2f per rule) not enforced: set FAIRBALANCE_EVAL_STRICT=1", evalTarget)
		return
	}
	for _, r := range evalRules {
		c := counts[r]
		if p, ok := c.precision(); !ok || p < evalTarget {
			t.Errorf("%s: precision %s, want ≥ %.2f", r, ratio(p, ok), evalTarget)
		}
		if rc, ok := c.recall(); !ok || rc < evalTarget {
			t.Errorf("%s: recall %s, want ≥ %.2f", r, ratio(rc, ok), evalTarget)
		}
	}
}

func ratio(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", v)
}
