package compliance

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

func indexOf(b, p []byte) int {
	if len(p) == 0 {
		return -1
	}
	return bytes.Index(b, p)
}

// noteClaim remembers the first efficacy statement outside the ISI, which
// the fair-balance rule anchors to.
func (st *check) noteClaim(s, e int) {
	if st.firstClaim < 0 || s < st.firstClaim {
		st.firstClaim, st.firstClaimEnd = s, e
	}
}

// Words after "best" that make it advice, not a claim ("best taken with
// food", "best regards"), and before it ("works best", "at best").
var (
	bestAdviceNext = setOf("practice", "practices", "taken", "when", "if", "to", "regards", "wishes", "supportive", "used", "before", "stored", "kept")
	bestAdvicePrev = setOf("at", "works", "work", "worked", "working", "your", "do", "did", "doing", "try", "feel", "feeling", "look", "all",
		"about", "discuss", "find", "choose", "decide", "determine", "know", "what's", "whats", "what", "which")
	persons     = setOf("you", "your", "them", "him", "her", "me", "us")
	comparators = setOf("with", "against", "versus", "vs", "to", "than", "over")
	// Medical terms that contain a superlative word.
	breakthroughTerms = setOf("pain", "bleeding", "seizures", "seizure", "infection", "infections", "cases", "symptoms", "episodes", "designation", "asthma", "disease", "nausea", "vomiting", "emesis", "cinv")
	listWords         = setOf("resolution", "step", "tip", "rule", "question", "reason", "item", "part", "chapter", "section", "day", "week", "phase", "lesson", "myth", "fact", "module", "video", "episode", "page", "slide", "figure", "table")
	everyNotClaims    = setOf("you", "your", "should", "must", "needs", "need", "who", "receiving", "taking")
	zeroCosts         = setOf("copay", "co", "cost", "costs", "dollars", "out", "fees", "fee")
	neverAbsolutes    = setOf("worry", "feel", "break", "lets", "let", "fail", "fails", "suffer", "experience", "miss", "lose", "have", "get", "need", "again", "wake", "worries")
	neverInstructions = setOf("share", "take", "use", "inject", "double", "stop", "give", "reuse", "freeze", "put", "leave", "skip", "drive", "apply", "store", "exceed", "change")
	causeWords        = setOf("cause", "causes", "killer", "reason")
	perfectAdvice     = setOf("time", "timing", "goal", "goals", "aim", "aims", "objective")
)

func (st *check) superlative(m matchAt, p string) {
	if st.inISI(m.s) {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	prev := st.before(ss, m.s, 4)
	next := st.after(m.e, se, 3)
	if st.qualified(prev) {
		return
	}
	if st.negated(prev, 3) && !strings.HasPrefix(p, "no ") && !strings.HasPrefix(p, "without") {
		return
	}
	if st.is(next, 0, causeWords) {
		return
	}
	switch p {
	case "best", "the best":
		q := prev
		if p == "best" && st.eq(q, 0, "the") {
			q = q[1:]
		}
		if st.is(next, 0, bestAdviceNext) || st.is(q, 0, bestAdvicePrev) || st.eq(q, 0, "for") && st.eq(next, 0, "results") ||
			st.eq(next, 0, "for") && st.is(next, 1, persons) {
			return
		}
	case "breakthrough", "breakthroughs":
		if st.is(next, 0, breakthroughTerms) || st.eq(next, 0, "therapy") && st.eq(next, 1, "designation") {
			return
		}
	case "perfect", "ultimate", "the ultimate":
		if st.is(next, 0, perfectAdvice) {
			return
		}
	case "gold standard":
		// Naming the comparator: "compared with the gold standard".
		if st.eq(prev, 0, "the") && st.is(prev, 1, comparators) || st.is(prev, 0, comparators) {
			return
		}
	case "100%", "100 percent", "100 per cent":
		if st.eq(next, 0, "off") || st.eq(prev, 0, "save") || st.eq(next, 0, "of") && st.eq(next, 1, "the") && st.eq(next, 2, "cost") {
			return
		}
	case "the only":
		if st.eq(next, 0, "way") || st.eq(next, 0, "one") && st.eq(next, 1, "who") {
			return
		}
	case "#1", "# 1", "no. 1", "number one", "number 1":
		if st.is(prev, 0, listWords) {
			return // "Resolution #1", "Step 1"
		}
	case "for good":
		// An absolute only at the end of a clause: "gone for good", not
		// "for good control".
		if len(next) > 0 && next[0].s == skipSpaces(st.b, m.e) {
			return
		}
	case "every patient", "every single patient", "every time":
		if st.is(next, 0, everyNotClaims) {
			return
		}
	case "zero":
		if len(next) == 0 || st.is(next, 0, zeroCosts) || isNumber(st.w(next[0])) {
			return
		}
	case "never":
		if !st.neverClaim(ss, se, next) {
			return
		}
	case "no risk", "no risks":
		if st.eq(next, 0, "factors") {
			return
		}
	case "leading":
		// "the leading CETP inhibitor", "the UK's leading OAB therapy"; not
		// "leading to", "a leading cause", "leading experts".
		if st.is(next, 0, leadingNotClaims) || !(st.eq(prev, 0, "the") || len(prev) > 0 && strings.HasSuffix(st.w(prev[0]), "'s")) {
			return
		}
	case "definitive":
		if !st.eq(prev, 0, "the") || st.is(next, 0, definitiveNotClaims) {
			return
		}
	case "nausea free", "vomiting free", "pain free", "itch free", "flare free", "attack free", "fracture free", "symptom free":
		// A trial endpoint ("pain-free at 2 hours", "one in three were
		// pain-free") in a referenced or numeric statement, not an absolute.
		if st.substantiated(ss, se, m.s, m.e) || st.numeric(ss, se) {
			return
		}
	}
	st.noteClaim(m.s, m.e)
	st.builtin(RuleSuperlative, m.s, m.e, "")
}

var (
	leadingNotClaims    = setOf("to", "cause", "causes", "role", "roles", "experts", "expert", "researchers", "authorities", "edge", "the", "a", "up", "into", "in")
	definitiveNotClaims = setOf("diagnosis", "study", "studies", "trial", "trials", "treatment", "surgery", "therapy")
)

// numeric reports whether the sentence [ss, se) states a number: a digit, a
// percentage or a rate in words ("one in three", "twice as many").
func (st *check) numeric(ss, se int) bool {
	for i := ss; i < se; i++ {
		if c := st.b[i]; c >= '0' && c <= '9' || c == '%' {
			return true
		}
	}
	return st.hasWord(ss, se, numericWords)
}

var numericWords = setOf("twice", "half", "third", "thirds", "quarter", "times", "double", "triple", "percent")

// onlyBrand finds "only <brand>": the product said to be the only one.
func (st *check) onlyBrand(m matchAt) {
	if st.brandWord == "" || st.inISI(m.s) {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	next := st.after(m.e, se, 1)
	if !st.eq(next, 0, st.brandWord) {
		return
	}
	prev := st.before(ss, m.s, 3)
	if st.negated(prev, 2) || st.eq(prev, 0, "if") {
		return
	}
	st.noteClaim(m.s, next[0].e)
	st.builtin(RuleSuperlative, m.s, next[0].e, "Exclusivity claim (\"only …\") with no qualification.")
}

var noOtherClaims = setOf("shown", "proven", "demonstrated", "approved", "offers", "offer", "provides", "provide",
	"delivers", "deliver", "works", "work", "matches", "match", "compares", "compare", "beats", "treatment",
	"therapy", "medicine", "medication", "product", "drug", "inhaler", "option", "injection", "biologic", "brand", "has", "does", "can", "is")

// neverClaim tells "you will never feel sick again" (an absolute) from
// "never share your pen" (an instruction).
func (st *check) neverClaim(ss, se int, next []tok) bool {
	if st.is(next, 0, neverInstructions) {
		return false
	}
	return st.is(next, 0, neverAbsolutes) || bytes.Contains(st.b[ss:se], []byte(" again"))
}

func skipSpaces(b []byte, i int) int {
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}

// noOther finds "no other … has been shown": an exclusivity claim, the
// only-ness said the other way round.
func (st *check) noOther(m matchAt) {
	if st.inISI(m.s) {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	if st.sentence(ss, se, sfInstruction) {
		return
	}
	prev := st.before(ss, m.s, 2)
	if st.is(prev, 0, setOf("take", "use", "taking", "using", "with", "and")) {
		return
	}
	next := st.after(m.e, se, 6)
	end := -1
	for _, t := range next {
		if noOtherClaims[st.w(t)] {
			end = t.e
		}
	}
	if end < 0 {
		return
	}
	st.noteClaim(m.s, end)
	st.builtin(RuleSuperlative, m.s, end, "Exclusivity claim (\"no other …\") with no qualification.")
	// "No other LAMA has been shown to improve lung function faster"
	// compares as well.
	k, _, _ := st.sentenceOf(m.s)
	after := st.after(m.e, se, 40)
	for i, t := range after {
		if i > 0 && st.eq(after, i-1, "to") {
			continue // "shown to lower LDL-C": a verb, not a comparison
		}
		if w := st.w(t); comparativeWord(w) || w == "further" || w == "more" {
			st.comparativeAt(k, ss, se, m.s, end, nil)
			break
		}
	}
}

var baselineWords = setOf("baseline", "pre", "prestudy", "pretreatment", "before", "prior", "previous", "previously", "last", "starting", "start", "enrollment", "enrolment", "entry", "screening")

// comparative handles the explicit comparative phrases.
func (st *check) comparative(m matchAt, s int, p string) {
	if st.inISI(m.s) {
		return
	}
	k, ss, se := st.sentenceOf(m.s)
	next := st.after(m.e, se, 6)
	switch p {
	case "vs":
		if m.e < len(st.b) && st.b[m.e] == '.' {
			return // "vs." is matched on its own
		}
	case "beats":
		if prev := st.before(ss, m.s, 1); st.eq(prev, 0, "heart") {
			return
		}
	case "compare":
		if !st.anyIn(next, setOf("with", "to", "vs", "versus", "against")) {
			return
		}
	case "superior":
		if st.eq(next, 0, "vena") || st.eq(next, 0, "to") {
			if st.eq(next, 0, "vena") {
				return
			}
		}
	case "compared with", "compared to":
		// "Zelvora was compared with placebo in two studies": the design
		// of a study, not a result.
		if prev := st.before(ss, m.s, 1); st.is(prev, 0, passives) {
			return
		}
	case "twice as", "times more", "times as":
		if st.sentence(ss, se, sfAdverse) || st.sentence(ss, se, sfRisk) {
			return // a safety statement of risk
		}
	}
	st.comparativeAt(k, ss, se, s, m.e, next)
}

func (st *check) comparativeAt(k, ss, se, s, e int, next []tok) {
	st.noteClaim(s, e)
	if st.compSent[k] {
		return
	}
	if st.sentence(ss, se, sfInstruction) {
		return
	}
	if st.anyIn(next[:min(4, len(next))], baselineWords) {
		return
	}
	// "the year before", "the year prior"
	for i := 0; i+1 < len(next) && i < 5; i++ {
		if st.w(next[i]) == "year" && (st.w(next[i+1]) == "before" || st.w(next[i+1]) == "prior") {
			return
		}
	}
	if st.substantiated(ss, se, s, e) {
		return
	}
	st.compSent[k] = true
	st.builtin(RuleComparative, s, e, "")
	// A comparison of results is a result itself; one of convenience
	// ("easier than daily injections") is not.
	if st.unsubSent[k] != 3 && st.unsubSent[k] != 2 && !st.sentence(ss, se, sfConvenience) && !st.sentence(ss, se, sfNoClaim) &&
		st.sentence(ss, se, sfMeasured) {
		st.unsubSent[k] = 3
		st.reportUnsub(ss, se, s, e)
	}
}

// measuredWords make a comparison a result: it names what changed or a
// quantity ("greater reductions", "fewer exacerbations", "twice as many").
// A bare ranking ("outperforms sumatriptan", "more effective than
// ezetimibe", "superior bladder control") compares without stating a
// measured outcome, and is the comparative rule's alone.
var measuredWords = setOf("reduce", "reduces", "reduced", "reducing", "reduction", "reductions", "lower", "lowers",
	"lowered", "lowering", "improve", "improves", "improved", "improving", "improvement", "increase", "increases",
	"increased", "increasing", "decrease", "decreased", "decreases", "fewer", "less", "greater", "higher", "gains",
	"gain", "relief", "relieved", "response", "responses", "protection", "prevent", "prevents", "preventing",
	"prevented", "cleared", "built", "week", "weeks", "month", "months", "halved", "half", "twice", "times", "third", "double", "doubled",
	"cut", "cuts", "change", "reached", "lowest", "swell", "hour", "hours", "caused", "percent", "mmhg")

// populationWords describe who was studied (sex, age, race, history), so a
// percentage they follow ("61% male", "42% of patients were 65 or older",
// "71% had a prior MI") is a baseline characteristic, not a result.
var populationWords = setOf("male", "males", "female", "females", "men", "women", "white", "black", "asian", "hispanic",
	"latino", "latina", "older", "younger", "aged", "age", "prior", "previous", "previously", "history", "baseline",
	"smokers", "smoker", "naive", "naïve", "enrolled", "randomized", "randomised", "diagnosed", "established")

// resultWordsNear end the look for a population description: "42% of
// patients were pain-free" states a result.
var resultWordsNear = setOf("free", "reduced", "reduction", "lowered", "improved", "improvement", "reached", "achieved",
	"responded", "response", "fewer", "less", "relief", "cleared", "remission", "goal")

// describesPopulation reports whether the words after a percentage ending at
// e describe the patients studied rather than what happened to them.
func (st *check) describesPopulation(e, se int) bool {
	next := st.after(e, se, 7)
	for i := range next {
		w := st.w(next[i])
		if resultWordsNear[w] {
			return false
		}
		if populationWords[w] {
			// "enrolled patients were older": the subject, then the trait.
			if w != "enrolled" && w != "randomized" && w != "randomised" {
				return true
			}
		}
		// "38% with diabetes": a condition the patients had.
		if i == 0 && w == "with" && len(next) > 1 && st.conditionWord(st.w(next[1])) {
			return true
		}
		if i == 0 && w == "had" {
			continue
		}
	}
	return false
}

// conditionWord reports whether w names a disease or symptom.
func (st *check) conditionWord(w string) bool {
	if conditionWords[w] {
		return true
	}
	if notConditions[w] {
		return false
	}
	for _, suf := range conditionSuffixes {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+2 {
			return true
		}
	}
	return false
}

// doseUnits and scheduleWords make a dosing instruction: "25 mg once daily,
// increasing to 50 mg after 4 to 8 weeks".
var (
	doseUnits     = setOf("mg", "mcg", "µg", "ug", "g", "ml", "units", "iu", "tablet", "tablets", "capsule", "capsules", "puff", "puffs", "drops", "injection")
	scheduleWords = setOf("daily", "once", "twice", "weekly", "nightly", "bedtime", "every", "titrate", "titrated", "titration",
		"dose", "doses", "dosing", "starting", "maximum", "increasing", "increase", "increased")
	// dosingResults keep a dosing sentence a claim: "50 mg once daily
	// reduced LDL-C by 40%".
	dosingResults = setOf("reduced", "reduces", "reduction", "lowered", "lowers", "improved", "improves", "improvement",
		"relief", "relieved", "fewer", "cleared", "controlled", "prevented", "protection", "effective", "proven", "shown")
)

// dosing reports whether the sentence [ss, se) is a dosing or titration
// instruction with no result in it.
func (st *check) dosing(ss, se int) bool {
	if bytes.IndexByte(st.b[ss:se], '%') >= 0 {
		return false
	}
	b := st.b
	dose, sched := false, false
	prevDigits := false
	for i := ss; i < se; {
		for i < se && !isTokByte(b[i]) {
			i++
		}
		j := i
		for j < se && isTokByte(b[j]) {
			j++
		}
		if j == i {
			break
		}
		w := b[i:j]
		if dosingResults[string(w)] {
			return false
		}
		if prevDigits && doseUnits[string(w)] {
			dose = true
		}
		if scheduleWords[string(w)] {
			sched = true
		}
		prevDigits = digitsOnly(bytes.Trim(w, ".,"))
		i = j
	}
	return dose && sched
}

// digitsOnly is isDigits on bytes, without a conversion.
func digitsOnly(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// topicNoun reports whether the word [s, e) is a noun naming a topic: after
// "in", "for" or "of" within three words, with no object after it.
func (st *check) topicNoun(ss, se, s, e int) bool {
	next := st.after(e, se, 1)
	j := skipSpaces(st.b, e)
	if len(next) > 0 && next[0].s == j && !st.is(next, 0, setOf("on", "with", "in", "for", "and", "or", "at")) {
		return false
	}
	prev := st.before(ss, s, 3)
	for i := range prev {
		if st.is(prev, i, setOf("in", "for", "of")) {
			return true
		}
	}
	return false
}

// rankingWords compare the product with another, or rank it above all
// ("unmatched LDL-C control", "a game-changer for bladder control").
var rankingWords = setOf("than", "vs", "versus", "superior", "compared", "outperforms", "outperformed", "outperform",
	"beats", "beat", "unlike", "against", "head", "unmatched", "unrivalled", "unrivaled", "unparalleled", "unsurpassed",
	"unbeatable", "changer", "gamechanger", "revolutionary", "breakthrough", "ultimate", "best", "leading", "definitive")

// ranking reports whether the sentence [ss, se) compares with another product.
// A quantity ("more than 12,000 adults", "fewer than 3%") is not one.
func (st *check) ranking(ss, se int) bool {
	b := st.b
	for i := ss; i < se; {
		for i < se && !isTokByte(b[i]) {
			i++
		}
		j := i
		for j < se && isTokByte(b[j]) {
			j++
		}
		if j > i && rankingWords[string(b[i:j])] {
			if string(b[i:j]) != "than" {
				return true
			}
			if next := st.after(j, se, 1); len(next) == 0 || !isNumber(strings.Trim(st.w(next[0]), ".,%")) {
				return true
			}
		}
		i = j
	}
	return false
}

// hasWord reports whether a word of the sentence [ss, se) is in set.
func (st *check) hasWord(ss, se int, set map[string]bool) bool {
	b := st.b
	for i := ss; i < se; {
		for i < se && !isTokByte(b[i]) {
			i++
		}
		j := i
		for j < se && isTokByte(b[j]) {
			j++
		}
		if j > i && set[string(b[i:j])] {
			return true
		}
		i = j
	}
	return false
}

// measured reports whether the sentence [ss, se) states a measured result.
func (st *check) measured(ss, se int) bool {
	if bytes.IndexByte(st.b[ss:se], '%') >= 0 {
		return true
	}
	return st.hasWord(ss, se, measuredWords)
}

var convenienceCues = [][]byte{[]byte("easier"), []byte("easy"), []byte("simpler"), []byte("simple"), []byte("convenien"),
	[]byte("prefer"), []byte("once a"), []byte("twice a"), []byte("a week"), []byte("a day"),
	[]byte("a year"), []byte("a month"), []byte("daily"), []byte("weekly"), []byte("monthly"), []byte("regimen"),
	[]byte("one capsule"), []byte("one injection"), []byte("one pill"), []byte("one tablet"), []byte("two pills"),
	[]byte("instead of"), []byte("alternative"), []byte("steroid free"), []byte("cosmetic"), []byte("acceptab"),
	[]byte("to start"), []byte("to give"), []byte("to use"), []byte("empty stomach"), []byte("without steroids")}

// Words ending in -er that are not comparatives.
var notComparatives = setOf("other", "rather", "whether", "either", "neither", "never", "under", "over", "after",
	"later", "older", "younger", "ever", "however", "together", "number", "order", "per", "water", "consumer",
	"provider", "prescriber", "partner", "inhaler", "member", "offer", "matter", "center", "centre", "cancer",
	"fever", "liver", "bladder", "disorder", "paper", "letter", "answer", "character", "manner", "chamber",
	"sooner", "further", "earlier", "otherwise", "differ", "different", "differently", "else", "anything",
	"nothing", "something", "anyone", "someone")

var (
	moreLess      = setOf("more", "less", "fewer", "lesser")
	quantityWords = setOf("more", "less", "fewer", "greater", "higher", "lower", "older", "younger", "over", "under", "longer", "shorter", "lesser")
	quantityNext  = setOf("just", "ever", "enough", "usual", "expected", "half", "once", "twice", "double", "triple", "a", "an")
	passives      = setOf("was", "were", "is", "are", "been", "being", "be")
)

// than finds "<comparative> than": "better than", "more effective than",
// "fewer exacerbations than". Quantities ("more than 50%", "less than 1 in
// 10") and ages ("older than 12") are not comparisons with a product.
func (st *check) than(m matchAt) {
	if st.inISI(m.s) {
		return
	}
	k, ss, se := st.sentenceOf(m.s)
	prev := st.before(ss, m.s, 7)
	if len(prev) == 0 {
		return
	}
	p0 := st.w(prev[0])
	if notComparatives[p0] {
		return
	}
	nx := st.after(m.e, se, 1)
	if moreLess[p0] && (len(nx) == 0 || isNumber(st.w(nx[0])) || st.is(nx, 0, quantityNext) || bytes.Contains(st.b[m.e:se], []byte(" alone"))) {
		return // "more than 12,000 adults", "less than half"
	}
	start := -1
	for i := 0; i < 7 && i < len(prev); i++ {
		w := string(st.b[prev[i].s:prev[i].e])
		if comparativeWord(w) || moreLess[w] {
			start = prev[i].s
			break
		}
	}
	if start < 0 {
		return
	}
	next := st.after(m.e, se, 6)
	if len(next) > 0 && isNumber(st.w(next[0])) && !st.eq(next, 0, "a") && !st.eq(next, 0, "an") && quantityWords[p0] {
		return
	}
	if st.eq(next, 0, "or") && st.eq(next, 1, "equal") || st.eq(next, 0, "recommended") || st.eq(next, 0, "prescribed") {
		return
	}
	st.comparativeAt(k, ss, se, start, m.e, next)
}

// comparativeWord reports adjectives and adverbs in the comparative form.
func comparativeWord(w string) bool {
	switch w {
	case "better", "worse", "superior", "inferior", "greater", "higher", "lower", "faster", "quicker", "stronger", "safer",
		"longer", "shorter", "easier", "gentler", "milder", "cheaper", "bigger", "smaller", "larger", "simpler":
		return true
	}
	if len(w) >= 5 && strings.HasSuffix(w, "er") && !notComparatives[w] {
		// -ier and doubled consonants: healthier, bigger; -er adjectives.
		return strings.HasSuffix(w, "ier") || len(w) >= 6 && w[len(w)-3] == w[len(w)-4]
	}
	return false
}

// Statements that are the label's own indication or the absence of data,
// not claims.
var (
	// adverseCues mark the label's adverse reaction rates ("headache
	// (12%)"): safety information, not a promotional claim.
	adverseCues = [][]byte{[]byte("most common"), []byte("were reported"), []byte("occurred in"), []byte("side effects include"), []byte("side effects were"), []byte("reactions include"), []byte("reactions were"), []byte("reactions ("),
		[]byte("was reported"), []byte("reported by"), []byte("reported in"), []byte("because of adverse"), []byte("due to adverse"),
		[]byte("because of side"), []byte("due to side"), []byte("discontinued because"), []byte("discontinued due"),
		[]byte("discontinued treatment"), []byte("stopped treatment because"), []byte("adverse reactions"), []byte("adverse reaction"),
		[]byte("adverse events"), []byte("adverse event")}
	indicationCues = [][]byte{[]byte("indicated"), []byte("is used to"), []byte("are used to"), []byte("approved for"), []byte("approved to"), []byte("approved as"),
		// Who the product is for, and who qualifies for it (eligibility,
		// coverage criteria): the label's population, not a result.
		[]byte("is for adults"), []byte("is for patients"), []byte("is for people"), []byte("are for adults"), []byte("is only for"),
		[]byte("who need"), []byte("who needs"), []byte("who require"), []byte("who requires"), []byte("criteria"), []byte("criterion"),
		[]byte("eligible"), []byte("eligibility"), []byte("prior authorization"), []byte("prior authorisation"), []byte("step therapy"),
		// Qualified positioning: one choice among several.
		[]byte("one of several"), []byte("one of many"), []byte("one of the options"), []byte("an option"), []byte("another option"),
		[]byte("treatment option"), []byte("one option")}
	unknownCues   = [][]byte{[]byte("should not"), []byte("not be used"), []byte("not for"), []byte("not indicated"), []byte("not known"), []byte("not been established"), []byte("not established"), []byte("not been studied"), []byte("have not been"), []byte("has not been")}
	serviceHelp   = setOf("with", "pay", "save", "find", "understand", "learn", "get", "access", "afford", "start", "navigate", "enroll", "enrol", "sign", "apply", "decide", "know", "choose")
	serviceWords  = setOf("support", "hotline", "line", "helpline", "service", "services", "nurse", "nurses", "access", "help", "pharmacy", "assistance")
	helpSubjects  = setOf("doctor", "doctors", "pharmacist", "nurse", "provider", "team", "program", "programme", "coordinator", "specialist", "we", "card", "savings", "support", "resources", "resource", "guide", "tool", "app", "website", "counselor", "educator")
	riskWords     = setOf("risk", "risks", "chance", "chances", "likelihood", "levels", "level")
	lowerNouns    = setOf("medicine", "medicines", "medication", "medications", "drug", "drugs", "therapy", "therapies", "treatment", "treatments", "agent", "agents")
	offWords      = setOf("off", "discount", "savings", "copay", "co", "rebate")
	saveWords     = setOf("save", "saving", "savings", "discount", "off", "copay", "pay")
	effectiveNext = setOf("date", "immediately", "as", "on", "from", "until")
)

func containsAny(b []byte, cues [][]byte) bool {
	for _, c := range cues {
		if bytes.Contains(b, c) {
			return true
		}
	}
	return false
}

// unsubstantiated finds efficacy or safety statements with no reference.
func (st *check) unsubstantiated(m matchAt, p string) {
	if st.inISI(m.s) {
		return
	}
	b := st.b
	k, ss, se := st.sentenceOf(m.s)
	s, e := m.s, m.e
	prev := st.before(ss, s, 4)
	switch p {
	case "%":
		if s == 0 || b[s-1] < '0' || b[s-1] > '9' {
			return
		}
		for s > ss && (b[s-1] >= '0' && b[s-1] <= '9' || b[s-1] == '.' || b[s-1] == ',') {
			s--
		}
		prev = st.before(ss, s, 4)
		next := st.after(e, se, 2)
		if st.is(next, 0, offWords) || st.anyIn(prev, saveWords) || st.sentence(ss, se, sfAdverse) ||
			st.is(prev, 0, formulations) || st.sentence(ss, se, sfNotResult) || st.describesPopulation(e, se) {
			return // savings, strengths ("cream 0.1%"), coverage, baseline demographics
		}
	case "percent", "per cent":
		if len(prev) == 0 || !isNumber(st.w(prev[0])) || st.sentence(ss, se, sfAdverse) {
			return
		}
		s = prev[0].s
	case "out of", "in 2", "in 3", "in 4", "in 5", "in 10", "in 100", "in 1000", "in 1,000":
		// "7 out of 10 patients", "8 in 10": a rate.
		if len(prev) == 0 || !isNumber(st.w(prev[0])) || st.eq(prev, 0, "a") || st.eq(prev, 0, "an") || st.sentence(ss, se, sfAdverse) {
			return
		}
		if p == "out of" {
			next := st.after(e, se, 1)
			if len(next) == 0 || !isNumber(st.w(next[0])) {
				return
			}
			e = next[0].e
		}
		s = prev[0].s
	case "help", "helps", "can help", "may help":
		next := st.after(e, se, 2)
		if !st.is(next, 0, helpObjects) || st.anyIn(prev, helpSubjects) || st.eq(prev, 0, "to") ||
			st.is(next, 0, persons) && st.is(next, 1, serviceHelp) {
			return
		}
		e = next[0].e
	case "effective":
		next := st.after(e, se, 1)
		if st.eq(prev, 0, "cost") || st.is(next, 0, effectiveNext) || st.eq(prev, 0, "most") || st.eq(prev, 0, "more") {
			return // "the most effective ARB" is a superlative, not a result
		}
	case "reduced", "decreased", "increased", "improved":
		// An adjective of a condition: "with reduced ejection fraction";
		// "new and improved" is a slogan.
		if st.eq(prev, 0, "with") || st.eq(prev, 0, "of") || p == "improved" && st.eq(prev, 0, "and") && st.eq(prev, 1, "new") {
			return
		}
		if p == "increased" {
			next := st.after(e, se, 3)
			if st.anyIn(next, riskWords) {
				return
			}
		}
	case "no", "zero":
		next := st.after(e, se, 2)
		if !st.is(next, 0, symptomNouns) && !((st.eq(next, 0, "more") || len(next) > 1 && st.w(next[1]) == "side") && st.is(next, 1, symptomNouns)) {
			return
		}
		e = next[len(next)-1].e
		if st.is(next, 0, symptomNouns) {
			e = next[0].e
		}
	case "less":
		next := st.after(e, se, 1)
		if len(next) == 0 || st.is(next, 0, lessNotResults) || isNumber(st.w(next[0])) {
			return
		}
		e = next[0].e
	case "within":
		next := st.after(e, se, 2)
		if len(next) < 2 || !isNumber(st.w(next[0])) || !st.is(next, 1, timeUnits) {
			return
		}
		e = next[1].e
	case "up", "down":
		next := st.after(e, se, 2)
		if len(next) < 2 || !isDigits(strings.Trim(st.w(next[0]), ".,")) || !st.is(next, 1, resultUnits) {
			return
		}
		e = next[1].e
	case "work", "protect", "calm", "soothe", "ease":
		// The verb after a modal, or a purpose that is a claim ("a new way
		// to protect your bones").
		if !st.is(prev, 0, modals) && !(st.eq(prev, 0, "to") && st.is(prev, 1, purposeClaims)) {
			return
		}
	case "works":
		if st.eq(prev, 0, "it") && st.eq(prev, 1, "how") || st.eq(prev, 0, "how") {
			return
		}
	case "control", "controlled":
		next := st.after(e, se, 1)
		if st.is(next, 0, controlNotResults) || st.is(prev, 0, controlNotResults) {
			return
		}
	case "reached":
		next := st.after(e, se, 1)
		if st.eq(next, 0, "out") {
			return
		}
	case "increasing":
		next := st.after(e, se, 1)
		if st.is(next, 0, setOf("dose", "doses", "age")) {
			return
		}
	case "every patient", "every time":
		next := st.after(e, se, 1)
		if st.is(next, 0, everyNotClaims) {
			return
		}
	case "never":
		next := st.after(e, se, 1)
		if !st.neverClaim(ss, se, next) || st.eq(next, 0, "lets") || st.eq(next, 0, "let") || st.eq(next, 0, "fails") {
			return
		}
	case "24 hour", "all day", "around the clock":
		next := st.after(e, se, 1)
		if st.is(next, 0, serviceWords) || st.anyIn(prev, setOf("call", "available", "reach", "open", "staffed")) {
			return
		}
	case "increases":
		next := st.after(e, se, 3)
		if st.anyIn(next, riskWords) {
			return
		}
	case "lower":
		// The verb after a modal ("can lower"), not the adjective.
		if !st.is(prev, 0, modals) {
			return
		}
	case "lowers", "lowered", "lowering", "reducing":
		next := st.after(e, se, 1)
		if st.is(next, 0, lowerNouns) {
			return
		}
		// A topic, not a result: "a new chapter in LDL-C lowering", "strength
		// in cholesterol lowering" (the noun after "in", with no object).
		if (p == "lowering" || p == "reducing") && st.topicNoun(ss, se, s, e) {
			return
		}
	case "fewer":
		next := st.after(e, se, 3)
		if st.eq(next, 0, "than") {
			return
		}
	}
	// A statement of use, "<product> for the daily prevention of …", names
	// what the product is for (the off-label rule judges that), not a
	// result, unless the sentence measures one.
	if p == "prevention of" && (st.eq(prev, 0, "the") && st.eq(prev, 1, "for") || st.eq(prev, 1, "the") && st.eq(prev, 2, "for")) &&
		!st.sentence(ss, se, sfMeasured) && !st.numeric(ss, se) {
		return
	}
	if st.negated(prev, 3) || st.sentence(ss, se, sfAdverse) || st.sentence(ss, se, sfDosing) ||
		(p == "mg/dl" || p == "mmhg") && st.sentence(ss, se, sfNotResult) {
		return
	}
	// Purpose and instructions: "to help reduce the risk of thrush",
	// "used to reduce"; but "a new way to reduce" and "proven to" claim.
	if (st.eq(prev, 0, "to") && !st.is(prev, 1, purposeClaims)) || st.eq(prev, 0, "help") && st.eq(prev, 1, "to") {
		return
	}
	// Advice about something else, or an instruction in the trigger's own
	// words: "Cutting down on salt can help…", "Improve inhaler technique
	// at every visit", "Reduce waste: return used pens".
	if !st.sentence(ss, se, sfProduct) {
		if first := st.after(ss, se, 1); len(first) > 0 && (first[0].s == m.s && imperativeTriggers[st.w(first[0])] || strings.HasSuffix(st.w(first[0]), "ing")) {
			return
		}
	}
	// A ranking against another product with no measured result ("more
	// effective than ezetimibe", "better tolerated than antimuscarinics")
	// is the comparative rule's finding; its efficacy word is part of the
	// comparison, not a separate statement of a result.
	if st.sentence(ss, se, sfRanking) && !st.sentence(ss, se, sfMeasured) {
		return
	}
	// The sentence is judged once: 1 a claim to report, 2 not a claim
	// (indication, absence of data, instruction) or substantiated, 3
	// reported.
	state := st.unsubSent[k]
	if state == 0 {
		state = 1
		if st.sentence(ss, se, sfNoClaim) || st.sentence(ss, se, sfInstruction) {
			state = 2
		}
		st.unsubSent[k] = state
	}
	if state == 2 {
		return
	}
	st.noteClaim(s, e)
	if state == 3 {
		return
	}
	if st.substantiated(ss, se, s, e) {
		return
	}
	st.unsubSent[k] = 3
	st.reportUnsub(ss, se, s, e)
}

// reportUnsub records an unsubstantiated statement. The quote is the
// sentence when it is of a readable length, the words that make it a claim
// otherwise.
func (st *check) reportUnsub(ss, se, s, e int) {
	b := st.b
	qs, qe := ss, se
	for qs < qe && b[qs] == ' ' {
		qs++
	}
	for qe > qs && b[qe-1] == ' ' {
		qe--
	}
	rs, re := st.n.span(qs, qe)
	if re-rs > 300 || qs > s || qe < e {
		qs, qe = s, e
	}
	st.builtin(RuleUnsubstantiated, qs, qe, "")
}

// safetyCues mark a sentence about a population's safety or a warning,
// where naming the population is required, not promotion.
var safetyCues = setOf("not", "no", "never", "don't", "doesn't", "isn't", "aren't", "cannot", "can't", "shouldn't",
	"risk", "risks", "side", "adverse", "contraindicated", "warning", "warnings", "precautions", "precaution",
	"caution", "history", "tell", "talk", "allergic", "harm", "unborn", "unknown", "unclear",
	"avoid", "worsen", "worsening", "death", "deaths", "reach")

// safetyPhrases mark a sentence that warns about a population or a
// condition, or states a limitation of use: naming it there is required,
// not promotion.
var safetyPhrases = [][]byte{[]byte("not for"), []byte("not approved"), []byte("not indicated"), []byte("not known"),
	[]byte("not been"), []byte("not recommended"), []byte("not be used"), []byte("do not"), []byte("don't use"),
	[]byte("don't take"), []byte("should not"), []byte("must not"), []byte("cannot be"), []byte("not use"),
	[]byte("isn't approved"), []byte("aren't approved"), []byte("isn't for"), []byte("stop taking"), []byte("stop using"),
	[]byte("discontinue"), []byte("contraindicated"), []byte("tell your"),
	[]byte("become pregnant"), []byte("plan to"), []byte("reach of children"), []byte("may cause"), []byte("can cause"),
	[]byte("could cause"), []byte("side effect"), []byte("adverse"), []byte("warning"), []byte("precaution"),
	[]byte("caution"), []byte("harm"), []byte("unborn"), []byte("fetal"), []byte("fetus"), []byte("safety and effectiveness"),
	[]byte("must be"),
	[]byte("unknown"), []byte("not studied"), []byte("history of"), []byte("allergic to"), []byte("worsen"),
	[]byte("death"), []byte("have been reported"), []byte("has been reported"), []byte("were reported"), []byte("avoid")}

// safetySentence reports a sentence about a population's safety or a
// warning.
func (st *check) safetySentence(ss, se int) bool {
	sent := st.b[ss:se]
	k := st.sentK(ss)
	if st.cues[k]&cueSafety != 0 {
		return true
	}
	if st.cues[k]&cueRisk == 0 {
		return false
	}
	// "increased risk of pneumonia" warns; "reduced the risk of stroke"
	// claims a benefit.
	for off := 0; ; {
		i := bytes.Index(sent[off:], []byte("risk"))
		if i < 0 {
			return false
		}
		at := ss + off + i
		if !benefitBefore(st, st.before(ss, at, 3)) {
			return true
		}
		off += i + 4
	}
}

var (
	formulations      = setOf("cream", "ointment", "gel", "solution", "lotion", "foam", "suspension", "spray", "drops", "shampoo", "patch", "w", "v", "hydrocortisone")
	symptomNouns      = setOf("side", "vomiting", "nausea", "burning", "stinging", "itching", "itch", "pain", "hypoglycemia", "hypoglycaemia", "flares", "flare", "attacks", "attack", "fractures", "fracture", "cough", "swelling", "symptoms", "exacerbations", "rash", "weight", "compromise", "worries", "relapse", "relapses", "seizures", "migraines", "headaches")
	lessNotResults    = setOf("than", "likely", "often", "frequently", "frequent", "common", "commonly", "known", "time", "invasive", "expensive", "costly", "of", "and", "or")
	timeUnits         = setOf("days", "day", "weeks", "week", "hours", "hour", "minutes", "minute", "months", "month")
	resultUnits       = setOf("ml", "mg", "mmhg", "points", "point", "kg", "lbs", "pounds", "percent", "mmol", "units")
	purposeClaims     = setOf("way", "ways", "designed", "made", "able", "proven", "shown", "clinically", "formulated", "built", "works", "work", "helps")
	controlNotResults = setOf("group", "groups", "arm", "arms", "study", "studies", "trial", "trials", "birth", "infection", "quality", "disease", "pest", "portion", "impulse", "take", "taking", "poison")
	notResultCues     = [][]byte{[]byte("at baseline"), []byte("mean age"), []byte("baseline characteristics"), []byte("demographic"), []byte("formulary"), []byte("coverage"), []byte("covered"), []byte("commercial lives"), []byte("of plans"), []byte("insurance"), []byte("payer")}
)

var modals = setOf("can", "may", "will", "could", "might", "helps", "help", "significantly", "further", "also")

var riskReducers = setOf("reduce", "reduces", "reduced", "reducing", "lower", "lowers", "lowered", "lowering", "cut", "cuts", "decrease", "decreases", "decreased", "minimize", "minimise", "protect", "protects")

// benefitBefore reports whether one of the words ws (nearest first)
// reduces something ("reduced the risk").
func benefitBefore(st *check, ws []tok) bool {
	for i := range ws {
		if riskReducers[string(st.b[ws[i].s:ws[i].e])] {
			return true
		}
	}
	return false
}

func (st *check) offLabel(m matchAt, gi int) {
	if !st.offApplies || st.inISI(m.s) {
		return
	}
	if st.e.groups[gi].name == "adult" || st.groupAllowed(gi) {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	if st.sentence(ss, se, sfSafety) || st.history(ss, se, m.s) {
		return
	}
	st.builtin(RuleOffLabel, m.s, m.e, fmt.Sprintf("%q is not among the approved indications.", strings.TrimSpace(string(st.b[m.s:m.e]))))
}

// groupAllowed reports whether an off-label group (or a group covering it)
// is named in the indications, or, for children and adolescents, the
// indications' ages reach them ("patients 12 years and older").
func (st *check) groupAllowed(gi int) bool {
	if ok, seen := st.groupOK[gi]; seen {
		return ok
	}
	g := st.e.groups[gi]
	ok := false
	if len(g.requires) > 0 {
		// A use modifier is on label unless the label names the use it
		// contradicts.
		ok = true
		for _, r := range g.requires {
			if len(indexWord(st.indications, []byte(r))) > 0 {
				ok = false
			}
		}
	}
	for _, a := range g.allow {
		if len(indexWord(st.indications, []byte(a))) > 0 {
			ok = true
		}
	}
	for _, t := range g.terms {
		if len(indexWord(st.indications, []byte(t))) > 0 {
			ok = true
			break
		}
	}
	if !ok {
		for _, c := range g.covers {
			if ci, found := st.e.groupIndex[c]; found && st.groupAllowed(ci) {
				ok = true
			}
		}
	}
	if !ok && (g.name == "pediatric" || g.name == "adolescent") {
		if age := youngestAge(st.indications); age >= 0 && (age < 12 || g.name == "adolescent" && age < 18) {
			ok = true
		}
	}
	st.groupOK[gi] = ok
	return ok
}

// youngestAge finds the smallest "N years" in the indications, -1 if
// none.
func youngestAge(ind []byte) int {
	best := -1
	for i := 0; i < len(ind); i++ {
		if ind[i] < '0' || ind[i] > '9' || i > 0 && isWordByte(ind[i-1]) {
			continue
		}
		j := i
		v := 0
		for j < len(ind) && ind[j] >= '0' && ind[j] <= '9' {
			v = v*10 + int(ind[j]-'0')
			j++
		}
		rest := ind[j:]
		if bytes.HasPrefix(rest, []byte(" years")) || bytes.HasPrefix(rest, []byte(" year")) {
			if best < 0 || v < best {
				best = v
			}
		}
		i = j
	}
	return best
}

// newNotClaims follow "new" when it describes something other than the
// product: places, patients, symptoms, data.
var (
	newPlaces    = setOf("york", "jersey", "zealand", "england", "mexico", "hampshire", "orleans", "delhi", "south", "brunswick", "haven", "guinea", "caledonia", "year", "years")
	newNotClaims = setOf("patients", "patient", "users", "user", "prescriptions", "prescription", "prescribers", "cases", "case",
		"diagnosis", "diagnoses", "onset", "lesions", "lesion", "or", "symptoms", "symptom", "infections", "infection",
		"data", "study", "studies", "research", "analysis", "analyses", "findings", "publication", "guidelines", "guideline",
		"website", "site", "address", "account", "password", "appointment", "members", "member", "customers", "employees",
		"hires", "year", "years", "episode", "episodes", "sores", "lumps", "lump", "moles", "mole", "pain", "rash", "headache",
		"vision", "problems", "problem", "shortness", "chest", "bleeding", "bruising", "weakness", "numbness", "changes", "signs",
		"cancers", "tumors", "tumours", "fractures", "fracture", "patches", "patch", "spots", "spot", "cycle", "cycles",
		"course", "courses", "dose", "doses", "round", "rounds", "flare", "flares", "attacks", "attack")
	newPrevNotClaims = setOf("any", "other", "start", "starting", "taking", "take", "begin", "beginning", "develop", "develops", "developing", "notice", "experience", "report", "get", "have", "had")
)

// newToMarkets make "new to …" a claim about the product's arrival.
var newToMarkets = setOf("market", "markets", "pharmacies", "pharmacy", "shelves", "formulary", "formularies", "us", "uk",
	"europe", "canada", "country", "class", "australia", "practice", "clinic", "clinics")

var newcomers = setOf("patients", "people", "users", "those", "adults", "anyone", "someone")

func (st *check) newClaim(m matchAt) {
	if !st.newApplies || st.inISI(m.s) {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	prev := st.before(ss, m.s, 2)
	next := st.after(m.e, se, 2)
	// Places take the possessive: "New Jersey's Medicaid list".
	if len(next) > 0 && newPlaces[strings.TrimSuffix(st.w(next[0]), "'s")] {
		return
	}
	// "New to overactive bladder?", "new to injections": the reader is new
	// to something; "new to the market" and "still new to <brand>" say the
	// product is new.
	if st.eq(next, 0, "to") {
		far := st.after(m.e, se, 4)
		named := len(far) > 1 && (st.w(far[1]) == st.brandWord || st.w(far[1]) == st.estWord)
		if st.is(prev, 0, newcomers) || !named && !st.anyIn(far[1:], newToMarkets) {
			return
		}
	}
	if st.is(next, 0, newPlaces) || st.is(next, 0, newNotClaims) || st.is(next, 1, newNotClaims) && !st.eq(next, 1, "or") ||
		st.is(prev, 0, newPrevNotClaims) || st.is(prev, 0, setOf("what's", "whats")) && st.is(next, 0, setOf("in", "at", "on", "with", "for")) && !st.productNear(m.e, 120) ||
		st.eq(next, 0, "to") && st.is(prev, 0, newcomers) {
		return
	}
	st.builtin(RuleNewClaim, m.s, m.e, fmt.Sprintf("\"New\" used %s after the product's launch (%s).", since(st.ctx.Product.LaunchDate, st.ctx.AsOf), st.ctx.Product.LaunchDate.Format("2 January 2006")))
}

// regexRules runs the organisation's regular expressions over the
// original text.
func (st *check) regexRules() {
	for i, r := range st.e.org {
		if r.re == nil || !st.orgOn[i] {
			continue
		}
		for _, loc := range r.re.FindAllStringIndex(st.doc.Text, 10000) {
			if loc[0] == loc[1] {
				continue
			}
			rs, re := st.n.byteToRune(loc[0]), st.n.byteToRune(loc[1])
			if st.skippedRune(rs) {
				continue
			}
			st.addRunes(r.Code, r.Version, r.Severity, rs, re, orgMessage(r.Rule), r.Guidance)
		}
	}
}

func (st *check) skippedRune(r int) bool {
	k := sort.Search(len(st.skip), func(i int) bool { return st.skip[i].End > r })
	return k < len(st.skip) && st.skip[k].Start <= r
}

// documentRules are the rules about the whole piece: expired modules,
// the established name, fair balance, the PI statement, the channel and
// the reading level.
func (st *check) documentRules() {
	st.expiredModules()
	p := st.ctx.Product
	var brand []int
	var brandLen int
	if p != nil && strings.TrimSpace(p.BrandName) != "" {
		// A brand of several words ("Cardiomax XR") is featured by its
		// first word too.
		nb := normalize(p.BrandName, false).b
		if i := bytes.IndexByte(nb, ' '); i >= 5 {
			nb = nb[:i]
		}
		brandLen = len(nb)
		for _, i := range indexWord(st.b, nb) {
			if st.skipped(i) || st.inURL(i, i+len(nb)) {
				continue
			}
			brand = append(brand, i)
		}
	}
	if p != nil && len(brand) > 0 {
		st.establishedName(brand, brandLen)
	}
	promo := promotionalTypes[st.ctx.AssetType]
	if p != nil && promo && st.firstClaim >= 0 && !st.isiSeen {
		st.builtin(RuleFairBalance, st.firstClaim, st.firstClaimEnd, "")
	}
	if p != nil && promo && len(brand) > 0 && !st.piSeen {
		pi := strings.TrimSpace(p.PIReference)
		if pi == "" || indexOf(st.b, normalize(pi, false).b) < 0 {
			st.builtin(RulePIReference, brand[0], brand[0]+brandLen, "")
		}
	}
	st.channel(brand, brandLen)
	if isPatient(st.ctx.Audience) {
		st.readability()
	}
}

func (st *check) expiredModules() {
	total := st.n.runes()
	for _, m := range st.doc.Modules {
		expired := m.Expired || !m.ExpiresOn.IsZero() && !m.ExpiresOn.After(st.ctx.AsOf)
		if !expired {
			continue
		}
		s, e := max(m.Start, 0), min(m.End, total)
		if s >= e {
			continue
		}
		what := "module"
		if m.Kind == "claim" {
			what = "claim"
		}
		name := ""
		if m.Title != "" {
			name = fmt.Sprintf(" %q", m.Title)
		}
		msg := fmt.Sprintf("The %s%s has expired.", what, name)
		if !m.ExpiresOn.IsZero() && !m.ExpiresOn.After(st.ctx.AsOf) {
			msg = fmt.Sprintf("The %s%s expired on %s.", what, name, m.ExpiresOn.Format("2 January 2006"))
		}
		st.builtinRunes(RuleExpiredModule, s, e, msg, "")
	}
}

// inURL reports a brand name inside a web address (brand.com).
func (st *check) inURL(s, e int) bool {
	b := st.b
	if s > 0 && (b[s-1] == '.' || b[s-1] == '/' || b[s-1] == '@') {
		return true
	}
	return e+1 < len(b) && b[e] == '.' && isWordByte(b[e+1])
}

// establishedName flags, on every page, the first brand mention when no
// mention on that page has the established name next to it (the same
// sentence or within a short distance, as in "Brand (established name)").
func (st *check) establishedName(brand []int, brandLen int) {
	p := st.ctx.Product
	en := normalize(p.EstablishedName, false).b
	if len(en) == 0 || bytes.Equal(en, normalize(p.BrandName, false).b) {
		return
	}
	// The established name with its dosage form or suffix
	// ("velorimab-abcd injection") is also given by its first word.
	if i := bytes.IndexByte(en, ' '); i >= 6 {
		en = en[:i]
	}
	ests := indexWord(st.b, en)
	pages := st.pageStarts()
	pageOf := func(i int) int {
		r := int(st.n.src[i])
		return sort.Search(len(pages), func(k int) bool { return pages[k] > r }) - 1
	}
	near := func(i int) bool {
		_, ss, se := st.sentenceOf(i)
		lo, hi := min(ss, i-120), max(se, i+brandLen+120)
		pg := pageOf(i)
		for k := sort.SearchInts(ests, lo); k < len(ests) && ests[k] < hi; k++ {
			if pageOf(ests[k]) == pg {
				return true
			}
		}
		return false
	}
	byPage := map[int][]int{}
	var order []int
	for _, i := range brand {
		pg := pageOf(i)
		if _, ok := byPage[pg]; !ok {
			order = append(order, pg)
		}
		byPage[pg] = append(byPage[pg], i)
	}
	for _, pg := range order {
		ok := false
		for _, i := range byPage[pg] {
			if near(i) {
				ok = true
				break
			}
		}
		if !ok {
			i := byPage[pg][0]
			st.builtin(RuleEstablishedName, i, i+brandLen, fmt.Sprintf("%q appears without its established name (%s) nearby.", strings.TrimSpace(p.BrandName), strings.TrimSpace(p.EstablishedName)))
		}
	}
}

// pageStarts returns the first code point of every page.
func (st *check) pageStarts() []int {
	if len(st.doc.Pages) > 0 {
		out := make([]int, 0, len(st.doc.Pages))
		for _, p := range st.doc.Pages {
			out = append(out, p.Start)
		}
		sort.Ints(out)
		if out[0] > 0 {
			out[0] = 0
		}
		return out
	}
	out := []int{0}
	t := st.doc.Text
	for i := strings.IndexByte(t, '\f'); i >= 0; {
		out = append(out, st.n.byteToRune(i+1))
		j := strings.IndexByte(t[i+1:], '\f')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return out
}

var socialChannels = setOf("social", "social media", "facebook", "instagram", "twitter", "x", "linkedin", "tiktok", "threads", "bluesky", "youtube", "mastodon", "pinterest")

// channel checks a social post's length against its channel and that a
// post for a product links to its safety information.
func (st *check) channel(brand []int, brandLen int) {
	ch := strings.ToLower(strings.TrimSpace(st.ctx.Channel))
	total := st.n.runes()
	if limit, ok := socialLimits[ch]; ok && total > limit {
		st.builtinRunes(RuleChannelLength, limit, total, fmt.Sprintf("The post is %d characters; %s allows %d, so the text from here on is cut.", total, st.ctx.Channel, limit), "")
	}
	social := st.ctx.AssetType == "social_post" || socialChannels[ch]
	if !social || st.ctx.Product == nil || len(brand) == 0 && st.firstClaim < 0 {
		return
	}
	b := st.b
	link := bytes.Contains(b, []byte("http")) || bytes.Contains(b, []byte("www.")) || hasDomain(b)
	isi := st.isiSeen || bytes.Contains(b, []byte("isi")) || bytes.Contains(b, []byte("safety info"))
	if link && isi {
		return
	}
	s, e := 0, 0
	if len(brand) > 0 {
		s, e = brand[0], brand[0]+brandLen
	} else {
		s, e = st.firstClaim, st.firstClaimEnd
	}
	st.builtin(RuleChannelLength, s, e, "The post has no link to the Important Safety Information.")
}

// hasDomain looks for a web address without a scheme: "brand.com/isi".
func hasDomain(b []byte) bool {
	for _, tld := range [][]byte{[]byte(".com"), []byte(".org"), []byte(".net"), []byte(".co.uk"), []byte(".io"), []byte(".health"), []byte(".ly/")} {
		if i := bytes.Index(b, tld); i > 0 && isWordByte(b[i-1]) {
			return true
		}
	}
	return false
}

func isPatient(a string) bool {
	switch strings.ToLower(strings.TrimSpace(a)) {
	case "patient", "patients", "consumer", "caregiver", "dtc":
		return true
	}
	return false
}

// readability flags patient-audience paragraphs of twenty words or more
// whose Flesch–Kincaid grade is above 8.
func (st *check) readability() {
	b := st.b
	start := 0
	bounds := append(append([]int32(nil), st.n.paras...), int32(len(b)))
	for _, pb := range bounds {
		end := int(pb)
		s, e := start, end
		start = end + 1
		for s < e && b[s] == ' ' {
			s++
		}
		if s >= e || st.skipped(s) {
			continue
		}
		grade, words := fleschKincaid(b, s, e)
		if words < 20 || grade <= 8 {
			continue
		}
		st.builtin(RuleReadability, s, e, fmt.Sprintf("Reading grade %.1f (Flesch–Kincaid) is above 8 for a patient audience.", grade))
	}
}

// headersFooters finds running headers and footers: a line among the first
// or last two of a page that recurs (digits aside, for page numbers) on at
// least half the pages, two at least.
func headersFooters(doc Document, n *normText) []Span {
	pages := doc.Pages
	if len(pages) == 0 && strings.Count(doc.Text, "\f") >= 1 {
		start := 0
		t := doc.Text
		for {
			i := strings.IndexByte(t[n.runeByte[start]:], '\f')
			if i < 0 {
				pages = append(pages, Span{start, n.runes()})
				break
			}
			end := n.byteToRune(int(n.runeByte[start]) + i)
			pages = append(pages, Span{start, end})
			start = end + 1
		}
	}
	if len(pages) < 2 {
		return nil
	}
	type line struct {
		key  string
		span Span
	}
	total := n.runes()
	count := map[string]int{}
	var lines []line
	t := doc.Text
	for _, p := range pages {
		s, e := max(0, p.Start), min(total, p.End)
		if s >= e {
			continue
		}
		bs, be := int(n.runeByte[s]), int(n.runeByte[e])
		seen := map[string]bool{}
		pick := func(ls, le int) {
			if le-ls > 160 {
				return // running heads are short; body text is not one
			}
			key := lineKey(t[ls:le])
			if key == "" {
				return
			}
			lines = append(lines, line{key, Span{n.byteToRune(ls), n.byteToRune(le)}})
			if !seen[key] {
				seen[key] = true
				count[key]++
			}
		}
		// The first two and the last two lines that are not blank.
		got, firstEnd := 0, bs
		for ls := bs; ls < be && got < 2; {
			le := strings.IndexByte(t[ls:be], '\n')
			if le < 0 {
				le = be
			} else {
				le += ls
			}
			if strings.TrimSpace(t[ls:le]) != "" {
				pick(ls, le)
				got++
			}
			firstEnd = le
			ls = le + 1
		}
		got = 0
		for le := be; le > firstEnd && got < 2; {
			ls := strings.LastIndexByte(t[firstEnd:le], '\n')
			if ls < 0 {
				ls = firstEnd
			} else {
				ls += firstEnd + 1
			}
			if strings.TrimSpace(t[ls:le]) != "" {
				pick(ls, le)
				got++
			}
			le = ls - 1
		}
	}
	need := max(2, (len(pages)+1)/2)
	var out []Span
	for _, l := range lines {
		if count[l.key] >= need {
			out = append(out, l.span)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// lineKey is a line with case, spacing and digits (page numbers) evened
// out; empty for a blank line.
func lineKey(l string) string {
	var sb strings.Builder
	space := false
	for _, r := range strings.ToLower(l) {
		switch {
		case r >= '0' && r <= '9':
			if !space || sb.Len() == 0 {
				sb.WriteByte('#')
			}
		case r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\u00a0':
			space = true
			continue
		default:
			if space && sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteRune(r)
		}
		space = false
	}
	return strings.TrimSpace(sb.String())
}

// since says how long before asOf t was, in months or years.
func since(t, asOf time.Time) string {
	months := (asOf.Year()-t.Year())*12 + int(asOf.Month()) - int(t.Month())
	if asOf.Day() < t.Day() {
		months--
	}
	switch {
	case months >= 24:
		return fmt.Sprintf("%d years", months/12)
	case months == 1:
		return "1 month"
	default:
		return fmt.Sprintf("%d months", months)
	}
}

// historyWords say a condition is the patients' past or baseline, not the
// use promoted: "71% had a prior myocardial infarction".
var historyWords = setOf("prior", "previous", "past", "history", "baseline")

// history reports whether the condition at p is described as the history
// or baseline of the patients studied.
func (st *check) history(ss, se, p int) bool {
	if st.sentence(ss, se, sfNotResult) {
		return true
	}
	prev := st.before(ss, p, 3)
	if st.anyIn(prev, historyWords) {
		return true
	}
	next := st.after(p, se, 4)
	for i := range next {
		if st.eq(next, i, "baseline") && i > 0 && st.eq(next, i-1, "at") {
			return true
		}
	}
	return false
}

// indicationWords returns the words of the indications and their
// five-letter stems, computed once per check.
func (st *check) indicationHas(w string) bool {
	if st.indWords == nil {
		st.indWords = map[string]bool{}
		b := st.indications
		for i := 0; i < len(b); {
			if !isTokByte(b[i]) {
				i++
				continue
			}
			j := i
			for j < len(b) && isTokByte(b[j]) {
				j++
			}
			word := string(b[i:j])
			st.indWords[word] = true
			if len(word) > 8 {
				st.indWords[word[:8]+"*"] = true
			}
			i = j
		}
		// The symptoms and endpoints of a condition on the label are on
		// label too.
		for gi, g := range st.e.groups {
			if len(g.symptoms) > 0 && st.groupAllowed(gi) {
				for _, sy := range g.symptoms {
					st.indWords[sy] = true
				}
			}
		}
	}
	if st.indWords[w] {
		return true
	}
	if len(w) > 8 && st.indWords[w[:8]+"*"] {
		return true
	}
	// Plurals and possessives: "fractures", "Paget's".
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "s")
	return st.indWords[w]
}

// conditionPhrase reads the phrase ending in a condition word ("cold
// sores", "radiation-induced nausea", "severe atopic dermatitis") and
// flags it when a word of it is not in the indications.
func (st *check) conditionPhrase(m matchAt, suffix bool) {
	if !st.offApplies || st.inISI(m.s) {
		return
	}
	b := st.b
	hs, he := m.s, m.e
	if suffix {
		for hs > 0 && isWordByte(b[hs-1]) {
			hs--
		}
		if wordAt(b, he) {
			return
		}
	}
	head := string(b[hs:he])
	if notConditions[head] || len(head) < 3 {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	if st.sentence(ss, se, sfSafety) || st.sentence(ss, se, sfInstruction) || st.history(ss, se, hs) {
		return
	}
	prev := st.before(ss, hs, 3)
	// A condition said to be absent or lessened is an outcome, not an
	// indication: "no hypoglycaemia", "less cough".
	if st.is(prev, 0, outcomeWords) {
		return
	}
	// Up to two words before the head, as long as no comma or stop word
	// comes between.
	start := hs
	words := []tok{{hs, he}}
	for i, t := range prev {
		if i >= 2 {
			break
		}
		gap := b[t.e:start]
		w := string(b[t.s:t.e])
		if bytes.ContainsAny(gap, ",/") || conditionStop[w] || st.upperAt(t.s) && !strings.HasSuffix(w, "'s") {
			break
		}
		if strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "est") ||
			strings.HasSuffix(w, "ed") && w != "induced" ||
			len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "'s") {
			break // a verb or a superlative: "treats", "reducing", "lowered", "easiest"
		}
		// A range, "moderate-to-severe", is the label's own wording.
		if i+1 < len(prev) && st.eq(prev, i+1, "to") {
			break
		}
		words = append(words, t)
		start = t.s
	}
	bad := -1
	for i, t := range words {
		w := string(b[t.s:t.e])
		if conditionGeneric[w] || isNumber(w) || st.indicationHas(w) || i > 0 && st.populationAllowed(w) {
			continue
		}
		if i == 0 && genericHeads[w] {
			continue // "disease" says nothing until its modifier does
		}
		bad = t.s
	}
	if bad < 0 {
		return
	}
	// A condition the vocabulary knows by another name ("eczema" for
	// atopic dermatitis) is on label when its group is.
	// So is a phrase ending in such a name ("heart disease caused by
	// narrowed arteries" for ASCVD).
	phrase := string(b[start:he])
	for gi, g := range st.e.groups {
		for _, t := range g.terms {
			if (t == head && len(words) == 1 || strings.HasSuffix(phrase, t) && strings.IndexByte(t, ' ') > 0 &&
				(len(t) == len(phrase) || phrase[len(phrase)-len(t)-1] == ' ') && bad >= he-len(t)) && st.groupAllowed(gi) {
				return
			}
		}
	}
	st.builtin(RuleOffLabel, start, he, fmt.Sprintf("%q is not among the approved indications.", strings.TrimSpace(string(b[start:he]))))
}

// agePhrase compares an age the copy names ("under 18", "aged 6", "6
// months and older") with the youngest the indications allow: 18 when
// they speak of adults only.
func (st *check) agePhrase(m matchAt, p string) {
	if !st.offApplies || st.inISI(m.s) {
		return
	}
	_, ss, se := st.sentenceOf(m.s)
	var num tok
	var unit string
	switch p {
	case "under", "younger than", "aged", "ages":
		next := st.after(m.e, se, 2)
		if len(next) == 0 || !isDigits(st.w(next[0])) {
			return
		}
		num = next[0]
		if len(next) > 1 {
			unit = st.w(next[1])
		}
	default: // "of age", "and older", "years old": the number comes before
		prev := st.before(ss, m.s, 2)
		if len(prev) < 2 || !isDigits(st.w(prev[1])) {
			if len(prev) >= 1 && isDigits(st.w(prev[0])) && (p == "and older") {
				num = prev[0]
				break
			}
			return
		}
		num, unit = prev[1], st.w(prev[0])
	}
	if unit != "" && !strings.HasPrefix(unit, "year") && !strings.HasPrefix(unit, "month") && unit != "yrs" && unit != "y" {
		if p == "under" || p == "and older" {
			return // "under 5 minutes", "1 mg and older"
		}
	}
	n, _ := strconv.Atoi(st.w(num))
	years := float64(n)
	if strings.HasPrefix(unit, "month") {
		years = float64(n) / 12
	}
	min := -1.0
	if a := youngestAge(st.indications); a >= 0 {
		min = float64(a)
	} else if st.indicationHas("adults") || st.indicationHas("adult") {
		min = 18
	}
	below := p == "under" || p == "younger than"
	if min < 0 || below && years > min || !below && years >= min {
		return
	}
	if st.sentence(ss, se, sfSafety) {
		return
	}
	s, e := min2(m.s, num.s), max(m.e, num.e)
	st.builtin(RuleOffLabel, s, e, fmt.Sprintf("%q is younger than the approved indications allow.", strings.TrimSpace(string(st.b[s:e]))))
}

var (
	outcomeWords = setOf("no", "zero", "without", "less", "fewer", "reduced", "avoid", "minimal", "rare", "little", "lower", "free")
	genericHeads = setOf("disease", "diseases", "disorder", "disorders", "syndrome", "condition", "conditions", "headache",
		"headaches", "incontinence")
)

// populationAllowed reports whether a word names a population of a
// vocabulary group the indications allow ("child's" on a label from 2
// years).
func (st *check) populationAllowed(w string) bool {
	w = strings.TrimSuffix(w, "'s")
	for gi, g := range st.e.groups {
		for _, t := range g.terms {
			if t == w {
				return st.groupAllowed(gi)
			}
		}
	}
	return false
}

func isDigits(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

func min2(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// imperativeTriggers are the trigger verbs that start an instruction in
// their bare form: "Reduce waste", "Improve inhaler technique".
var imperativeTriggers = setOf("reduce", "improve", "lower", "help", "prevent", "protect", "control", "cut", "stop",
	"ease", "calm", "soothe", "work", "drop", "achieve", "increase", "decrease", "restore", "boost", "slow")

// productNear reports the brand or established name within n bytes after
// p ("What's new for type 2 diabetes? Tirzaglenide, once a week.").
func (st *check) productNear(p, n int) bool {
	if st.brandWord == "" {
		return false
	}
	w := st.b[p:min(len(st.b), p+n)]
	return len(indexWord(w, []byte(st.brandWord))) > 0 || st.estWord != "" && len(indexWord(w, []byte(st.estWord))) > 0
}
