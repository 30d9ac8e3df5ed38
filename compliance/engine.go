package compliance

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/coregx/ahocorasick"
)

// pkind is what a phrase of the automaton stands for.
type pkind uint8

const (
	pkSuper pkind = iota + 1
	pkNoOther
	pkOnly
	pkComp
	pkThan
	pkUnsub
	pkOffLabel
	pkNew
	pkISIHead
	pkPI
	pkOrg
	pkCondition
	pkAge
	// pkCue phrases mark what a sentence is (a warning, a disclosure, an
	// indication, a convenience comparison); idx holds the mark.
	pkCue
)

type patEntry struct {
	kind pkind
	// suffix entries match the end of a word, not a whole one; anywhere
	// entries match inside words too (cue stems such as "convenien").
	suffix   bool
	anywhere bool
	// idx is the organisation rule (pkOrg) or off-label group (pkOffLabel).
	idx     int
	inflect bool
}

type orgRule struct {
	Rule
	re *regexp.Regexp
}

// RuleError is why Compile refused a rule: the rule's code (empty when it
// has none), the field at fault ("code", "kind", "phrases", "pattern",
// "severity") and what is wrong, so a form can show it beside the field.
type RuleError struct {
	Code  string
	Field string
	Msg   string
}

func (e *RuleError) Error() string {
	if e.Code == "" {
		return "compliance: " + e.Msg
	}
	return fmt.Sprintf("compliance: rule %q: %s: %s", e.Code, e.Field, e.Msg)
}

// Engine is a compiled rule set. It is safe for concurrent use; compiling
// is the expensive part, so callers keep one per organisation rule set.
type Engine struct {
	cfg      Config
	ac       *ahocorasick.Automaton
	pats     []string
	entries  [][]patEntry
	patIndex map[string]int
	org      []orgRule
	groups   []offLabelGroup
	// groupIndex finds an off-label group by name (for covers).
	groupIndex map[string]int
	sev        map[string]Severity
	on         map[string]bool
}

// Compile checks cfg (valid severities, RE2 patterns, non-empty phrase
// lists) and builds its matchers. A bad rule is an error naming it.
func Compile(cfg Config) (*Engine, error) {
	e := &Engine{cfg: cfg, patIndex: map[string]int{}, sev: map[string]Severity{}, on: map[string]bool{}}
	for code, s := range cfg.Severities {
		if !IsBuiltin(code) {
			return nil, &RuleError{Code: code, Field: "code", Msg: "not a built-in rule"}
		}
		if !s.Valid() {
			return nil, &RuleError{Code: code, Field: "severity", Msg: fmt.Sprintf("severity %q is not info, warning or critical", s)}
		}
	}
	for _, code := range builtinOrder {
		e.on[code] = !cfg.Disabled[code]
		e.sev[code] = builtinTexts[code].severity
		if s, ok := cfg.Severities[code]; ok {
			e.sev[code] = s
		}
	}
	claims := e.on[RuleSuperlative] || e.on[RuleComparative] || e.on[RuleUnsubstantiated] || e.on[RuleFairBalance]
	if claims {
		for _, p := range superlativePhrases {
			e.add(p, patEntry{kind: pkSuper})
		}
		e.add("no other", patEntry{kind: pkNoOther})
		e.add("only", patEntry{kind: pkOnly})
		for _, p := range comparativePhrases {
			e.add(p, patEntry{kind: pkComp})
		}
		e.add("than", patEntry{kind: pkThan})
		for _, p := range unsubstantiatedPhrases {
			e.add(p, patEntry{kind: pkUnsub})
		}
	}
	for _, c := range []struct {
		list [][]byte
		mark uint16
	}{{safetyPhrases, cueSafety}, {adverseCues, cueAdverse}, {indicationCues, cueNoClaim}, {unknownCues, cueNoClaim},
		{convenienceCues, cueConvenience}, {notResultCues, cueNotResult}, {[][]byte{[]byte("risk")}, cueRisk}} {
		for _, p := range c.list {
			e.add(string(p), patEntry{kind: pkCue, idx: int(c.mark), anywhere: true})
		}
	}
	e.add("important safety information", patEntry{kind: pkISIHead})
	e.add("prescribing information", patEntry{kind: pkPI})
	if e.on[RuleOffLabel] {
		e.groupIndex = map[string]int{}
		for gi, g := range offLabelVocabulary {
			ng := offLabelGroup{name: g.name, covers: g.covers, requires: g.requires, allow: g.allow}
			for _, sy := range g.symptoms {
				ng.symptoms = append(ng.symptoms, normPhrase(sy))
			}
			for _, t := range g.terms {
				nt := normPhrase(t)
				ng.terms = append(ng.terms, nt)
				e.add(nt, patEntry{kind: pkOffLabel, idx: gi})
			}
			e.groups = append(e.groups, ng)
			e.groupIndex[g.name] = gi
		}
	}
	if e.on[RuleOffLabel] {
		for w := range conditionWords {
			e.add(w, patEntry{kind: pkCondition})
		}
		for _, suf := range conditionSuffixes {
			e.add(suf, patEntry{kind: pkCondition, suffix: true})
		}
		for _, p := range []string{"under", "younger than", "aged", "ages", "of age", "and older", "years old", "months old", "year old", "month old"} {
			e.add(p, patEntry{kind: pkAge})
		}
	}
	if e.on[RuleNewClaim] {
		for _, p := range []string{"new", "newly approved", "newly available", "brand new", "all new"} {
			e.add(p, patEntry{kind: pkNew})
		}
	}
	seen := map[string]bool{}
	for i, r := range cfg.Rules {
		if r.Code == "" {
			return nil, &RuleError{Field: "code", Msg: fmt.Sprintf("organisation rule %d has no code", i+1)}
		}
		if IsBuiltin(r.Code) {
			return nil, &RuleError{Code: r.Code, Field: "code", Msg: "the code belongs to a built-in rule"}
		}
		if seen[r.Code] {
			return nil, &RuleError{Code: r.Code, Field: "code", Msg: "the code appears twice"}
		}
		seen[r.Code] = true
		if !r.Severity.Valid() {
			return nil, &RuleError{Code: r.Code, Field: "severity", Msg: fmt.Sprintf("severity %q is not info, warning or critical", r.Severity)}
		}
		or := orgRule{Rule: r}
		switch r.Kind {
		case "phrases":
			n := 0
			for _, p := range r.Phrases {
				np := normPhrase(p)
				if np == "" {
					continue
				}
				n++
				e.addOrgPhrase(np, len(e.org))
			}
			if n == 0 {
				return nil, &RuleError{Code: r.Code, Field: "phrases", Msg: "the phrase list is empty"}
			}
		case "regex":
			if strings.TrimSpace(r.Pattern) == "" {
				return nil, &RuleError{Code: r.Code, Field: "pattern", Msg: "the pattern is empty"}
			}
			re, err := regexp.Compile(r.Pattern)
			if err != nil {
				return nil, &RuleError{Code: r.Code, Field: "pattern", Msg: "not a valid regular expression: " + err.Error()}
			}
			or.re = re
		default:
			return nil, &RuleError{Code: r.Code, Field: "kind", Msg: fmt.Sprintf("kind %q is not phrases or regex", r.Kind)}
		}
		e.org = append(e.org, or)
	}
	if len(e.pats) > 0 {
		ac, err := ahocorasick.NewBuilder().AddStrings(e.pats).Build()
		if err != nil {
			return nil, fmt.Errorf("compliance: building the phrase automaton: %w", err)
		}
		e.ac = ac
	}
	return e, nil
}

// add registers a phrase (normalised here) for an entry; phrases shared by
// several rules are one pattern of the automaton.
func (e *Engine) add(p string, en patEntry) {
	np := normPhrase(p)
	if np == "" {
		return
	}
	id, ok := e.patIndex[np]
	if !ok {
		id = len(e.pats)
		e.pats = append(e.pats, np)
		e.entries = append(e.entries, nil)
		e.patIndex[np] = id
	}
	for _, x := range e.entries[id] {
		if x == en {
			return
		}
	}
	e.entries[id] = append(e.entries[id], en)
}

// addOrgPhrase adds an organisation phrase with its inflections: plural
// and verb endings are accepted after any phrase ending in a letter, and the
// spellings that change the stem ("cure" → "curing", "remedy" →
// "remedies") are added as phrases of their own.
func (e *Engine) addOrgPhrase(np string, idx int) {
	last := np[len(np)-1]
	letter := last >= 'a' && last <= 'z'
	e.add(np, patEntry{kind: pkOrg, idx: idx, inflect: letter})
	if !letter || len(np) < 3 {
		return
	}
	stem := np[:len(np)-1]
	switch {
	case last == 'e' && np[len(np)-2] != 'e':
		e.add(stem+"ing", patEntry{kind: pkOrg, idx: idx})
	case last == 'y' && !strings.ContainsRune("aeiou", rune(np[len(np)-2])):
		e.add(stem+"ies", patEntry{kind: pkOrg, idx: idx})
		e.add(stem+"ied", patEntry{kind: pkOrg, idx: idx})
	}
}

// inflections are the endings accepted after an inflecting phrase.
var inflections = []string{"'s", "s", "es", "ed", "d", "ing"}

// Check runs every enabled rule over doc in one pass for the phrase rules
// and returns the findings ordered by Start, then Rule. Offsets are inside
// doc.Text and on code-point boundaries.
func (e *Engine) Check(doc Document, ctx Context) []Finding {
	if doc.Text == "" {
		return nil
	}
	st := newCheck(e, doc, ctx)
	st.run()
	out := st.finish()
	st.n.orig = ""
	normPool.Put(st.n)
	if st.ms != nil {
		ms := st.ms[:0]
		matchPool.Put(&ms)
	}
	return out
}

// scoped reports whether an organisation rule applies in ctx: every
// non-empty scope list must name the context's value; an unknown value
// (empty) lets the rule apply.
func scoped(s Scope, ctx Context) bool {
	in := func(list []string, v string) bool {
		if len(list) == 0 || v == "" {
			return true
		}
		for _, x := range list {
			if strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(v)) {
				return true
			}
		}
		return false
	}
	return in(s.AssetTypes, ctx.AssetType) && in(s.Audiences, ctx.Audience) && in(s.Channels, ctx.Channel) && in(s.Markets, ctx.Market)
}

// byteToRune converts a byte offset of the original to code points.
func (n *normText) byteToRune(b int) int {
	return sort.Search(len(n.runeByte), func(i int) bool { return int(n.runeByte[i]) >= b })
}

// indexWord returns the positions in b of phrase p standing as a word
// (possessive allowed after it).
func indexWord(b []byte, p []byte) []int {
	var out []int
	if len(p) == 0 {
		return nil
	}
	for off := 0; off < len(b); {
		i := bytes.Index(b[off:], p)
		if i < 0 {
			break
		}
		s := off + i
		en := s + len(p)
		if !(wordAt(p, 0) && wordBefore(b, s)) && !(wordBefore(p, len(p)) && wordAt(b, en)) {
			out = append(out, s)
		}
		off = s + 1
	}
	return out
}
