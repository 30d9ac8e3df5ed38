package anchor_test

import (
	"fmt"
	"strconv"
	"testing"

	"fairbalance"
)

// checkTarget fails t unless got is the canonical text target of
// text[start:end].
func checkTarget(t *testing.T, text []rune, got fairbalance.Target, start, end int) {
	t.Helper()
	want := fairbalance.TextTarget(text, start, end)
	if !equalTargets(got, want) {
		t.Errorf("got %s, want %s", show(got), show(want))
	}
}

func equalTargets(a, b fairbalance.Target) bool {
	eq := func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	eqf := func(x, y *float64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Type == b.Type && a.Exact == b.Exact && a.Prefix == b.Prefix && a.Suffix == b.Suffix &&
		eq(a.Start, b.Start) && eq(a.End, b.End) && eq(a.Page, b.Page) &&
		eqf(a.X, b.X) && eqf(a.Y, b.Y) && eqf(a.Width, b.Width) && eqf(a.Height, b.Height)
}

// show prints a target for a failure message.
func show(t fairbalance.Target) string {
	if t.Type != fairbalance.TargetText {
		return fmt.Sprintf("%+v", t)
	}
	pos := func(p *int) string {
		if p == nil {
			return "nil"
		}
		return strconv.Itoa(*p)
	}
	return fmt.Sprintf("[%s:%s] %q (prefix %q, suffix %q)", pos(t.Start), pos(t.End), t.Exact, t.Prefix, t.Suffix)
}
