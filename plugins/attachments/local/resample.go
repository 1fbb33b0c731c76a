package local

import (
	"image"
	"math"
	"sync"
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

// boxFactor is the integer box shrink taken before the kernel along an axis
// of srcN samples scaled to dstN: blocks of f samples are averaged and the
// widened Catmull-Rom kernel does the rest of the reduction. The kernel keeps
// a reduction of at least 2 (as libvips's default gap), except that a
// reduction between 2.5 and 4 takes a box of 2 and leaves the kernel 1.25 to
// 2; below 2.5 there is no box.
func boxFactor(srcN, dstN int) int {
	scale := float64(srcN) / float64(dstN)
	return max(1, int(scale/2), min(2, int(scale/1.25)))
}

// parallelPixels is the output size from which resample splits its rows
// between two goroutines.
const parallelPixels = 1 << 16

// resample scales src (non-premultiplied 8-bit) to w×h. opaque: every alpha
// is treated as 255 and the output is opaque. A large reduction averages
// boxes of source pixels first (boxFactor), in the premultiplied row the
// horizontal pass reads, so no intermediate raster is kept; a large output is
// computed in two bands of rows at once.
func resample(src *image.NRGBA, w, h int, opaque bool) *image.NRGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	fx, fy := boxFactor(sw, w), boxFactor(sh, h)
	vw, vh := (sw+fx-1)/fx, (sh+fy-1)/fy // the box-shrunk size
	xt, yt := axisTaps(vw, w), axisTaps(vh, h)
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := resampler{src: src, dst: dst, xt: xt, yt: yt, fx: fx, fy: fy, vw: vw, opaque: opaque}
	inBands(w, h, r.rows)
	return dst
}

// inBands runs rows over the rows [0, h) of a w×h output: in two bands at
// once (the first on a new goroutine) from parallelPixels on, else in one.
// A panic of the other band is raised again in the caller, where
// normalize's recover turns it into an error; no band outlives the call.
func inBands(w, h int, rows func(y0, y1 int)) {
	if w*h < parallelPixels || h < 2 {
		rows(0, h)
		return
	}
	var wg sync.WaitGroup
	var failed any
	wg.Go(func() {
		defer func() { failed = recover() }()
		rows(0, h/2)
	})
	func() {
		defer wg.Wait() // also when this band panics
		rows(h/2, h)
	}()
	if failed != nil {
		panic(failed)
	}
}

// resampler holds what the bands of one resample share (read only).
type resampler struct {
	src, dst *image.NRGBA
	xt, yt   []taps
	fx, fy   int // box shrink factors
	vw       int // box-shrunk width
	opaque   bool
}

// rows computes the output rows [y0, y1).
func (rs *resampler) rows(y0, y1 int) {
	dst, xt, w := rs.dst, rs.xt, rs.dst.Rect.Dx()
	fx, fy, opaque := rs.fx, rs.fy, rs.opaque
	// Premultiplied (box-averaged) source row, and the box sums of an
	// opaque one, reused.
	pre := make([]float32, 4*rs.vw)
	var sums []uint32
	if opaque && fx*fy > 1 {
		sums = make([]uint32, 4*rs.vw)
	}
	// Ring of horizontally filtered rows, indexed by box-shrunk source row.
	ring := map[int][]float32{}
	var free [][]float32
	hrow := func(y int) []float32 {
		if r, ok := ring[y]; ok {
			return r
		}
		rs.boxRow(pre, sums, y)
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
	for y := y0; y < y1; y++ {
		t := rs.yt[y]
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
}

// boxRow writes into pre the premultiplied box-shrunk source row y: the
// average of each box of fx×fy source pixels (fewer at the right and bottom
// edges). An opaque source is summed in integers (sums), its alpha taken as
// 255.
func (rs *resampler) boxRow(pre []float32, sums []uint32, y int) {
	src, fx, fy, opaque := rs.src, rs.fx, rs.fy, rs.opaque
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	ylo, yhi := y*fy, min(sh, (y+1)*fy)
	if sums != nil {
		clear(sums)
		for sy := ylo; sy < yhi; sy++ {
			in := src.Pix[sy*src.Stride : sy*src.Stride+4*sw]
			for vx, x := 0, 0; x < sw; vx++ {
				q := sums[4*vx : 4*vx+4 : 4*vx+4]
				for end := min(sw, x+fx); x < end; x++ {
					p := in[4*x : 4*x+3 : 4*x+3]
					q[0] += uint32(p[0])
					q[1] += uint32(p[1])
					q[2] += uint32(p[2])
				}
			}
		}
		for vx := 0; vx < rs.vw; vx++ {
			n := float32((min(sw, (vx+1)*fx) - vx*fx) * (yhi - ylo))
			q, o := sums[4*vx:4*vx+4:4*vx+4], pre[4*vx:4*vx+4:4*vx+4]
			o[0], o[1], o[2], o[3] = float32(q[0])/n, float32(q[1])/n, float32(q[2])/n, 255
		}
		return
	}
	clear(pre)
	for sy := ylo; sy < yhi; sy++ {
		in := src.Pix[sy*src.Stride : sy*src.Stride+4*sw]
		for vx, x := 0, 0; x < sw; vx++ {
			q := pre[4*vx : 4*vx+4 : 4*vx+4]
			for end := min(sw, x+fx); x < end; x++ {
				r, g, b, a := float32(in[4*x]), float32(in[4*x+1]), float32(in[4*x+2]), float32(in[4*x+3])
				if opaque {
					a = 255
				} else if a != 255 {
					f := a / 255
					r, g, b = r*f, g*f, b*f
				}
				q[0] += r
				q[1] += g
				q[2] += b
				q[3] += a
			}
		}
	}
	if fx*fy == 1 {
		return
	}
	for vx := 0; vx < rs.vw; vx++ {
		inv := 1 / float32((min(sw, (vx+1)*fx)-vx*fx)*(yhi-ylo))
		q := pre[4*vx : 4*vx+4 : 4*vx+4]
		q[0], q[1], q[2], q[3] = q[0]*inv, q[1]*inv, q[2]*inv, q[3]*inv
	}
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
