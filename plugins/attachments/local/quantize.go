package local

import (
	"image"
	"image/color"
	"slices"
)

// palettize maps img onto at most maxColours colours. An image with at most
// maxColours distinct colours gets its exact palette (lossless, in order of
// first occurrence); otherwise a median cut over 5-bit RGBA keys builds the
// palette and every pixel takes its nearest entry (no dithering, so the
// result is deterministic and cheap). With reserveTransparent the palette
// is guaranteed to hold a fully transparent entry, so the PNG encoder
// writes tRNS and the output keeps an alpha channel.
func palettize(img *image.NRGBA, maxColours int, reserveTransparent bool) *image.Paletted {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	dst := image.NewPaletted(image.Rect(0, 0, w, h), nil)
	if exactPalette(img, dst, maxColours) {
		if reserveTransparent && !hasTransparentEntry(dst.Palette) {
			if len(dst.Palette) < 256 {
				dst.Palette = append(dst.Palette, color.NRGBA{})
				return dst
			}
		} else {
			return dst
		}
	}
	n := maxColours
	if reserveTransparent {
		n--
	}
	medianCut(img, dst, n)
	if reserveTransparent && !hasTransparentEntry(dst.Palette) {
		dst.Palette = append(dst.Palette, color.NRGBA{})
	}
	return dst
}

func hasTransparentEntry(p color.Palette) bool {
	for _, c := range p {
		if c.(color.NRGBA).A != 0xff {
			return true
		}
	}
	return false
}

// exactPalette fills dst when img has at most maxColours distinct colours.
func exactPalette(img *image.NRGBA, dst *image.Paletted, maxColours int) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	index := make(map[uint32]uint8, maxColours)
	var pal color.Palette
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		out := dst.Pix[y*dst.Stride:]
		for x := 0; x < w; x++ {
			p := row[4*x : 4*x+4 : 4*x+4]
			k := uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
			i, ok := index[k]
			if !ok {
				if len(pal) == maxColours {
					return false
				}
				i = uint8(len(pal))
				index[k] = i
				pal = append(pal, color.NRGBA{p[0], p[1], p[2], p[3]})
			}
			out[x] = i
		}
	}
	dst.Palette = pal
	return true
}

// key5 packs the top five bits of each channel.
func key5(r, g, b, a uint8) uint32 {
	return uint32(r>>3)<<15 | uint32(g>>3)<<10 | uint32(b>>3)<<5 | uint32(a>>3)
}

// expand5 maps a 5-bit channel back to 8 bits (0 -> 0, 31 -> 255).
func expand5(v uint32) uint8 { v &= 31; return uint8(v<<3 | v>>2) }

type cutEntry struct {
	ch    [4]uint8 // expanded 8-bit channels of the key
	count uint32
}

// medianCut builds an n-colour palette by recursively splitting the most
// spread box at its weighted median, then maps every pixel to its nearest
// palette entry through a per-key cache.
func medianCut(img *image.NRGBA, dst *image.Paletted, n int) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	counts := make([]uint32, 1<<20)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			counts[key5(row[4*x], row[4*x+1], row[4*x+2], row[4*x+3])]++
		}
	}
	var entries []cutEntry
	for k, c := range counts {
		if c > 0 {
			k := uint32(k)
			entries = append(entries, cutEntry{[4]uint8{expand5(k >> 15), expand5(k >> 10), expand5(k >> 5), expand5(k)}, c})
		}
	}
	boxes := [][]cutEntry{entries}
	for len(boxes) < n {
		best, bestRange, bestCh := -1, 0, 0
		for i, b := range boxes {
			if len(b) < 2 {
				continue
			}
			ch, r := widestChannel(b)
			if r > bestRange {
				best, bestRange, bestCh = i, r, ch
			}
		}
		if best < 0 {
			break
		}
		b := boxes[best]
		slices.SortStableFunc(b, func(x, y cutEntry) int { return int(x.ch[bestCh]) - int(y.ch[bestCh]) })
		var total, acc uint64
		for _, e := range b {
			total += uint64(e.count)
		}
		cut := 1
		for i, e := range b[:len(b)-1] {
			acc += uint64(e.count)
			cut = i + 1
			if 2*acc >= total {
				break
			}
		}
		boxes[best] = b[:cut:cut]
		boxes = append(boxes, b[cut:])
	}
	pal := make(color.Palette, len(boxes))
	for i, b := range boxes {
		var sum [4]uint64
		var total uint64
		for _, e := range b {
			for c := range 4 {
				sum[c] += uint64(e.ch[c]) * uint64(e.count)
			}
			total += uint64(e.count)
		}
		var c [4]uint8
		for j := range 4 {
			c[j] = uint8((sum[j] + total/2) / total)
		}
		pal[i] = color.NRGBA{c[0], c[1], c[2], c[3]}
	}
	dst.Palette = pal
	cache := make([]int16, 1<<20)
	for i := range cache {
		cache[i] = -1
	}
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		out := dst.Pix[y*dst.Stride:]
		for x := 0; x < w; x++ {
			k := key5(row[4*x], row[4*x+1], row[4*x+2], row[4*x+3])
			if cache[k] < 0 {
				cache[k] = int16(nearest(pal, row[4*x:4*x+4]))
			}
			out[x] = uint8(cache[k])
		}
	}
}

// widestChannel returns the channel with the largest value range in b.
func widestChannel(b []cutEntry) (int, int) {
	lo := [4]uint8{255, 255, 255, 255}
	var hi [4]uint8
	for _, e := range b {
		for c := range 4 {
			lo[c] = min(lo[c], e.ch[c])
			hi[c] = max(hi[c], e.ch[c])
		}
	}
	ch, r := 0, -1
	for c := range 4 {
		if d := int(hi[c]) - int(lo[c]); d > r {
			ch, r = c, d
		}
	}
	return ch, r
}

// nearest returns the index of the palette entry closest to p (squared
// distance over R, G, B and A; ties go to the lower index).
func nearest(pal color.Palette, p []uint8) int {
	best, bestD := 0, int(^uint(0)>>1)
	for i, c := range pal {
		n := c.(color.NRGBA)
		d := sq(int(n.R)-int(p[0])) + sq(int(n.G)-int(p[1])) + sq(int(n.B)-int(p[2])) + sq(int(n.A)-int(p[3]))
		if d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

func sq(v int) int { return v * v }
