package compliance

import (
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// normText is a normalised copy of a text that every phrase rule matches
// against: lower case, curly quotes and dashes made ASCII, runs of
// whitespace (line breaks included) made one space, a hyphen between two
// word characters made a space (so "side-effect-free", "side effect free"
// and a phrase broken over two lines meet), a hyphen that breaks a word at
// the end of a line removed, and ® ™ © soft hyphens and zero-width
// characters dropped. src maps every byte back to the code point of the
// original it came from, so a match converts to code-point offsets.
type normText struct {
	b   []byte
	src []int32
	// paras are the positions in b of the spaces that stand for a blank
	// line or a page break: sentences never run across them.
	paras []int32
	// lines are the positions in b of spaces that stood for a single line
	// break; headings without a full stop end there.
	lines []int32
	// pageBreaks are the positions in b of the spaces that stand for a
	// form feed.
	pageBreaks []int32
	// runeByte is the byte offset in the original of every code point,
	// with the text's length appended.
	runeByte []int32
	orig     string
	// caps has a bit for every position of b whose original character is
	// an upper-case letter at the start of a word (sentence splitting
	// reads it).
	caps []uint64
}

// dropped reports the characters normalisation removes outright.
func dropped(r rune) bool {
	switch r {
	case '®', '™', '©', '℠', '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return false
}

// mapRune turns the typographic variants copy is written with into the
// ASCII character the phrases use; 0 means no mapping.
func mapRune(r rune) byte {
	switch r {
	case '\u2018', '\u2019', '\u201a', '\u201b', '\u2032', '`', '\u00b4':
		return '\''
	case '\u201c', '\u201d', '\u201e', '\u201f', '\u2033', '\u00ab', '\u00bb':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\ufe58', '\ufe63', '\uff0d':
		return '-'
	case '¹', '²', '³', '⁰', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹', '⁻', '⁽', '⁾', '⁺', '†', '‡', '§', '¶', '‖':
		// Reference markers: superscript numbers and footnote symbols
		// become one mark the rules look for.
		return '^'
	case '\uff05':
		return '%'
	case '\u2044':
		return '/'
	}
	return 0
}

// ligature expands the typographic ligatures PDF text extraction leaves in.
func ligature(r rune) string {
	switch r {
	case '\ufb00':
		return "ff"
	case '\ufb01':
		return "fi"
	case '\ufb02':
		return "fl"
	case '\ufb03':
		return "ffi"
	case '\ufb04':
		return "ffl"
	}
	return ""
}

func isSpaceRune(r rune) bool {
	return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == '\v' ||
		r == '\u00a0' || r == '\u2028' || r == '\u2029' || (r > 0x7f && unicode.IsSpace(r))
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// wordBefore reports whether the character ending at b[i] (exclusive) is a
// letter or a digit.
func wordBefore(b []byte, i int) bool {
	if i <= 0 {
		return false
	}
	c := b[i-1]
	if c < utf8.RuneSelf {
		return isWordByte(c)
	}
	r, _ := utf8.DecodeLastRune(b[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordAt reports whether the character starting at b[i] is a letter or a
// digit.
func wordAt(b []byte, i int) bool {
	if i >= len(b) {
		return false
	}
	c := b[i]
	if c < utf8.RuneSelf {
		return isWordByte(c)
	}
	r, _ := utf8.DecodeRune(b[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// normalize builds the normalised copy of s. withMap false skips the
// offset tables (phrases of the rule set are normalised that way).
func normalize(s string, withMap bool) *normText {
	return normalizeInto(&normText{}, s, withMap)
}

// normPool keeps the large buffers of finished checks: a megabyte of text
// needs nine of offsets, and allocating and clearing them each time costs
// more than the matching.
var normPool = sync.Pool{New: func() any { return &normText{} }}

// normalizeInto is normalize reusing n's buffers.
func normalizeInto(n *normText, s string, withMap bool) *normText {
	n.b = slices.Grow(n.b[:0], len(s)+8)
	n.paras, n.lines, n.pageBreaks = n.paras[:0], n.lines[:0], n.pageBreaks[:0]
	n.src, n.runeByte, n.orig = n.src[:0], n.runeByte[:0], ""
	if withMap {
		n.src = slices.Grow(n.src, len(s)+8)
		n.runeByte = slices.Grow(n.runeByte, len(s)+1)
		n.orig = s
		words := len(s)/64 + 2
		if cap(n.caps) < words {
			n.caps = make([]uint64, words)
		} else {
			n.caps = n.caps[:words]
			clear(n.caps)
		}
	} else {
		n.src, n.runeByte = nil, nil
	}
	ri := int32(-1)
	inSpace := false
	newlines := 0
	paraMarked := false
	emit := func(c byte) {
		n.b = append(n.b, c)
		if withMap {
			n.src = append(n.src, ri)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		size := 1
		if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		ri++
		if withMap {
			n.runeByte = append(n.runeByte, int32(i))
		}
		// Fast path: a run of ordinary ASCII letters and digits.
		if c < utf8.RuneSelf && isWordByte(c) {
			inSpace = false
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			start := len(n.b)
			if withMap && c >= 'A' && c <= 'Z' && start/64 < len(n.caps) {
				n.caps[start/64] |= 1 << (start % 64)
			}
			n.b = append(n.b, s[i:j]...)
			nb := n.b[start:]
			for k := range nb {
				if nb[k] <= 'Z' && nb[k] >= 'A' {
					nb[k] += 'a' - 'A'
				}
			}
			if withMap {
				w := j - i
				n.src = slices.Grow(n.src, w)
				src := n.src[len(n.src) : len(n.src)+w]
				n.src = n.src[:len(n.src)+w]
				for k := range src {
					src[k] = ri + int32(k)
				}
				rb := n.runeByte[len(n.runeByte) : len(n.runeByte)+w-1]
				n.runeByte = n.runeByte[:len(n.runeByte)+w-1]
				for k := range rb {
					rb[k] = int32(i + 1 + k)
				}
				ri += int32(w - 1)
			} else {
				ri += int32(j - i - 1)
			}
			i = j
			continue
		}
		if isSpaceRune(r) {
			if !inSpace {
				inSpace = true
				newlines = 0
				paraMarked = false
				if len(n.b) > 0 {
					emit(' ')
				}
			}
			if r == '\n' || r == '\u2028' {
				newlines++
				if newlines == 1 && len(n.b) > 0 && !paraMarked {
					n.lines = append(n.lines, int32(len(n.b)-1))
				}
			}
			if r == '\f' && len(n.b) > 0 && (len(n.pageBreaks) == 0 || int(n.pageBreaks[len(n.pageBreaks)-1]) != len(n.b)-1) {
				n.pageBreaks = append(n.pageBreaks, int32(len(n.b)-1))
			}
			if (newlines >= 2 || r == '\f' || r == '\u2029') && !paraMarked && len(n.b) > 0 {
				n.paras = append(n.paras, int32(len(n.b)-1))
				paraMarked = true
			}
			i += size
			continue
		}
		if dropped(r) {
			i += size
			continue
		}
		m := mapRune(r)
		if c == '-' {
			m = '-'
		}
		if m == '-' {
			prevWord := len(n.b) > 0 && wordBefore(n.b, len(n.b))
			// A word broken at the end of a line: "break-\nthrough".
			j := i + size
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
				j++
			}
			if prevWord && j < len(s) && s[j] == '\n' {
				k := j + 1
				for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
					k++
				}
				if k < len(s) && s[k] >= 'a' && s[k] <= 'z' {
					// Skip the hyphen and the line break; the code points
					// still count in runeByte.
					for p := i + size; p < k; {
						_, sz := utf8.DecodeRuneInString(s[p:])
						ri++
						if withMap {
							n.runeByte = append(n.runeByte, int32(p))
						}
						p += sz
					}
					i = k
					inSpace = false
					continue
				}
			}
			nextWord := false
			if i+size < len(s) {
				nr, _ := utf8.DecodeRuneInString(s[i+size:])
				nextWord = unicode.IsLetter(nr) || unicode.IsDigit(nr)
			}
			if prevWord && nextWord {
				emit(' ')
				inSpace = false
				i += size
				continue
			}
			emit('-')
			inSpace = false
			i += size
			continue
		}
		inSpace = false
		if m != 0 {
			emit(m)
			i += size
			continue
		}
		if c < utf8.RuneSelf {
			emit(c)
			i++
			continue
		}
		if l := ligature(r); l != "" {
			for k := 0; k < len(l); k++ {
				emit(l[k])
			}
			i += size
			continue
		}
		lr := unicode.ToLower(r)
		var buf [utf8.UTFMax]byte
		w := utf8.EncodeRune(buf[:], lr)
		for k := 0; k < w; k++ {
			emit(buf[k])
		}
		i += size
	}
	// Trailing whitespace is dropped so phrases never end in a space.
	for len(n.b) > 0 && n.b[len(n.b)-1] == ' ' {
		n.b = n.b[:len(n.b)-1]
		if withMap {
			n.src = n.src[:len(n.src)-1]
		}
	}
	if withMap {
		n.runeByte = append(n.runeByte, int32(len(s)))
	}
	return n
}

// normPhrase normalises a rule phrase the way texts are.
func normPhrase(p string) string {
	return string(normalize(p, false).b)
}

// runes returns the number of code points of the original text.
func (n *normText) runes() int { return len(n.runeByte) - 1 }

// span converts [s, e) of the normalised bytes to code points of the
// original: from the code point the first byte came from to just after
// the one the last byte came from.
func (n *normText) span(s, e int) (int, int) {
	return int(n.src[s]), int(n.src[e-1]) + 1
}

// lowerAt reports whether the original character behind normalised byte
// j is a lower-case letter.
func (n *normText) lowerAt(j int) bool {
	if n.src == nil {
		return false
	}
	c := n.b[j]
	if c < utf8.RuneSelf {
		if c < 'a' || c > 'z' {
			return false
		}
		if j/64 < len(n.caps) && n.caps[j/64]&(1<<(j%64)) != 0 {
			return false
		}
		return true
	}
	o := n.runeByte[n.src[j]]
	r, _ := utf8.DecodeRuneInString(n.orig[o:])
	return unicode.IsLower(r)
}

// upperAt reports whether the word at normalised byte j began with a
// capital in the original (a proper noun when not first in a sentence).
func (n *normText) upperAt(j int) bool {
	return j/64 < len(n.caps) && n.caps[j/64]&(1<<(j%64)) != 0
}
