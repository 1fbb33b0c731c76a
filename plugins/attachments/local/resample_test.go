package local

import (
	"image"
	"image/color"
	"math"
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

// Same kernel as x/image/draw's CatmullRom: outputs agree within rounding when
// the kernel alone scales (by less than 2.5); past that, where a box shrink
// comes first (docs/attachments.md "Normalization"), the outputs stay within
// 45 dB PSNR of it on a noisy photo, the hardest case for the box (a step of
// one level in every sample is 48 dB).
func TestResampleMatchesXDraw(t *testing.T) {
	src := photo(301, 203)
	for _, sz := range [][2]int{{150, 101}, {299, 200}, {64, 64}, {100, 40}, {20, 15}} {
		ours := resample(src, sz[0], sz[1], true)
		ref := image.NewRGBA(image.Rect(0, 0, sz[0], sz[1]))
		xdraw.CatmullRom.Scale(ref, ref.Rect, src, src.Rect, xdraw.Src, nil)
		worst := 0
		var se float64
		for i := range ours.Pix {
			d := int(ours.Pix[i]) - int(ref.Pix[i])
			worst = max(worst, d, -d)
			se += float64(d * d)
		}
		if boxFactor(301, sz[0]) == 1 && boxFactor(203, sz[1]) == 1 {
			assert.LessOrEqual(t, worst, 3, "%v", sz)
			continue
		}
		psnr := 10 * math.Log10(255*255/(se/float64(len(ours.Pix))))
		assert.GreaterOrEqual(t, psnr, 45.0, "%v", sz)
	}
}

// The box factor leaves the kernel a reduction of at least 1.25, and of at
// least 2 past a box of 2.
func TestBoxFactor(t *testing.T) {
	for _, c := range [][3]int{{6000, 2048, 2}, {4000, 2048, 1}, {2559, 1024, 1}, {2560, 1024, 2}, {4096, 1024, 2}, {6000, 1000, 3}, {10000, 100, 50}, {7, 7, 1}, {3, 10, 1}} {
		f := boxFactor(c[0], c[1])
		assert.Equal(t, c[2], f, "%v", c)
		if f > 1 {
			assert.GreaterOrEqual(t, float64(c[0])/float64(f*c[1]), 1.25, "%v", c)
			if f > 2 {
				assert.GreaterOrEqual(t, float64(c[0])/float64(f*c[1]), 2.0, "%v", c)
			}
		}
	}
}

// The two bands of a large output compute exactly what one pass computes,
// with and without alpha and with a box shrink whose last box is narrower.
func TestResampleBandsAgree(t *testing.T) {
	for _, c := range [][4]int{{1203, 901, 400, 300}, {900, 700, 700, 500}} {
		for _, opaque := range []bool{true, false} {
			src := photoAlpha(c[0], c[1])
			got := resample(src, c[2], c[3], opaque)
			fx, fy := boxFactor(c[0], c[2]), boxFactor(c[1], c[3])
			vw, vh := (c[0]+fx-1)/fx, (c[1]+fy-1)/fy
			one := image.NewNRGBA(image.Rect(0, 0, c[2], c[3]))
			rs := resampler{src: src, dst: one, xt: axisTaps(vw, c[2]), yt: axisTaps(vh, c[3]), fx: fx, fy: fy, vw: vw, opaque: opaque}
			rs.rows(0, c[3])
			assert.Equal(t, one.Pix, got.Pix, "%v opaque=%v", c, opaque)
		}
	}
}
