package local

import (
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	xdraw "golang.org/x/image/draw"
)

func TestAxisTapsNormalized(t *testing.T) {
	for _, c := range [][2]int{{4000, 2048}, {10, 3}, {7, 7}, {3, 10}, {1, 1}, {2, 1}, {1000, 1}} {
		for i, tp := range axisTaps(c[0], c[1]) {
			var sum float32
			for _, w := range tp.w {
				sum += w
			}
			assert.InDelta(t, 1, sum, 1e-5, "%v[%d]", c, i)
			assert.GreaterOrEqual(t, tp.start, 0)
			assert.LessOrEqual(t, tp.start+len(tp.w), c[0])
		}
	}
}

// A flat image stays exactly flat, with or without alpha.
func TestResampleFlat(t *testing.T) {
	for _, c := range []color.NRGBA{{200, 10, 10, 255}, {200, 10, 10, 100}, {1, 2, 3, 1}} {
		out := resample(flat(97, 41, c), 13, 7, c.A == 255)
		for y := 0; y < 7; y++ {
			for x := 0; x < 13; x++ {
				assert.Equal(t, c, out.NRGBAAt(x, y))
			}
		}
	}
}

// Premultiplied: the colour of fully transparent pixels never bleeds.
func TestResampleNoTransparentBleed(t *testing.T) {
	m := flat(40, 10, color.NRGBA{0, 0, 255, 255})
	for y := 0; y < 10; y++ {
		for x := 0; x < 20; x++ {
			copy(m.Pix[m.PixOffset(x, y):], []byte{255, 0, 0, 0})
		}
	}
	out := resample(m, 10, 5, false)
	for x := 0; x < 10; x++ {
		c := out.NRGBAAt(x, 2)
		if c.A > 0 {
			assert.Equal(t, uint8(0), c.R, "x=%d %v", x, c)
			assert.Equal(t, uint8(255), c.B, "x=%d %v", x, c)
		}
	}
}

// Same kernel as x/image/draw's CatmullRom: outputs agree within rounding.
func TestResampleMatchesXDraw(t *testing.T) {
	src := photo(301, 203)
	for _, sz := range [][2]int{{150, 101}, {64, 64}, {299, 200}} {
		ours := resample(src, sz[0], sz[1], true)
		ref := image.NewRGBA(image.Rect(0, 0, sz[0], sz[1]))
		xdraw.CatmullRom.Scale(ref, ref.Rect, src, src.Rect, xdraw.Src, nil)
		worst := 0
		for i := range ours.Pix {
			d := int(ours.Pix[i]) - int(ref.Pix[i])
			worst = max(worst, d, -d)
		}
		assert.LessOrEqual(t, worst, 3, "%v", sz)
	}
}
