package sqlstore

import (
	"database/sql/driver"
	"errors"
	"strings"
	"unicode"

	"modernc.org/sqlite"
)

// Organisation-scoped search (migration 0013). Each organisation that has
// searchable content gets a number in search_orgs, and every word of the
// full-text index starts with the organisation's tag, made from that
// number. A query is tagged the same way, so it only ever reads the
// posting lists of the caller's organisation: how common a word is in
// another organisation changes neither the work of a search nor what it
// finds. Both engines store the tag inside each indexed word, so one index
// serves every organisation:
//
//   - PostgreSQL: the tsvector's lexemes and the tsquery's are prefixed
//     (search_tag_vector, search_tag_query) with a short ASCII tag (one
//     character for the first 61 organisations; search_org_tag), since
//     every row stores its vector.
//   - SQLite: FTS5's tokenizer cannot be told about organisations, so the
//     text handed to it has the tag, two private-use characters (which no
//     case folding changes), glued to the front of every word
//     (search_org_words, below). FTS5 then makes the same tokens at the
//     same positions as from the plain text, each carrying the tag, and the
//     index stays an external-content index over search_docs (snippets are
//     cut from the plain text at the positions the index gives). FTS5
//     stores each word once per leaf, after its neighbour's common start,
//     so the tag costs the index next to nothing.
//
// One statistic stays shared on SQLite: bm25 weighs a word by how many of
// the index's rows hold it (the organisation's, since words are tagged)
// against the number of rows of the whole index, so ranks still move a
// little with the size of the instance, not with any word's use elsewhere.

// SQLite's tags are two characters of U+E100…U+F0FF (private use, kept
// whole by the tokenizer; search_docs holds none of the tagging, only the
// index does), one per 12 bits of the organisation's number.
const (
	tagBase   = 0xE100
	maxOrgKey = 1<<24 - 1
)

// searchTag returns SQLite's tag of organisation number key (1…maxOrgKey).
func searchTag(key int64) (string, error) {
	if key < 1 || key > maxOrgKey {
		return "", errors.New("sqlstore: organisation search number out of range")
	}
	return string([]rune{rune(tagBase + key>>12), rune(tagBase + key&0xFFF)}), nil
}

// isTokenChar reports whether r is a letter, a number or private use (Go's
// Unicode categories L, N and Co), which FTS5's unicode61 tokenizer always
// keeps in a word, so that a tag put before a run of them never makes a
// word of its own. The tokenizer keeps more (it reads Unicode 6.1: combining
// marks, most symbols, characters assigned since), so a word may also hold
// characters before which no tag is put; it still starts with one unless
// it holds no letter, number or private-use character at all (a lone ©).
// TestTokenCharsAreTokenizerWords checks this against the tokenizer.
func isTokenChar(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)) && !unicode.Is(notTokenChars, r)
}

// notTokenChars are the letters unicode61 separates words at: New Tai Lue
// vowel signs and Vedic signs, spacing marks in Unicode 6.1 (an exhaustive
// comparison over every code point found no others).
var notTokenChars = &unicode.RangeTable{R16: []unicode.Range16{{Lo: 0x19B0, Hi: 0x19C0, Stride: 1}, {Lo: 0x19C8, Hi: 0x19C9, Stride: 1}, {Lo: 0x1CF2, Hi: 0x1CF3, Stride: 1}}}

// tagWords returns text with tag before each of its words (each maximal
// run of token characters). The tag is made of token characters, so the
// tokenizer makes the same words, at the same positions, each starting
// with the tag.
func tagWords(tag, text string) string {
	var b strings.Builder
	b.Grow(len(text) + len(text)/2)
	in := false
	for _, r := range text {
		tok := isTokenChar(r)
		if tok && !in {
			b.WriteString(tag)
		}
		in = tok
		b.WriteRune(r)
	}
	return b.String()
}

func init() {
	// search_org_words(key, text): text tagged for organisation number key,
	// as the FTS5 index of migration 0013 holds it. NULL text stays NULL; a
	// missing number is an error, never untagged (unscoped) text.
	sqlite.MustRegisterDeterministicScalarFunction("search_org_words", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		key, ok := args[0].(int64)
		if !ok {
			return nil, errors.New("search_org_words: the organisation has no search number")
		}
		tag, err := searchTag(key)
		if err != nil {
			return nil, err
		}
		switch v := args[1].(type) {
		case nil:
			return nil, nil
		case string:
			return tagWords(tag, v), nil
		case []byte:
			return tagWords(tag, string(v)), nil
		}
		return nil, errors.New("search_org_words: text expected")
	})
}
