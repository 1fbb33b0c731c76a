package attachmentlocal

import (
	"image"
	"math"

	xdraw "golang.org/x/image/draw"
)

// roundHalfUp is JavaScript's Math.round for non-negative values.
func roundHalfUp(v float64) int { return int(math.Floor(v + 0.5)) }

// targetSize is spec 2.4: the oriented size scaled so the long edge is at
// most maxDimension, each side rounded and at least 1.
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

// resize scales src to exactly w×h with Catmull-Rom (antialiased when
// shrinking) in premultiplied space and returns non-premultiplied pixels.
// An opaque image is scaled in 8-bit RGBA (exact when alpha is 255) and
// every output alpha is forced to 255, so kernel rounding never adds
// transparency; an image with alpha is scaled in 16-bit premultiplied RGBA
// so un-premultiplying keeps the colour of translucent pixels. The source
// is returned as is when the size is unchanged.
func resize(src *image.NRGBA, w, h int, opaque bool) *image.NRGBA {
	if src.Rect.Dx() == w && src.Rect.Dy() == h {
		return src
	}
	if opaque {
		tmp := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.CatmullRom.Scale(tmp, tmp.Rect, src, src.Rect, xdraw.Src, nil)
		for i := 3; i < len(tmp.Pix); i += 4 {
			tmp.Pix[i] = 0xff
		}
		return &image.NRGBA{Pix: tmp.Pix, Stride: tmp.Stride, Rect: tmp.Rect}
	}
	tmp := image.NewRGBA64(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(tmp, tmp.Rect, src, src.Rect, xdraw.Src, nil)
	dst := image.NewNRGBA(tmp.Rect)
	for i, j := 0, 0; i < len(dst.Pix); i, j = i+4, j+8 {
		p := tmp.Pix[j : j+8 : j+8]
		a := uint32(p[6])<<8 | uint32(p[7])
		if a == 0 {
			continue
		}
		for c := 0; c < 3; c++ {
			v := uint32(p[2*c])<<8 | uint32(p[2*c+1])
			v = min(0xffff, (v*0xffff+a/2)/a)
			dst.Pix[i+c] = uint8((v*255 + 0x7fff) / 0xffff)
		}
		dst.Pix[i+3] = uint8((a*255 + 0x7fff) / 0xffff)
	}
	return dst
}

// Low-colour classification (spec 2.5).
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
