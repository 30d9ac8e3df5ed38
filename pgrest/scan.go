package pgrest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxIdentifierLength is the longest identifier accepted, PostgreSQL's limit.
const MaxIdentifierLength = 63

// MaxParamLength is the longest query parameter name or value, and the
// longest Prefer header, accepted. Longer input is refused before it is
// parsed.
const MaxParamLength = 64 << 10

// IsIdentifier reports whether s is a valid identifier: 1 to
// MaxIdentifierLength ASCII letters, digits and underscores, not starting
// with a digit. Every column, relation, alias, hint and JSON key name in a
// parsed query satisfies it.
func IsIdentifier(s string) bool {
	if s == "" || len(s) > MaxIdentifierLength || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// checkValue refuses what the database could not store in a text value.
func checkValue(v string) string {
	if !utf8.ValidString(v) {
		return "values must be valid UTF-8"
	}
	if strings.IndexByte(v, 0) >= 0 {
		return "values must not contain NUL characters"
	}
	return ""
}

// scanner walks one parameter value. what names the parameter in error
// messages, as in "failed to parse <what> (<src>)".
type scanner struct {
	what string
	src  string
	pos  int
	// items counts the select items parsed so far, at every level.
	items int
}

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

// peek returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

// accept consumes lit if the input continues with it.
func (s *scanner) accept(lit string) bool {
	if strings.HasPrefix(s.src[s.pos:], lit) {
		s.pos += len(lit)
		return true
	}
	return false
}

func (s *scanner) skipSpaces() {
	for s.peek() == ' ' {
		s.pos++
	}
}

// errAt is a parse error at byte offset pos.
func (s *scanner) errAt(pos int, format string, args ...any) *Error {
	return parseError(s.what, s.src, pos, fmt.Sprintf(format, args...))
}

// errf is a parse error at the current position.
func (s *scanner) errf(format string, args ...any) *Error {
	return s.errAt(s.pos, format, args...)
}

// unexpected reports the next character (or the end) and what was expected.
func (s *scanner) unexpected(expecting string) *Error {
	if s.eof() {
		return s.errf("unexpected end of input expecting %s", expecting)
	}
	r, _ := utf8.DecodeRuneInString(s.src[s.pos:])
	return s.errf("unexpected %q expecting %s", string(r), expecting)
}

// expect consumes lit or fails.
func (s *scanner) expect(lit string) *Error {
	if s.accept(lit) {
		return nil
	}
	return s.unexpected(fmt.Sprintf("%q", lit))
}

// isDelim reports whether the byte at i ends a bare name: one of , . : ( ) !
// a double quote, or the start of an arrow "->".
func (s *scanner) isDelim(i int) bool {
	switch s.src[i] {
	case ',', '.', ':', '(', ')', '!', '"':
		return true
	case '-':
		return i+1 < len(s.src) && s.src[i+1] == '>'
	}
	return false
}

// word consumes a bare word up to the next delimiter, without surrounding
// spaces. It may return "".
func (s *scanner) word() string {
	s.skipSpaces()
	start := s.pos
	for !s.eof() && !s.isDelim(s.pos) {
		s.pos++
	}
	return strings.TrimRight(s.src[start:s.pos], " ")
}

// name consumes an identifier, bare or in double quotes, and checks it.
// kind ("column", "relation", ...) is used in error messages.
func (s *scanner) name(kind string) (string, *Error) {
	s.skipSpaces()
	start := s.pos
	var n string
	if s.peek() == '"' {
		v, err := s.quoted()
		if err != nil {
			return "", err
		}
		n = v
		s.skipSpaces()
	} else if n = s.word(); n == "" {
		return "", s.unexpected(kind + " name")
	}
	if !IsIdentifier(n) {
		return "", s.errAt(start, "%q is not a valid %s name (letters, digits and underscores, not starting with a digit, at most %d)", echo(n), kind, MaxIdentifierLength)
	}
	return n, nil
}

// quoted consumes a double-quoted string in which \ escapes the next
// character, and returns its content.
func (s *scanner) quoted() (string, *Error) {
	start := s.pos
	if err := s.expect(`"`); err != nil {
		return "", err
	}
	var b strings.Builder
	for !s.eof() {
		c := s.src[s.pos]
		s.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if s.eof() {
				return "", s.errf("unexpected end of input after \\")
			}
			b.WriteByte(s.src[s.pos])
			s.pos++
		default:
			b.WriteByte(c)
		}
	}
	return "", s.errAt(start, "unterminated double quote")
}

// jsonPath consumes any number of "->key" and "->>key" steps.
func (s *scanner) jsonPath() ([]PathStep, *Error) {
	var path []PathStep
	for s.accept("->") {
		step := PathStep{Text: s.accept(">")}
		start := s.pos
		k := s.word()
		if k == "" && s.peek() == '"' {
			v, err := s.quoted()
			if err != nil {
				return nil, err
			}
			k = v
		}
		if !IsIdentifier(k) && !isIndex(k) {
			return nil, s.errAt(start, "%q is not a valid JSON key (an identifier or an integer index)", echo(k))
		}
		step.Key = k
		path = append(path, step)
	}
	return path, nil
}

// isIndex reports whether k is an array index: an optional minus sign and
// one to nine digits.
func isIndex(k string) bool {
	k = strings.TrimPrefix(k, "-")
	if k == "" || len(k) > 9 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !isDigit(k[i]) {
			return false
		}
	}
	return true
}

// quoteValue renders v for a place where a bare value ends at "," or ")",
// wrapping it in double quotes when it holds a reserved character, would
// be read as a bracketed value, or is empty.
func quoteValue(v string) string {
	if v != "" && !strings.ContainsAny(v, `,()"\`) && v[0] != '{' && v[0] != '[' {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(v) + `"`
}
