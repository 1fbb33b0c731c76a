package local

import (
	"image"
	"math"
)

// roundHalfUp is JavaScript's Math.round for non-negative values.
func roundHalfUp(v float64) int { return int(math.Floor(v + 0.5)) }

// targetSize is the initial size: the oriented size scaled so the long edge
// is at most maxDimension, each side rounded and at least 1.
func targetSize(w, h, maxDimension int) (int, int) {
	scale := math.Min(1, float64(maxDimension)/float64(max(w, h)))
	return max(1, roundHalfUp(float64(w)*scale)), max(1, roundHalfUp(float64(h)*scale))
}

// fitInside is the size of a w×h image resized to fit inside the box bw×bh
// with its aspect ratio kept and never enlarged (libvips "inside" with
// withoutEnlargement): the limiting axis takes the box side, the other is
// rounded, both at least 1.
func fitInside(w, h, bw, bh int) (int, int) {
	if w <= bw && h <= bh {
		return w, h
	}
	sx := float64(bw) / float64(w)
	sy := float64(bh) / float64(h)
	if sx <= sy {
		return bw, min(bh, max(1, roundHalfUp(float64(h)*sx)))
	}
	return min(bw, max(1, roundHalfUp(float64(w)*sy))), bh
}

// resize scales src to exactly w×h (Catmull-Rom, premultiplied; see
// resample) and returns non-premultiplied pixels. When opaque is true every
// output alpha is 255, so kernel rounding never adds transparency. The
// source is returned as is when the size is unchanged.
func resize(src *image.NRGBA, w, h int, opaque bool) *image.NRGBA {
	if src.Rect.Dx() == w && src.Rect.Dy() == h {
		return src
	}
	return resample(src, w, h, opaque)
}

// Low-colour classification (docs/attachments.md "Normalization", Few
// colours).
const (
	lowColourSampleEdge = 128
	lowColourLimit      = 256
)

// lowColour samples src (oriented sRGB, before any output resize) with
// nearest-neighbour into a box of at most 128×128 and reports whether the
// number of distinct 5-bit RGBA keys never exceeds 256.
func lowColour(src *image.NRGBA) bool {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	sw, sh := fitInside(w, h, lowColourSampleEdge, lowColourSampleEdge)
	seen := make(map[uint32]struct{}, lowColourLimit+1)
	for y := 0; y < sh; y++ {
		sy := (2*y + 1) * h / (2 * sh)
		for x := 0; x < sw; x++ {
			sx := (2*x + 1) * w / (2 * sw)
			i := sy*src.Stride + 4*sx
			p := src.Pix[i : i+4 : i+4]
			k := uint32(p[0]>>3)<<15 | uint32(p[1]>>3)<<10 | uint32(p[2]>>3)<<5 | uint32(p[3]>>3)
			seen[k] = struct{}{}
			if len(seen) > lowColourLimit {
				return false
			}
		}
	}
	return true
}
