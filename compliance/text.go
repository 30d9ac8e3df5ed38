package compliance

import (
	"unicode/utf8"
)

// sentences splits the normalised text into sentences: a full stop,
// question or exclamation mark followed by a space (and, in the original,
// not by a lower-case letter), with the reference markers and closing
// quotes written after it kept in the sentence it ends; a blank line or a
// page break ends one too. It returns the start of every sentence.
func sentences(n *normText) []int32 {
	b := n.b
	starts := make([]int32, 1, len(b)/60+2)
	pi := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == ' ' && pi < len(n.paras) && int(n.paras[pi]) == i {
			pi++
			if int(starts[len(starts)-1]) < i+1 {
				starts = append(starts, int32(i+1))
			}
			continue
		}
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		if c == '.' && abbreviation(b, i) {
			continue
		}
		j := i + 1
		for j < len(b) && j-i < 8 && (b[j] == '"' || b[j] == '\'' || b[j] == ')' || b[j] == '.' || b[j] == '!' || b[j] == '?') {
			j++
		}
		j = skipMarkers(b, j, j+24)
		if j < len(b) && b[j] != ' ' {
			continue
		}
		if j >= len(b) {
			break
		}
		// "vs. placebo", "e.g. children": the next word in the original
		// starts in lower case, so the sentence goes on.
		if j+1 < len(b) && n.lowerAt(j+1) {
			continue
		}
		starts = append(starts, int32(j+1))
		i = j
	}
	return starts
}

// abbreviation reports whether the full stop at b[i] ends an
// abbreviation rather than a sentence.
func abbreviation(b []byte, i int) bool {
	if i+1 < len(b) && isWordByte(b[i+1]) {
		return true // 2.5, e.g, u.s
	}
	j := i
	for j > 0 && i-j < 8 && (isWordByte(b[j-1]) || b[j-1] == '.') {
		j--
	}
	w := string(b[j:i])
	switch w {
	case "vs", "e.g", "i.e", "dr", "mr", "mrs", "ms", "st", "no", "inc", "ltd", "approx", "fig", "figs", "ref", "refs", "al", "u.s", "u.k", "p", "pp", "vol", "ca", "cf", "jr", "sr", "co", "corp":
		return true
	}
	return len(w) == 1 && w[0] >= 'a' && w[0] <= 'z'
}

// Superscript digits and footnote symbols as UTF-8 runes.
func isMarkerRune(r rune) bool {
	switch r {
	case '¹', '²', '³', '⁰', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹', '⁻', '⁽', '⁾', '†', '‡', '§', '¶', '‖', '*':
		return true
	}
	return false
}

// skipMarkers steps over reference markers written at b[j]: superscript
// digits, footnote symbols and bracketed numbers.
func skipMarkers(b []byte, j, limit int) int {
	for j < len(b) && j < limit {
		c := b[j]
		if c == '*' || c == '^' {
			j++
			continue
		}
		if c == ',' && j+1 < len(b) && b[j+1] == '^' {
			j++
			continue
		}
		if c == '[' {
			if k := bracketRef(b, j); k > j {
				j = k
				continue
			}
			return j
		}
		if c >= 0x80 {
			r, sz := utf8.DecodeRune(b[j:])
			if isMarkerRune(r) {
				j += sz
				continue
			}
		}
		return j
	}
	return j
}

// bracketRef returns the position after a bracketed reference such as
// [1], [1,2], [1-3] or [1 3] (dashes between digits normalise to a
// space) starting at b[j], or j when there is none.
func bracketRef(b []byte, j int) int {
	k := j + 1
	digits := 0
	for k < len(b) && k-j < 24 {
		c := b[k]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == ',' || c == ' ' || c == '-' || c == ';':
		case c == ']':
			if digits > 0 {
				return k + 1
			}
			return j
		default:
			return j
		}
		k++
	}
	return j
}

// hasMarker reports whether b[s:e] holds a reference marker.
func hasMarker(b []byte, s, e int) bool {
	for i := s; i < e; i++ {
		c := b[i]
		switch {
		case c >= 0x80:
			r, _ := utf8.DecodeRune(b[i:])
			if r != '*' && isMarkerRune(r) {
				return true
			}
		case c == '^':
			// "mg/m²" is a unit, not a reference.
			if !unitBefore(b, s, i) {
				return true
			}
		case c == '*':
			// An asterisk tied to the word or number before it: "40%*".
			if i > s && b[i-1] != ' ' {
				return true
			}
		case c == '[':
			if bracketRef(b, i) > i {
				return true
			}
		case c == '.' || c == ',':
			// Extraction flattens superscripts: "attacks.12 ".
			if i > s && (b[i-1] == '%' || b[i-1] == ')' || b[i-1] >= 'a' && b[i-1] <= 'z') {
				k := i + 1
				for k < e && k-i <= 3 && b[k] >= '0' && b[k] <= '9' {
					k++
				}
				if k > i+1 && k-i <= 3 && (k == len(b) || b[k] == ' ') {
					return true
				}
			}
		case c == 'e':
			if i+6 <= e && string(b[i:i+6]) == "et al." || i+6 <= e && string(b[i:i+6]) == "et al," {
				return true
			}
		case c == 'd':
			if i+12 <= e && string(b[i:i+12]) == "data on file" {
				return true
			}
		}
	}
	return false
}

func isTokByte(c byte) bool { return isWordByte(c) || c == '\'' || c >= 0x80 && c != 0xc2 }

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// syllables estimates the syllables of an ASCII lower-case word: vowel
// groups, less a silent final e, at least one.
func syllables(w []byte) int {
	n := 0
	prevVowel := false
	for _, c := range w {
		v := c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'
		if v && !prevVowel {
			n++
		}
		prevVowel = v
	}
	l := len(w)
	if l > 2 && w[l-1] == 'e' && w[l-2] != 'l' && n > 1 {
		n--
	}
	if l > 3 && w[l-1] == 'd' && w[l-2] == 'e' && w[l-3] != 't' && w[l-3] != 'd' && n > 1 {
		n--
	}
	if n == 0 {
		n = 1
	}
	return n
}

// fleschKincaid returns the Flesch–Kincaid grade of b[s:e] and its word
// count.
func fleschKincaid(b []byte, s, e int) (float64, int) {
	words, syl, sents := 0, 0, 0
	i := s
	for i < e {
		c := b[i]
		if isWordByte(c) || c >= 0x80 {
			j := i
			for j < e && (isWordByte(b[j]) || b[j] == '\'' || b[j] >= 0x80) {
				j++
			}
			if c >= '0' && c <= '9' {
				words++
				syl++
			} else {
				words++
				syl += syllables(b[i:j])
			}
			i = j
			continue
		}
		if (c == '.' || c == '!' || c == '?') && (i+1 >= e || b[i+1] == ' ') {
			sents++
		}
		i++
	}
	if words == 0 {
		return 0, 0
	}
	if sents == 0 {
		sents = 1
	}
	return 0.39*float64(words)/float64(sents) + 11.8*float64(syl)/float64(words) - 15.59, words
}

// unitBefore reports a superscript that squares or cubes a unit: m², cm³.
func unitBefore(b []byte, lo, i int) bool {
	j := i
	for j > lo && b[j-1] >= 'a' && b[j-1] <= 'z' {
		j--
	}
	switch string(b[j:i]) {
	case "m", "cm", "mm", "km", "ft", "in", "dm", "um":
		return true
	}
	return false
}
