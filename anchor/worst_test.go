package anchor_test

import (
	"testing"

	"fairbalance/anchor"
)

func BenchmarkWorst(b *testing.B) {
	d := generate(1, 100, 2500)
	e := d.clone()
	for i := range e.pages {
		for j := range e.pages[i] {
			if j%2 == 0 {
				e.pages[i][j][0].text = reword(e.pages[i][j][0].text)
			}
		}
	}
	x, _ := d.render()
	y, _ := e.render()
	for b.Loop() {
		anchor.NewCarrier(x, y, 100)
	}
}
