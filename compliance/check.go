package compliance

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// tok is a word of the normalised text.
type tok struct{ s, e int }

// check is the state of one Check call.
type check struct {
	e    *Engine
	doc  Document
	ctx  Context
	n    *normText
	b    []byte
	sent []int32

	out []Finding

	// isi are the Important Safety Information sections of the normalised
	// text: from their heading (or the product's ISI text) to the end of
	// the page, sorted and disjoint.
	isi     [][2]int
	isiSeen bool
	piSeen  bool
	// isiRunes are the ISI modules' spans; subst the spans whose statements
	// are substantiated (linked claims, claim modules, known markers).
	isiRunes []Span
	subst    []Span
	markers  []Span
	skip     []Span
	// firstClaim is the first efficacy statement outside the ISI, -1 if
	// none (fair balance).
	firstClaim, firstClaimEnd int

	// brandWord and estWord are the first words of the product's brand
	// and established names, normalised.
	brandWord   string
	estWord     string
	newApplies  bool
	offApplies  bool
	indications []byte
	groupOK     map[int]bool
	indWords    map[string]bool

	// unsubSent, sentFlags, cues and compSent are per sentence, by its
	// index in sent: slices, not maps, as they are read for every match.
	unsubSent []uint8
	// sentFlags caches what a sentence is (computed, value) per sentence
	// start, so a long sentence with many triggers is read once per
	// question.
	sentFlags [][2]uint16
	lastSent  [3]int
	// cues are the cue marks found in each sentence (by its start).
	cues     []uint16
	compSent []bool
	orgOn    []bool
	// ms is the match buffer, returned to matchPool when the check ends.
	ms []matchAt
	// arena holds the words looked up around the current match.
	arena []tok
}

func newCheck(e *Engine, doc Document, ctx Context) *check {
	if ctx.AsOf.IsZero() {
		// An unknown date means today, as check_text's as_of does.
		ctx.AsOf = time.Now().UTC().Truncate(24 * time.Hour)
	}
	n := normalizeInto(normPool.Get().(*normText), doc.Text, true)
	st := &check{e: e, doc: doc, ctx: ctx, n: n, b: n.b, firstClaim: -1}
	st.sent = sentences(n)
	ns := max(len(st.sent), 1)
	st.unsubSent, st.sentFlags, st.compSent, st.cues = make([]uint8, ns), make([][2]uint16, ns), make([]bool, ns), make([]uint16, ns)
	p := ctx.Product
	if p != nil {
		bw := normalize(p.BrandName, false).b
		if i := bytes.IndexByte(bw, ' '); i > 0 {
			bw = bw[:i]
		}
		st.brandWord = string(bw)
		ew := normalize(p.EstablishedName, false).b
		if i := bytes.IndexByte(ew, ' '); i > 0 {
			ew = ew[:i]
		}
		st.estWord = string(ew)
	}
	if p != nil && !p.LaunchDate.IsZero() && e.on[RuleNewClaim] {
		st.newApplies = ctx.AsOf.After(p.LaunchDate.AddDate(0, 6, 0))
	}
	if p != nil && strings.TrimSpace(p.Indications) != "" && e.on[RuleOffLabel] {
		st.offApplies = true
		st.indications = positiveIndications(normalize(p.Indications, false).b)
		st.groupOK = map[int]bool{}
	}
	for _, m := range doc.Modules {
		if m.ISI {
			st.isiRunes = append(st.isiRunes, m.Span)
		}
		if m.Kind == "claim" && !m.Expired {
			st.subst = append(st.subst, m.Span)
		}
	}
	st.subst = append(st.subst, ctx.LinkedClaims...)
	st.markers = doc.ReferenceMarkers
	st.orgOn = make([]bool, len(e.org))
	for i, r := range e.org {
		st.orgOn[i] = !e.cfg.Disabled[r.Code] && scoped(r.Scope, ctx)
	}
	st.skip = headersFooters(doc, n)
	return st
}

// run matches every phrase rule in one pass of the automaton, then runs
// the document-level rules.
func (st *check) run() {
	b := st.b
	var ms []matchAt
	if st.e.ac != nil {
		raw := st.e.ac.FindAllOverlapping(b)
		// The judged matches reuse the buffer of an earlier check.
		if bp, _ := matchPool.Get().(*[]matchAt); bp != nil && cap(*bp) >= len(raw) {
			ms = (*bp)[:0]
		} else {
			ms = make([]matchAt, 0, len(raw))
		}
		for _, m := range raw {
			s, en, ok := st.bounded(m.Start, m.End, m.PatternID)
			if !ok {
				continue
			}
			ms = append(ms, matchAt{s, en, m.PatternID})
		}
		st.ms = ms
	}
	// Longest first at each position, so "superior to" wins over
	// "superior" when a rule reports once per sentence.
	// The automaton reports matches by their end; phrases are short, so an
	// insertion sort by start moves each only a few places.
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for j > 0 && (ms[j-1].s > m.s || ms[j-1].s == m.s && ms[j-1].e < m.e) {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = m
	}
	// The ISI section is found first: statements inside it are the
	// safety information, not promotion.
	if p := st.ctx.Product; p != nil && strings.TrimSpace(p.ISIText) != "" {
		isi := normalize(p.ISIText, false).b
		if len(isi) > 60 {
			isi = isi[:60]
		}
		for off := 0; off < len(b); {
			i := indexOf(b[off:], isi)
			if i < 0 {
				break
			}
			st.isiSeen = true
			st.addISI(off + i)
			off += i + len(isi)
		}
	}
	if len(st.isiRunes) > 0 {
		st.isiSeen = true
	}
	for _, m := range ms {
		for _, en := range st.e.entries[m.id] {
			switch en.kind {
			case pkISIHead:
				st.isiSeen = true
				if st.isHeading(m.s) {
					st.addISI(m.s)
				}
			case pkPI:
				st.piSeen = true
			}
		}
	}
	sort.Slice(st.isi, func(i, j int) bool { return st.isi[i][0] < st.isi[j][0] })
	merged := st.isi[:0]
	for _, r := range st.isi {
		if k := len(merged) - 1; k >= 0 && r[0] <= merged[k][1] {
			merged[k][1] = max(merged[k][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	st.isi = merged
	// What each sentence is, from its cue phrases.
	for _, m := range ms {
		for _, en := range st.e.entries[m.id] {
			if en.kind == pkCue {
				k, _, _ := st.sentenceOf(m.s)
				st.cues[k] |= uint16(en.idx)
			}
		}
	}
	sk := 0
	st.arena = make([]tok, 0, 256)
	for _, m := range ms {
		st.arena = st.arena[:0]
		// Headers and footers, walked in step with the sorted matches.
		if len(st.skip) > 0 {
			r := int(st.n.src[m.s])
			for sk < len(st.skip) && st.skip[sk].End <= r {
				sk++
			}
			if sk < len(st.skip) && st.skip[sk].Start <= r {
				continue
			}
		}
		for _, en := range st.e.entries[m.id] {
			switch en.kind {
			case pkOrg:
				if st.orgOn[en.idx] {
					r := st.e.org[en.idx]
					st.addNorm(r.Code, r.Version, r.Severity, m.s, m.e, orgMessage(r.Rule), r.Guidance)
				}
			case pkSuper:
				st.superlative(m, st.e.pats[m.id])
			case pkNoOther:
				st.noOther(m)
			case pkOnly:
				st.onlyBrand(m)
			case pkComp:
				st.comparative(m, m.s, st.e.pats[m.id])
			case pkThan:
				st.than(m)
			case pkUnsub:
				st.unsubstantiated(m, st.e.pats[m.id])
			case pkOffLabel:
				st.offLabel(m, en.idx)
			case pkNew:
				st.newClaim(m)
			case pkCondition:
				st.conditionPhrase(m, en.suffix)
			case pkAge:
				st.agePhrase(m, st.e.pats[m.id])
			}
		}
	}
	st.regexRules()
	st.documentRules()
}

type matchAt struct {
	s, e, id int
}

// matchPool keeps match buffers between checks: a megabyte of text has
// tens of thousands of matches.
var matchPool sync.Pool

// bounded applies word boundaries (and inflection endings) to a raw
// automaton match.
func (st *check) bounded(s, e, id int) (int, int, bool) {
	b := st.b
	p := st.e.pats[id]
	suffix, anywhere := true, true
	for _, en := range st.e.entries[id] {
		if !en.suffix && !en.anywhere {
			suffix = false
		}
		if !en.anywhere {
			anywhere = false
		}
	}
	if anywhere {
		return s, e, true
	}
	if !suffix && wordAt([]byte(p[:1]), 0) && wordBefore(b, s) {
		return 0, 0, false
	}
	last := p[len(p)-1]
	if isWordByte(last) && wordAt(b, e) {
		inflect := false
		for _, en := range st.e.entries[id] {
			if en.inflect {
				inflect = true
			}
		}
		if !inflect {
			return 0, 0, false
		}
		for _, suf := range inflections {
			if e+len(suf) <= len(b) && string(b[e:e+len(suf)]) == suf && !wordAt(b, e+len(suf)) {
				return s, e + len(suf), true
			}
		}
		return 0, 0, false
	}
	return s, e, true
}

func orgMessage(r Rule) string {
	if strings.TrimSpace(r.Message) != "" {
		return r.Message
	}
	return fmt.Sprintf("Matches the organisation rule %q.", r.Code)
}

// addNorm records a finding over normalised bytes [s, e).
func (st *check) addNorm(rule string, version int, sev Severity, s, e int, msg, guidance string) {
	rs, re := st.n.span(s, e)
	st.addRunes(rule, version, sev, rs, re, msg, guidance)
}

func (st *check) addRunes(rule string, version int, sev Severity, rs, re int, msg, guidance string) {
	total := st.n.runes()
	if rs < 0 {
		rs = 0
	}
	if re > total {
		re = total
	}
	if rs >= re {
		return
	}
	st.out = append(st.out, Finding{Rule: rule, RuleVersion: version, Severity: sev, Start: rs, End: re, Message: msg, Guidance: guidance})
}

// builtin records a finding of a built-in rule with its texts.
func (st *check) builtin(rule string, s, e int, msg string) {
	if !st.e.on[rule] {
		return
	}
	t := builtinTexts[rule]
	if msg == "" {
		msg = t.message
	}
	st.addNorm(rule, builtinVersion, st.e.sev[rule], s, e, msg, t.guidance)
}

func (st *check) builtinRunes(rule string, rs, re int, msg, guidance string) {
	if !st.e.on[rule] {
		return
	}
	t := builtinTexts[rule]
	if msg == "" {
		msg = t.message
	}
	if guidance == "" {
		guidance = t.guidance
	}
	st.addRunes(rule, builtinVersion, st.e.sev[rule], rs, re, msg, guidance)
}

// finish fills the quotes, drops repeats of a rule over the same words and
// orders the findings.
func (st *check) finish() []Finding {
	if len(st.out) == 0 {
		return nil
	}
	slices.SortFunc(st.out, func(a, b Finding) int {
		if c := strings.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	kept := st.out[:0]
	lastRule, lastEnd := "", -1
	for _, f := range st.out {
		if f.Rule == lastRule && f.Start < lastEnd {
			continue
		}
		lastRule, lastEnd = f.Rule, f.End
		kept = append(kept, f)
	}
	for i := range kept {
		kept[i].Quote = st.doc.Text[st.n.runeByte[kept[i].Start]:st.n.runeByte[kept[i].End]]
	}
	// After the overlap pass a rule has one finding per start, so start
	// and rule order them totally and an unstable sort is deterministic.
	slices.SortFunc(kept, func(a, b Finding) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return strings.Compare(a.Rule, b.Rule)
	})
	return kept
}

// ---- context helpers ----

func (st *check) sentenceOf(p int) (int, int, int) {
	// Matches come in text order: the last sentence usually holds the
	// next one too.
	if c := st.lastSent; p >= c[1] && p < c[2] {
		return c[0], c[1], c[2]
	}
	k, s, e := st.findSentence(p)
	st.lastSent = [3]int{k, s, e}
	return k, s, e
}

// sentK is the index of the sentence starting at ss; the sentence of the
// last match is remembered, so this is nearly always a comparison.
func (st *check) sentK(ss int) int {
	if st.lastSent[1] == ss && st.lastSent[2] > ss {
		return st.lastSent[0]
	}
	k, _, _ := st.findSentence(ss)
	return k
}

func (st *check) findSentence(p int) (int, int, int) {
	starts := st.sent
	k := sort.Search(len(starts), func(i int) bool { return int(starts[i]) > p }) - 1
	if k < 0 {
		k = 0
	}
	s := int(starts[k])
	e := len(st.b)
	if k+1 < len(starts) {
		e = int(starts[k+1])
	}
	return k, s, e
}

// before returns up to max words before p inside [lo, p), nearest first.
func (st *check) before(lo, p, max int) []tok {
	b := st.b
	out := st.room(max)
	i := p
	// Words are looked for nearby only: a bound on the distance keeps a
	// pathological text (a page of "%%%%") linear.
	lo = maxInt(lo, p-48*max-48)
	for len(out) < max {
		for i > lo && !isTokByte(b[i-1]) {
			c := b[i-1]
			if c == '.' || c == ';' || c == ':' || c == '!' || c == '?' || c == '(' || c == ')' {
				return st.keep(out)
			}
			i--
		}
		if i <= lo {
			break
		}
		j := i
		for j > lo && isTokByte(b[j-1]) {
			j--
		}
		out = append(out, tok{j, i})
		i = j
	}
	return st.keep(out)
}

// after returns up to max words from p inside [p, hi), nearest first; it
// stops at the end of a clause.
func (st *check) after(p, hi, max int) []tok {
	b := st.b
	out := st.room(max)
	i := p
	hi = minInt(hi, p+48*max+48)
	for len(out) < max {
		for i < hi && !isTokByte(b[i]) {
			c := b[i]
			if c == '.' && !(i+1 < hi && isWordByte(b[i+1])) || c == ';' || c == '!' || c == '?' || c == ':' {
				return st.keep(out)
			}
			i++
		}
		if i >= hi {
			break
		}
		j := i
		for j < hi && isTokByte(b[j]) {
			j++
		}
		out = append(out, tok{i, j})
		i = j
	}
	return st.keep(out)
}

// room returns an empty slice of the arena with space for max words;
// keep then claims what a lookup appended, so the next lookup for the same
// match does not write over it. A new arena leaves the old words where
// they are.
func (st *check) room(n int) []tok {
	if cap(st.arena)-len(st.arena) < n {
		st.arena = make([]tok, 0, max(256, 2*n))
	}
	base := len(st.arena)
	return st.arena[base:base]
}

func (st *check) keep(out []tok) []tok {
	st.arena = st.arena[:len(st.arena)+len(out)]
	return out
}

func (st *check) upperAt(j int) bool { return st.n.upperAt(j) }

func (st *check) w(t tok) string { return string(st.b[t.s:t.e]) }

func (st *check) is(ts []tok, i int, set map[string]bool) bool {
	return i < len(ts) && set[string(st.b[ts[i].s:ts[i].e])]
}

func (st *check) eq(ts []tok, i int, w string) bool {
	return i < len(ts) && string(st.b[ts[i].s:ts[i].e]) == w
}

func (st *check) anyIn(ts []tok, set map[string]bool) bool {
	for _, t := range ts {
		if set[string(st.b[t.s:t.e])] {
			return true
		}
	}
	return false
}

// addISI records a safety information section starting at s and running
// to the end of its page.
func (st *check) addISI(s int) {
	end := len(st.b)
	if len(st.doc.Pages) > 0 {
		r := int(st.n.src[s])
		for _, p := range st.doc.Pages {
			if r >= p.Start && r < p.End {
				end = sort.Search(len(st.n.src), func(i int) bool { return int(st.n.src[i]) >= p.End })
				break
			}
		}
	} else if k := sort.Search(len(st.n.pageBreaks), func(i int) bool { return int(st.n.pageBreaks[i]) > s }); k < len(st.n.pageBreaks) {
		end = int(st.n.pageBreaks[k])
	}
	if end > s {
		st.isi = append(st.isi, [2]int{s, end})
	}
}

// inISI reports whether normalised position p is in the safety
// information.
func (st *check) inISI(p int) bool {
	if k := sort.Search(len(st.isi), func(i int) bool { return st.isi[i][1] > p }); k < len(st.isi) && st.isi[k][0] <= p {
		return true
	}
	if len(st.isiRunes) == 0 {
		return false
	}
	r := int(st.n.src[p])
	for _, s := range st.isiRunes {
		if r >= s.Start && r < s.End {
			return true
		}
	}
	return false
}

// skipped reports whether normalised position p is in a running header or
// footer.
func (st *check) skipped(p int) bool {
	if len(st.skip) == 0 {
		return false
	}
	r := int(st.n.src[p])
	k := sort.Search(len(st.skip), func(i int) bool { return st.skip[i].End > r })
	return k < len(st.skip) && st.skip[k].Start <= r
}

// isHeading reports whether position p starts a line (a heading such as
// "IMPORTANT SAFETY INFORMATION") or is written in capitals.
func (st *check) isHeading(p int) bool {
	if p == 0 {
		return true
	}
	k := sort.Search(len(st.n.lines), func(i int) bool { return int(st.n.lines[i]) >= p-1 })
	if k < len(st.n.lines) && int(st.n.lines[k]) == p-1 {
		return true
	}
	k = sort.Search(len(st.n.paras), func(i int) bool { return int(st.n.paras[i]) >= p-1 })
	if k < len(st.n.paras) && int(st.n.paras[k]) == p-1 {
		return true
	}
	// In capitals and not "see IMPORTANT SAFETY INFORMATION below".
	o := st.n.runeByte[st.n.src[p]]
	if int(o)+9 <= len(st.doc.Text) && st.doc.Text[o:o+9] == "IMPORTANT" {
		prev := st.before(0, p, 2)
		return !st.is(prev, 0, isiPointers) && !st.is(prev, 1, isiPointers)
	}
	return false
}

var isiPointers = setOf("see", "read", "review", "refer", "including", "include", "includes", "our", "full", "and", "with", "the", "additional")

// The cue marks.
const (
	cueSafety uint16 = 1 << iota
	cueAdverse
	cueNoClaim
	cueConvenience
	cueNotResult
	cueRisk
)

const (
	sfMarker uint16 = 1 << iota
	sfAdverse
	sfRisk
	sfInstruction
	sfNoClaim
	sfSafety
	sfProduct
	sfConvenience
	sfNotResult
	sfMeasured
	sfRanking
	sfDosing
)

// sentence answers one question about the sentence [ss, se), once.
func (st *check) sentence(ss, se int, flag uint16) bool {
	k := st.sentK(ss)
	f := st.sentFlags[k]
	if f[0]&flag != 0 {
		return f[1]&flag != 0
	}
	sent := st.b[ss:se]
	var v bool
	switch flag {
	case sfMarker:
		v = hasMarker(st.b, ss, se)
		if !v {
			rs, re := st.n.span(ss, se)
			for _, m := range st.markers {
				if m.Start < re && m.End > rs {
					v = true
					break
				}
			}
		}
	case sfAdverse:
		v = st.cues[k]&cueAdverse != 0
	case sfRisk:
		v = bytes.Contains(sent, []byte("risk"))
	case sfInstruction:
		v = st.instruction(ss, se)
	case sfNoClaim:
		v = st.cues[k]&cueNoClaim != 0
	case sfSafety:
		v = st.safetySentence(ss, se)
	case sfProduct:
		v = st.brandWord != "" && (len(indexWord(sent, []byte(st.brandWord))) > 0 || st.estWord != "" && len(indexWord(sent, []byte(st.estWord))) > 0)
	case sfConvenience:
		v = st.cues[k]&cueConvenience != 0
	case sfNotResult:
		v = st.cues[k]&cueNotResult != 0
	case sfMeasured:
		v = st.measured(ss, se)
	case sfRanking:
		v = st.ranking(ss, se)
	case sfDosing:
		v = st.dosing(ss, se)
	}
	f[0] |= flag
	if v {
		f[1] |= flag
	}
	st.sentFlags[k] = f
	return v
}

// substantiated reports whether the sentence [s, e) or the statement
// [ms, me) carries a reference: a marker in the sentence, a known marker
// span, or a linked claim around the statement.
func (st *check) substantiated(s, e, ms, me int) bool {
	if st.sentence(s, e, sfMarker) {
		return true
	}
	if len(st.subst) == 0 {
		return false
	}
	mrs, mre := st.n.span(ms, me)
	for _, c := range st.subst {
		if mrs >= c.Start && mre <= c.End {
			return true
		}
	}
	return false
}

// instruction reports whether the sentence starting at s tells the reader
// what to do ("Rinse your mouth…", "Do not…"): its statements are not
// claims.
func (st *check) instruction(s, e int) bool {
	first := st.after(s, e, 2)
	if st.eq(first, 0, "please") {
		first = first[1:]
	}
	return st.is(first, 0, imperatives)
}

var imperatives = setOf("take", "use", "rinse", "tell", "do", "don't", "avoid", "keep", "store", "stop", "seek",
	"follow", "shake", "wash", "apply", "inhale", "check", "report", "remember", "never", "always", "dispose",
	"throw", "get", "call", "contact", "read", "eat", "drink", "manage")

var negations = setOf("not", "no", "never", "isn't", "aren't", "wasn't", "weren't", "cannot", "can't", "don't",
	"doesn't", "didn't", "won't", "nor", "neither", "without", "nothing")

var qualifiers = setOf("among", "amongst")

// qualified reports "one of the best", "among the most", "one of our
// most…".
func (st *check) qualified(prev []tok) bool {
	if st.is(prev, 0, qualifiers) || st.eq(prev, 0, "the") && st.is(prev, 1, qualifiers) {
		return true
	}
	for i := 0; i < 2 && i < len(prev); i++ {
		if st.eq(prev, i, "of") && (st.eq(prev, i+1, "one") || st.eq(prev, i+1, "some") || st.eq(prev, i+1, "few")) {
			return i == 0 || st.eq(prev, 0, "the") || st.eq(prev, 0, "our") || st.eq(prev, 0, "its")
		}
	}
	return false
}

// negated reports a negation right before the words: in the two words
// before them, or the third when the two are fillers ("cannot be
// guaranteed", "is not a cure", "isn't necessarily the best"). "No more
// nausea, guaranteed" is not negated.
func (st *check) negated(prev []tok, n int) bool {
	for i := 0; i < n && i < len(prev); i++ {
		if negations[string(st.b[prev[i].s:prev[i].e])] {
			return true
		}
		if i >= 1 && !negFillers[string(st.b[prev[i].s:prev[i].e])] {
			return false
		}
		if i == 0 && !negFillers[string(st.b[prev[0].s:prev[0].e])] && n > 2 {
			n = 2
		}
	}
	return false
}

var negFillers = setOf("a", "an", "the", "be", "been", "any", "always", "necessarily", "completely", "entirely", "really", "always", "miracle", "magic")

func isNumber(w string) bool {
	if w == "" {
		return false
	}
	if w[0] >= '0' && w[0] <= '9' {
		return true
	}
	return numberWords[w]
}

var numberWords = setOf("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "hundred", "hundreds", "thousand",
	"thousands", "million", "millions", "half", "twice", "double", "triple", "a", "an", "once", "dozens")

func itoa(i int) string { return strconv.Itoa(i) }

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// limitationCues mark a sentence of the indications that limits the use
// ("Limitations of use: not indicated for the preventive treatment"): its
// terms are excluded, not approved.
var limitationCues = [][]byte{[]byte("not indicated"), []byte("limitation of use"), []byte("limitations of use"),
	[]byte("not approved"), []byte("not for use"), []byte("not recommended"), []byte("has not been established"),
	[]byte("have not been established")}

// positiveIndications drops the sentences of the normalised indications
// that limit the use, so a use the label excludes is not taken as approved.
func positiveIndications(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		i := bytes.Index(b, []byte(". "))
		var sent []byte
		if i < 0 {
			sent, b = b, nil
		} else {
			sent, b = b[:i+2], b[i+2:]
		}
		if containsAny(sent, limitationCues) {
			continue
		}
		out = append(out, sent...)
	}
	return out
}
