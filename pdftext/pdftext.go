// Package pdftext extracts the text of a PDF page by page, for search and for
// checking that a quoted passage really occurs on a given page.
//
// It wraps github.com/ledongthuc/pdf, which panics on many malformed inputs
// and reports text glyph by glyph; Extract turns every failure into an error
// and rebuilds words and lines from glyph positions.
package pdftext

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Document is the text of a PDF: Pages[i] is the text of page i+1, lines
// separated by "\n", words by single spaces. The page count is len(Pages).
type Document struct {
	Pages []string
}

// PlainText returns the pages joined by form feeds ("\f"), the storage
// convention for a file version's plain_text.
func (d *Document) PlainText() string { return strings.Join(d.Pages, "\f") }

// The errors Extract returns; their messages are fit to show to users.
var (
	// ErrUnreadable is returned for anything that is not a PDF the library
	// can parse, including a panic inside it.
	ErrUnreadable = errors.New("The PDF could not be read.")
	// ErrEncrypted is returned for a PDF that needs a password to open, or
	// whose encryption the library cannot undo.
	ErrEncrypted = errors.New("The PDF is encrypted or password-protected. Upload a copy without protection.")
	// ErrTooManyPages is returned when the PDF has more pages than Limits.MaxPages.
	ErrTooManyPages = errors.New("The PDF has too many pages.")
	// ErrTooLarge is returned when the file is larger than Limits.MaxBytes.
	ErrTooLarge = errors.New("The PDF is too large to read.")
	// ErrTooComplex is returned when extraction exceeds its time or read budget.
	ErrTooComplex = errors.New("The PDF is too complex to read.")
)

// Limits bound the work Extract does on one file.
type Limits struct {
	// MaxBytes refuses larger files up front.
	MaxBytes int64
	// MaxPages refuses documents declaring more pages.
	MaxPages int
	// MaxPageText truncates the text kept per page, in bytes.
	MaxPageText int
	// Timeout stops extraction once exceeded (checked on every read).
	Timeout time.Duration
	// MaxReadFactor caps the bytes read from r at MaxReadFactor*size+64 MiB,
	// which stops the library's loops over self-referencing structures.
	MaxReadFactor int64
}

// DefaultLimits are the limits Extract applies.
var DefaultLimits = Limits{
	MaxBytes:      512 << 20,
	MaxPages:      2000,
	MaxPageText:   256 << 10,
	Timeout:       60 * time.Second,
	MaxReadFactor: 64,
}

// Extract reads the PDF of the given size from r with DefaultLimits.
func Extract(r io.ReaderAt, size int64) (*Document, error) {
	return ExtractLimited(r, size, DefaultLimits)
}

// budgetExceeded is panicked from guardedReader and recovered by
// ExtractLimited. It is an error because the library's own recover in
// NewReader turns error panics into returned errors, which must stay
// recognisable.
type budgetExceeded struct{}

func (budgetExceeded) Error() string { return "pdftext: extraction budget exceeded" }

// guardedReader lets ExtractLimited bound time and I/O of a library that
// offers no cancellation: every read checks the budget and panics past it.
type guardedReader struct {
	r        io.ReaderAt
	deadline time.Time
	left     int64
}

func (g *guardedReader) ReadAt(p []byte, off int64) (int, error) {
	g.left -= int64(len(p))
	if g.left < 0 || (!g.deadline.IsZero() && time.Now().After(g.deadline)) {
		panic(budgetExceeded{})
	}
	return g.r.ReadAt(p, off)
}

// ExtractLimited is Extract with explicit limits (zero fields take the
// default). It never panics: library panics come back as ErrUnreadable.
// A page whose content stream cannot be interpreted yields "" as long as
// at least one other page could be read.
func ExtractLimited(r io.ReaderAt, size int64, lim Limits) (doc *Document, err error) {
	d := DefaultLimits
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = d.MaxBytes
	}
	if lim.MaxPages <= 0 {
		lim.MaxPages = d.MaxPages
	}
	if lim.MaxPageText <= 0 {
		lim.MaxPageText = d.MaxPageText
	}
	if lim.Timeout <= 0 {
		lim.Timeout = d.Timeout
	}
	if lim.MaxReadFactor <= 0 {
		lim.MaxReadFactor = d.MaxReadFactor
	}
	if size <= 0 {
		return nil, ErrUnreadable
	}
	if size > lim.MaxBytes {
		return nil, ErrTooLarge
	}
	g := &guardedReader{r: r, deadline: time.Now().Add(lim.Timeout), left: lim.MaxReadFactor*size + 64<<20}

	defer func() {
		if x := recover(); x != nil {
			doc = nil
			if _, ok := x.(budgetExceeded); ok {
				err = ErrTooComplex
			} else {
				err = ErrUnreadable
			}
		}
	}()

	pr, err := pdf.NewReader(g, size)
	if err != nil {
		return nil, classifyOpenError(err)
	}
	if !xrefStreamsSafe(pr) {
		return nil, ErrUnreadable
	}
	list, err := pageList(pr, lim.MaxPages)
	if err != nil {
		return nil, err
	}
	n := len(list)
	pages := make([]string, n)
	failed := 0
	for i, p := range list {
		text, perr := pageText(p, i+1, lim.MaxPageText)
		if perr != nil {
			if errors.Is(perr, ErrTooComplex) {
				return nil, perr
			}
			failed++
			continue
		}
		pages[i] = text
	}
	if n > 0 && failed == n {
		// Owner-only protection opens with the empty password, but the
		// library cannot decrypt every variant of it.
		if pr.Trailer().Key("Encrypt").Kind() != pdf.Null {
			return nil, ErrEncrypted
		}
		return nil, ErrUnreadable
	}
	return &Document{Pages: pages}, nil
}

// xrefStreamsSafe checks what the library does not: an object stored in an
// object stream must name a stream that is itself an ordinary object. The
// library resolves such objects recursively without reading the file, so a
// stream that names itself (or a cycle of them) overflows the goroutine
// stack, a fatal error no recover catches: a 200-byte upload would stop the
// server. The cross-reference table is unexported; reflection reads it, and
// a library whose table looks different is refused rather than trusted.
func xrefStreamsSafe(pr *pdf.Reader) bool {
	xv := reflect.ValueOf(pr).Elem().FieldByName("xref")
	if !xv.IsValid() || xv.Kind() != reflect.Slice {
		return false
	}
	n := xv.Len()
	if n == 0 {
		return true
	}
	e := xv.Index(0)
	in, stream := e.FieldByName("inStream"), e.FieldByName("stream")
	if !in.IsValid() || in.Kind() != reflect.Bool || !stream.IsValid() {
		return false
	}
	if id := stream.FieldByName("id"); !id.IsValid() || id.Kind() != reflect.Uint32 {
		return false
	}
	for i := 0; i < n; i++ {
		e := xv.Index(i)
		if !e.FieldByName("inStream").Bool() {
			continue
		}
		s := e.FieldByName("stream").FieldByName("id").Uint()
		if s < uint64(n) && xv.Index(int(s)).FieldByName("inStream").Bool() {
			return false
		}
	}
	return true
}

// maxTreeDepth bounds the nesting of the page tree (real files use a few
// levels); deeper trees are taken as cyclic.
const maxTreeDepth = 64

// pageList collects the leaves of the page tree in order, in one walk:
// the library's Reader.Page(i) walks the tree from the root for every page
// and re-reads each object it passes, quadratic in the page count. A tree
// with more than maxPages leaves (or a cycle, which never ends) is refused
// once maxPages is passed.
func pageList(pr *pdf.Reader, maxPages int) ([]pdf.Page, error) {
	var out []pdf.Page
	visits := 0
	var walk func(node pdf.Value, depth int) error
	walk = func(node pdf.Value, depth int) error {
		visits++
		if depth > maxTreeDepth || visits > 4*maxPages+64 {
			return ErrTooManyPages
		}
		switch node.Key("Type").Name() {
		case "Pages":
			kids := node.Key("Kids")
			for i, n := 0, kids.Len(); i < n; i++ {
				if err := walk(kids.Index(i), depth+1); err != nil {
					return err
				}
			}
		case "Page":
			if len(out) == maxPages {
				return ErrTooManyPages
			}
			out = append(out, pdf.Page{V: node})
		}
		return nil
	}
	root := pr.Trailer().Key("Root").Key("Pages")
	if root.IsNull() {
		return nil, ErrUnreadable
	}
	if err := walk(root, 0); err != nil {
		return nil, err
	}
	return out, nil
}

func classifyOpenError(err error) error {
	if errors.As(err, new(budgetExceeded)) {
		return ErrTooComplex
	}
	if errors.Is(err, pdf.ErrInvalidPassword) {
		return ErrEncrypted
	}
	// The library only supports the standard RC4/AES security handlers;
	// anything else it names "encryption" we cannot open without a password.
	if msg := err.Error(); strings.Contains(msg, "encrypt") || strings.Contains(msg, "Encrypt") {
		return ErrEncrypted
	}
	return ErrUnreadable
}

// pageText recovers a panic on one page so that one odd content stream
// does not lose the rest of the document; budget exhaustion still stops all.
func pageText(p pdf.Page, num, maxText int) (text string, err error) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(budgetExceeded); ok {
				err = ErrTooComplex
				return
			}
			err = fmt.Errorf("page %d: %v", num, x)
		}
	}()
	return layout(p.Content().Text, maxText), nil
}

// glyph is one character the library reports, with its box on the baseline.
type glyph struct {
	x, y, w, size float64
	s             string
	seq           int
}

// layout rebuilds reading-order text from glyphs: rows by baseline (top to
// bottom), glyphs left to right within a row, and a space wherever the gap
// between two glyphs is wider than a fraction of the font size.
func layout(texts []pdf.Text, maxText int) string {
	gs := make([]glyph, 0, len(texts))
	for i, t := range texts {
		s := cleanGlyph(t.S)
		if s == "" {
			continue
		}
		size := math.Abs(t.FontSize)
		if size < 0.1 || math.IsNaN(size) || math.IsInf(size, 0) {
			size = 1
		}
		if !finite(t.X) || !finite(t.Y) {
			continue
		}
		w := t.W
		if !finite(w) || w <= 0 {
			w = 0.5 * size * float64(utf8.RuneCountInString(s))
		}
		gs = append(gs, glyph{x: t.X, y: t.Y, w: w, size: size, s: s, seq: i})
	}
	if len(gs) == 0 {
		return ""
	}
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].y > gs[j].y })

	var rows [][]glyph
	start := 0
	for i := 1; i <= len(gs); i++ {
		if i < len(gs) {
			tol := 0.35 * math.Min(gs[start].size, gs[i].size)
			if gs[start].y-gs[i].y <= tol {
				continue
			}
		}
		rows = append(rows, gs[start:i])
		start = i
	}

	var b strings.Builder
	for ri, row := range rows {
		sort.SliceStable(row, func(i, j int) bool {
			if row[i].x != row[j].x {
				return row[i].x < row[j].x
			}
			return row[i].seq < row[j].seq
		})
		var line strings.Builder
		space := false
		for k, g := range row {
			if g.s == " " {
				space = true
				continue
			}
			if k > 0 && line.Len() > 0 {
				prev := row[k-1]
				gap := g.x - (prev.x + prev.w)
				if gap > 0.18*math.Min(prev.size, g.size) {
					space = true
				}
			}
			if space && line.Len() > 0 {
				line.WriteByte(' ')
			}
			space = false
			line.WriteString(g.s)
		}
		if ri > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line.String())
		if b.Len() >= maxText {
			break
		}
	}
	out := b.String()
	if len(out) > maxText {
		out = strings.ToValidUTF8(out[:maxText], "")
	}
	return out
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(f) < 1e7 }

var ligatures = strings.NewReplacer("\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\u00a0", " ")

// cleanGlyph keeps printable text only: control characters (NUL in
// particular, which PostgreSQL text refuses) become nothing or a space, and
// ligatures are spelled out so that searches for "first" match "ﬁrst".
func cleanGlyph(s string) string {
	s = ligatures.Replace(strings.ToValidUTF8(s, ""))
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cs, r):
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if strings.TrimSpace(out) == "" && out != "" {
		return " "
	}
	return out
}
