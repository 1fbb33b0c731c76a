package local

import (
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// The estimate covers what an admission really allocates (garbage
// included), for every decoded form, and stays within a small factor of
// it. docs/attachments.md records the same comparison against the peak
// RSS of 64-megapixel sources.
func TestHeavyEstimateCoversAllocations(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("encodes ten 4-megapixel sources; run without -race and -short (scripts/check does)")
	}
	const w, h = 2400, 1800
	s := newStore(t)
	rgb := image.NewRGBA(image.Rect(0, 0, w, h))
	copy(rgb.Pix, photo(w, h).Pix)
	gray := image.NewGray(image.Rect(0, 0, w, h))
	gray16 := image.NewGray16(image.Rect(0, 0, w, h))
	rgba64 := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			gray.SetGray(x, y, color.Gray{uint8(x)})
			gray16.SetGray16(x, y, color.Gray16{uint16(x * 7)})
			rgba64.SetNRGBA64(x, y, color.NRGBA64{uint16(x * 9), uint16(y * 5), 0x4000, 0xffff})
		}
	}
	jpg := encJPEG(t, photo(w, h), 85)
	cases := map[string][]byte{
		"png rgb8":          encPNG(t, rgb),
		"png rgba8":         encPNG(t, photoAlpha(w, h)),
		"png grey8":         encPNG(t, gray),
		"png grey16":        encPNG(t, gray16),
		"png rgba16":        encPNG(t, rgba64),
		"png palette":       encPNG(t, opaquePaletted(w, h)),
		"jpeg 4:2:0":        jpg,
		"jpeg orientation6": withJPEGSegment(jpg, 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(6, false)...)),
		"jpeg grey":         encJPEG(t, gray, 85),
		"gif":               encGIF(t, opaquePaletted(w, h)),
	}
	// Decoded at 1/2 and 1/8 (shrink-on-load), by stores whose target is
	// that small.
	scaled := map[string]*Store{"jpeg 4:2:0 at 1/2": newStore(t, withPolicy(1024, 0)), "jpeg grey at 1/8": newStore(t, withPolicy(300, 0))}
	cases["jpeg 4:2:0 at 1/2"], cases["jpeg grey at 1/8"] = jpg, cases["jpeg grey"]
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			s := s
			if o, ok := scaled[name]; ok {
				s = o
			}
			f, err := inspect(data)
			require.NoError(t, err)
			est := transformMemory(f, len(data), s.policy)
			var p prepared
			n := allocatedDuring(func() { p, err = admit(t, s, data, f.mediaType) })
			require.NoError(t, err)
			require.NotEmpty(t, p.data)
			t.Logf("%s: allocated %d MiB, estimate %d MiB", name, n>>20, est>>20)
			assert.GreaterOrEqual(t, est, int64(n), "the estimate covers the allocations")
			assert.LessOrEqual(t, est, 3*int64(n)+transformOverhead, "the estimate stays close")
		})
	}
}

// No source within the default admission limits is refused by the default
// budget: the worst decoded forms at 64 megapixels (with an orientation
// tag, which adds a rotated copy) all fit.
func TestDefaultBudgetAdmitsEveryAdmissibleImage(t *testing.T) {
	const w, h = 8000, 8000 // 64,000,000 px, the default pixel limit
	require.LessOrEqual(t, w*h, DefaultMaxImagePixels)
	full := []jpegComp{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {4, 1, 1}}
	worst := map[string]facts{
		"progressive CMYK JPEG": {mediaType: attachments.MediaTypeJPEG, layout: layout{jpegSOF: 0xC2, jpegComps: full}},
		"progressive RGB JPEG":  {mediaType: attachments.MediaTypeJPEG, layout: layout{jpegSOF: 0xC2, jpegComps: full[:3], adobe: true}},
		"interlaced RGBA16 PNG": {mediaType: attachments.MediaTypePNG, hasAlpha: true, layout: layout{pngColourType: 6, pngBitDepth: 16, interlaced: true}},
		"lossless WebP":         {mediaType: attachments.MediaTypeWebP, hasAlpha: true, layout: layout{webpLossless: true}},
		"animated lossy WebP":   {mediaType: attachments.MediaTypeWebP, hasAlpha: true, webpFrames: 2, layout: layout{webpALPH: true}},
		"GIF":                   {mediaType: attachments.MediaTypeGIF, hasAlpha: true},
	}
	for name, f := range worst {
		f.rawW, f.rawH, f.width, f.height, f.orientation, f.metadata = w, h, h, w, 6, true
		est := transformMemory(f, DefaultMaxImageBytes, defaultPolicy)
		t.Logf("%s: %d MiB", name, est>>20)
		assert.LessOrEqual(t, est, int64(DefaultImageTransformMemoryBytes), name)
	}
}
