package local

import (
	"image"
	"math"
)

// The resampler below replaces x/image/draw's CatmullRom.Scale for the
// normalization resize: same Catmull-Rom kernel (widened when shrinking, so
// it antialiases), premultiplied alpha, but separable in float32 with the
// horizontal pass streamed through a small ring of rows. x/image/draw keeps
// a float64 buffer of dstW×srcH pixels (196 MB for 4000×3000 → 2048×1536,
// 537 MB for 8192² → 2048²) and premultiplies per tap; this keeps a few
// rows and premultiplies once per source pixel.

// taps are the source indices and weights of one output index.
type taps struct {
	start int
	w     []float32
}

// catmullRom is the Catmull-Rom cubic (B=0, C=0.5), support 2.
func catmullRom(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < 1:
		return (1.5*x-2.5)*x*x + 1
	case x < 2:
		return ((-0.5*x+2.5)*x-4)*x + 2
	}
	return 0
}

// axisTaps computes the normalized weights mapping srcN samples to dstN.
// Taps outside the source are dropped and the rest renormalized.
func axisTaps(srcN, dstN int) []taps {
	scale := float64(srcN) / float64(dstN)
	fs := math.Max(1, scale)
	radius := 2 * fs
	out := make([]taps, dstN)
	for i := range out {
		center := (float64(i) + 0.5) * scale
		lo := max(0, int(math.Floor(center-radius)))
		hi := min(srcN, int(math.Ceil(center+radius)))
		ws := make([]float64, 0, hi-lo)
		sum := 0.0
		for j := lo; j < hi; j++ {
			w := catmullRom((float64(j) + 0.5 - center) / fs)
			ws = append(ws, w)
			sum += w
		}
		// Trim zero weights at both ends.
		for len(ws) > 1 && ws[0] == 0 {
			ws, lo = ws[1:], lo+1
		}
		for len(ws) > 1 && ws[len(ws)-1] == 0 {
			ws = ws[:len(ws)-1]
		}
		t := taps{start: lo, w: make([]float32, len(ws))}
		for k, w := range ws {
			if sum != 0 {
				w /= sum
			}
			t.w[k] = float32(w)
		}
		out[i] = t
	}
	return out
}

// resample scales src (non-premultiplied 8-bit) to w×h. opaque: every alpha
// is treated as 255 and the output is opaque.
func resample(src *image.NRGBA, w, h int, opaque bool) *image.NRGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	xt, yt := axisTaps(sw, w), axisTaps(sh, h)
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	// Premultiplied source row, reused.
	pre := make([]float32, 4*sw)
	// Ring of horizontally filtered rows, indexed by source row.
	ring := map[int][]float32{}
	var free [][]float32
	hrow := func(y int) []float32 {
		if r, ok := ring[y]; ok {
			return r
		}
		in := src.Pix[y*src.Stride : y*src.Stride+4*sw]
		for x := 0; x < sw; x++ {
			r, g, b, a := float32(in[4*x]), float32(in[4*x+1]), float32(in[4*x+2]), float32(in[4*x+3])
			if opaque {
				a = 255
			} else if a != 255 {
				f := a / 255
				r, g, b = r*f, g*f, b*f
			}
			pre[4*x], pre[4*x+1], pre[4*x+2], pre[4*x+3] = r, g, b, a
		}
		var out []float32
		if n := len(free); n > 0 {
			out, free = free[n-1], free[:n-1]
		} else {
			out = make([]float32, 4*w)
		}
		for x, t := range xt {
			var r, g, b, a float32
			p := pre[4*t.start:]
			for k, wt := range t.w {
				q := p[4*k : 4*k+4 : 4*k+4]
				r += q[0] * wt
				g += q[1] * wt
				b += q[2] * wt
				a += q[3] * wt
			}
			out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = r, g, b, a
		}
		ring[y] = out
		return out
	}
	acc := make([]float32, 4*w)
	low := 0
	for y, t := range yt {
		// Recycle rows no later output row needs (windows only move down).
		for ; low < t.start; low++ {
			if r, ok := ring[low]; ok {
				free = append(free, r)
				delete(ring, low)
			}
		}
		clear(acc)
		for k, wt := range t.w {
			r := hrow(t.start + k)
			for i, v := range r {
				acc[i] += v * wt
			}
		}
		row := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
		for x := 0; x < w; x++ {
			a := clamp(acc[4*x+3], 0, 255)
			if opaque {
				a = 255
			}
			if a == 0 {
				continue
			}
			scale := float32(255) / a
			for c := 0; c < 3; c++ {
				v := clamp(acc[4*x+c], 0, a) * scale
				row[4*x+c] = uint8(v + 0.5)
			}
			row[4*x+3] = uint8(a + 0.5)
		}
	}
	return dst
}

func clamp(v, lo, hi float32) float32 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
