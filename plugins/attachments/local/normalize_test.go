package local

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// admit prepares one image with the store's limits (no storage).
func admit(t *testing.T, s *Store, data []byte, mt attachments.MediaType) (prepared, error) {
	t.Helper()
	return prepare(context.Background(), attachments.SaveImage{Data: data, MediaType: mt}, s.limits, s.policy, s.memory)
}

// mustAdmit prepares and asserts the invariants every stored image keeps
// (docs/attachments.md "Normalization"): id = sha256 of the bytes, single
// frame, no metadata, 8-bit sRGB, within both normalization limits, facts
// match the ref.
func mustAdmit(t *testing.T, s *Store, data []byte, mt attachments.MediaType) (prepared, facts, image.Image) {
	t.Helper()
	p, err := admit(t, s, data, mt)
	require.NoError(t, err)
	assert.Equal(t, sha(p.data), string(p.ref.AttachmentID))
	f, img := decodedFacts(t, p.data)
	assert.Equal(t, p.ref.MediaType, f.mediaType)
	assert.Equal(t, []int{p.ref.Width, p.ref.Height, p.ref.Bytes}, []int{f.width, f.height, len(p.data)})
	assert.False(t, f.animated || f.metadata, "single frame, no metadata")
	assert.Equal(t, "uchar", f.depth)
	assert.Equal(t, "srgb", f.space)
	assert.LessOrEqual(t, len(p.data), s.policy.MaxBytes)
	assert.LessOrEqual(t, max(f.width, f.height), s.policy.MaxDimension)
	// Determinism: the same input gives the same id.
	again, err := admit(t, s, data, mt)
	require.NoError(t, err)
	assert.Equal(t, p.ref.AttachmentID, again.ref.AttachmentID)
	return p, f, img
}

func withPolicy(dim, maxBytes int) func(*Config) {
	return func(c *Config) {
		if dim > 0 {
			c.NormalizedImageMaxDimension = dim
		}
		if maxBytes > 0 {
			c.NormalizedImageMaxBytes = maxBytes
		}
	}
}

// Clean sources pass through byte-identically and keep the upload's hash as
// id (pHYs and JFIF density are not metadata).
func TestPassThroughIsByteIdentical(t *testing.T) {
	s := newStore(t)
	rgbaNoise := noise(64, 32, 1, false)
	rgba6 := rawPNG(64, 32, 8, 6, func(x, y int) []byte {
		i := rgbaNoise.PixOffset(x, y)
		return rgbaNoise.Pix[i : i+4]
	})
	jfif := withJPEGSegment(encJPEG(t, photo(30, 20), 90), 0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00"))
	cases := map[string]struct {
		data []byte
		mt   attachments.MediaType
		id   string
	}{
		"png90 (pHYs)":               {png90, "image/png", png90ID},
		"png69":                      {png69, "image/png", png69ID},
		"64x32 noise RGBA alpha 255": {rgba6, "image/png", sha(rgba6)},
		"palette png":                {encPNG(t, opaquePaletted(5, 5)), "image/png", ""},
		"interlaced png":             {interlaced1x1(), "image/png", ""},
		"rgba png":                   {encPNG(t, noise(20, 10, 2, true)), "image/png", ""},
		"jpeg with JFIF":             {jfif, "image/jpeg", sha(jfif)},
		"webp lossy":                 {readTestdata(t, "blue-purple-pink.lossy.webp"), "image/webp", ""},
		"webp lossy alpha":           {readTestdata(t, "yellow_rose.lossy-with-alpha.webp"), "image/webp", ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := admit(t, s, c.data, c.mt)
			require.NoError(t, err)
			assert.Equal(t, c.data, p.data)
			assert.Equal(t, sha(c.data), string(p.ref.AttachmentID))
			if c.id != "" {
				assert.Equal(t, c.id, string(p.ref.AttachmentID))
			}
			assert.Nil(t, p.ref.OriginalDimensions)
		})
	}
	assert.Greater(t, len(rgba6), 6000, "the 64x32 noise fixture is ~8 KB")
}

// A worked outcome: 4×4 flat PNG with maxDimension 2 ⇒ 2×2
// palette PNG, originalDimensions 4×4.
func TestFlatPNGDownscaledToPalettePNG(t *testing.T) {
	s := newStore(t, withPolicy(2, 0))
	src := encPNG(t, flat(4, 4, color.NRGBA{9, 9, 9, 255}))
	p, f, img := mustAdmit(t, s, src, "image/png")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.Equal(t, []int{2, 2}, []int{p.ref.Width, p.ref.Height})
	assert.Equal(t, &attachments.Dimensions{Width: 4, Height: 4}, p.ref.OriginalDimensions)
	assert.False(t, f.hasAlpha)
	_, isPal := img.(*image.Paletted)
	assert.True(t, isPal, "low colour opaque ⇒ palette PNG")
	assert.Equal(t, color.NRGBA{9, 9, 9, 255}, color.NRGBAModel.Convert(img.At(1, 1)))
}

// A 7×5 16-bit PNG is re-encoded as 8-bit
// sRGB; 3 channels ⇒ no alpha, 4 channels ⇒ alpha kept.
func TestSixteenBitPNG(t *testing.T) {
	s := newStore(t)
	for _, ch := range []int{3, 4} {
		src := rawPNG(7, 5, 16, map[int]byte{3: 2, 4: 6}[ch], func(x, y int) []byte {
			if ch == 3 {
				return rgba16(3084, 8738, 14392)
			}
			return rgba16(3084, 8738, 14392, 32768)
		})
		p, f, img := mustAdmit(t, s, src, "image/png")
		assert.NotEqual(t, src, p.data)
		assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType, "low colour ⇒ PNG")
		assert.Equal(t, ch == 4, f.hasAlpha)
		assert.Nil(t, p.ref.OriginalDimensions)
		want := color.NRGBA{12, 34, 56, 255}
		if ch == 4 {
			want.A = 128
		}
		assert.Equal(t, want, color.NRGBAModel.Convert(img.At(3, 2)), "high byte of each sample")
	}
}

// A worked outcome: the 90-byte PNG under
// normalizedImageMaxBytes 1 ⇒ not pass-through, every candidate over 1 byte
// down to 1×1 ⇒ IMAGE_TOO_LARGE.
func TestNothingFitsIsImageTooLarge(t *testing.T) {
	s := newStore(t, withPolicy(0, 1))
	_, err := admit(t, s, png90, "image/png")
	assert.True(t, errorIsExactly(err, attachments.CodeImageTooLarge, attachments.MsgNormalizedTooLarge), "%v", err)
	// A larger image shrinks all the way down before failing.
	_, err = admit(t, s, encJPEG(t, photo(300, 200), 90), "image/jpeg")
	assert.True(t, errorIsExactly(err, attachments.CodeImageTooLarge, attachments.MsgNormalizedTooLarge), "%v", err)
}

// Greyscale never passes through; it becomes 3-channel sRGB
// and, being low colour, a palette PNG.
func TestGreyscaleIsConverted(t *testing.T) {
	s := newStore(t)
	g := image.NewGray(image.Rect(0, 0, 16, 16))
	for i := range g.Pix {
		g.Pix[i] = uint8(i)
	}
	src := encPNG(t, g)
	p, f, img := mustAdmit(t, s, src, "image/png")
	assert.NotEqual(t, src, p.data)
	assert.Equal(t, "srgb", f.space)
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.Equal(t, color.NRGBA{17, 17, 17, 255}, color.NRGBAModel.Convert(img.At(1, 1)))
	// Greyscale JPEG too (opaque, low colour ⇒ PNG).
	p, _, _ = mustAdmit(t, s, encJPEG(t, g, 95), "image/jpeg")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
}

// An orientation tag forces conversion even when it is 1; the
// limits and the stored size use oriented dimensions.
func TestOrientation(t *testing.T) {
	s := newStore(t)
	base := photo(40, 20)
	// Mark the top-left corner pure red, big enough to survive JPEG.
	for y := 0; y < 6; y++ {
		for x := 0; x < 6; x++ {
			i := base.PixOffset(x, y)
			copy(base.Pix[i:i+4], []byte{255, 0, 0, 255})
		}
	}
	j := encJPEG(t, base, 95)
	exif := func(o int) []byte {
		return withJPEGSegment(j, 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(o, false)...))
	}

	p, _, _ := mustAdmit(t, s, exif(1), "image/jpeg")
	assert.NotEqual(t, sha(exif(1)), string(p.ref.AttachmentID), "orientation 1 still converts")
	assert.Equal(t, []int{40, 20}, []int{p.ref.Width, p.ref.Height})
	assert.Nil(t, p.ref.OriginalDimensions, "orientation alone never sets originalDimensions")

	p, _, img := mustAdmit(t, s, exif(6), "image/jpeg")
	assert.Equal(t, []int{20, 40}, []int{p.ref.Width, p.ref.Height})
	assert.Nil(t, p.ref.OriginalDimensions)
	// Rotated 90° clockwise: the red corner moves to the top right.
	r, g, b, _ := img.At(17, 2).RGBA()
	assert.True(t, r>>8 > 200 && g>>8 < 60 && b>>8 < 60, "top-right is red: %d %d %d", r>>8, g>>8, b>>8)

	// Limits use oriented dimensions: 40×20 stored, 20×40 shown.
	tight := newStore(t, func(c *Config) { c.MaxImageDimension = 39 })
	_, err := admit(t, tight, exif(6), "image/jpeg")
	assert.True(t, errorIsExactly(err, attachments.CodeImageDimensionTooLarge, attachments.MsgImageDimensionTooLarge), "%v", err)
	// originalDimensions is the oriented size when a rotated image shrinks.
	small := newStore(t, withPolicy(10, 0))
	p, _, _ = mustAdmit(t, small, exif(8), "image/jpeg")
	assert.Equal(t, []int{5, 10}, []int{p.ref.Width, p.ref.Height})
	assert.Equal(t, &attachments.Dimensions{Width: 20, Height: 40}, p.ref.OriginalDimensions)
}

// The eight EXIF transforms on a 3×2 image with distinct pixels.
func TestOrientTransforms(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := 0; i < 6; i++ {
		src.Pix[4*i] = uint8(i + 1) // pixel (x,y) = y*3+x+1
	}
	at := func(m *image.NRGBA, x, y int) uint8 { return m.Pix[m.PixOffset(x, y)] }
	// Expected displayed rows (values), by orientation.
	want := map[int][][]uint8{
		1: {{1, 2, 3}, {4, 5, 6}},
		2: {{3, 2, 1}, {6, 5, 4}},
		3: {{6, 5, 4}, {3, 2, 1}},
		4: {{4, 5, 6}, {1, 2, 3}},
		5: {{1, 4}, {2, 5}, {3, 6}},
		6: {{4, 1}, {5, 2}, {6, 3}},
		7: {{6, 3}, {5, 2}, {4, 1}},
		8: {{3, 6}, {2, 5}, {1, 4}},
	}
	for o, rows := range want {
		got := orient(src, o)
		var g [][]uint8
		for y := 0; y < got.Rect.Dy(); y++ {
			var row []uint8
			for x := 0; x < got.Rect.Dx(); x++ {
				row = append(row, at(got, x, y))
			}
			g = append(g, row)
		}
		assert.Equal(t, rows, g, "orientation %d", o)
	}
}

// The candidate classes: non-low-colour opaque ⇒ JPEG; low-colour opaque ⇒
// PNG; alpha is never flattened.
func TestCandidateClasses(t *testing.T) {
	s := newStore(t, withPolicy(64, 0))
	// Opaque noise over the long-edge cap ⇒ JPEG.
	p, f, _ := mustAdmit(t, s, encPNG(t, noise(100, 50, 3, false)), "image/png")
	assert.Equal(t, attachments.MediaTypeJPEG, p.ref.MediaType)
	assert.False(t, f.hasAlpha)
	assert.Equal(t, &attachments.Dimensions{Width: 100, Height: 50}, p.ref.OriginalDimensions)
	assert.Equal(t, []int{64, 32}, []int{p.ref.Width, p.ref.Height})
	// Alpha noise ⇒ PNG with alpha (the WebP replacement).
	p, f, _ = mustAdmit(t, s, encPNG(t, noise(100, 50, 4, true)), "image/png")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.True(t, f.hasAlpha)
	// Flat with alpha ⇒ truecolour RGBA PNG (palette only without alpha).
	p, f, img := mustAdmit(t, s, encPNG(t, flat(100, 50, color.NRGBA{200, 10, 10, 100})), "image/png")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.True(t, f.hasAlpha)
	_, isPal := img.(*image.Paletted)
	assert.False(t, isPal)
	assert.Equal(t, color.NRGBA{200, 10, 10, 100}, color.NRGBAModel.Convert(img.At(10, 10)))
	// A declared-alpha source whose pixels are all opaque keeps alpha.
	p, f, _ = mustAdmit(t, s, rawPNG(80, 40, 8, 6, func(x, y int) []byte { return []byte{1, 2, 3, 255} }), "image/png")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.True(t, f.hasAlpha, "PNG output may not drop alpha")
}

// GIF never passes through; an animated GIF keeps only its first frame; a
// frame smaller than the logical screen sits on a transparent canvas.
func TestGIF(t *testing.T) {
	s := newStore(t)
	src := encGIF(t, paletted(6, 4, 0))
	p, _, img := mustAdmit(t, s, src, "image/gif")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, color.NRGBAModel.Convert(img.At(2, 2)))

	anim := encGIF(t, paletted(6, 4, 1), paletted(6, 4, 0))
	p, _, img = mustAdmit(t, s, anim, "image/gif")
	assert.Equal(t, []int{6, 4}, []int{p.ref.Width, p.ref.Height})
	assert.Equal(t, color.NRGBA{0, 0, 255, 255}, color.NRGBAModel.Convert(img.At(0, 0)), "first frame only")

	// A 2×2 first frame at (1,1) inside a 6×4 screen.
	small := image.NewPaletted(image.Rect(1, 1, 3, 3), paletted(1, 1, 0).Palette)
	var b bytes.Buffer
	require.NoError(t, gifEncodeScreen(&b, small, 6, 4))
	p, f, img := mustAdmit(t, s, b.Bytes(), "image/gif")
	assert.Equal(t, []int{6, 4}, []int{p.ref.Width, p.ref.Height})
	assert.True(t, f.hasAlpha)
	assert.Equal(t, uint8(0), color.NRGBAModel.Convert(img.At(0, 0)).(color.NRGBA).A, "outside the frame is transparent")
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, color.NRGBAModel.Convert(img.At(1, 1)))
}

// WebP with metadata converts; animated WebP cannot be decoded by
// x/image/webp and is refused (documented divergence).
func TestWebPSources(t *testing.T) {
	s := newStore(t)
	p, f, _ := mustAdmit(t, s, readTestdata(t, "gopher-doc.with-alpha.lossless.webp"), "image/webp")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType, "ICC forces conversion; alpha ⇒ PNG")
	assert.True(t, f.hasAlpha)

	lossy := readTestdata(t, "blue-purple-pink.lossy.webp")
	exif := webpFile([2][]byte{[]byte("VP8X"), {0x08, 0, 0, 0, 149, 0, 0, 99, 0, 0}}, [2][]byte{[]byte("VP8 "), webpChunk(t, lossy, "VP8 ")}, [2][]byte{[]byte("EXIF"), exifTIFF(6, false)})
	p, _, _ = mustAdmit(t, s, exif, "image/webp")
	assert.Equal(t, []int{100, 150}, []int{p.ref.Width, p.ref.Height}, "oriented")

	// Animated WebP: only the first frame is decoded, drawn at its offset on
	// a transparent canvas.
	vp8 := webpChunk(t, lossy, "VP8 ")
	anmf := func(x, y int, chunks ...[2][]byte) []byte {
		h := []byte{byte(x / 2), 0, 0, byte(y / 2), 0, 0, 149, 0, 0, 99, 0, 0, 100, 0, 0, 0}
		return append(h, webpFile(chunks...)[12:]...)
	}
	vp8x := func(w, h int) []byte {
		return []byte{0x02 | 0x10, 0, 0, 0, byte(w - 1), byte((w - 1) >> 8), 0, byte(h - 1), byte((h - 1) >> 8), 0}
	}
	anim := webpFile([2][]byte{[]byte("VP8X"), vp8x(150, 100)}, [2][]byte{[]byte("ANIM"), make([]byte, 6)},
		[2][]byte{[]byte("ANMF"), anmf(0, 0, [2][]byte{[]byte("VP8 "), vp8})},
		[2][]byte{[]byte("ANMF"), make([]byte, 16)})
	p, _, img := mustAdmit(t, s, anim, "image/webp")
	assert.Equal(t, []int{150, 100}, []int{p.ref.Width, p.ref.Height})
	_, want := decodedFacts(t, lossy)
	wr, wg, wb, _ := want.At(75, 50).RGBA()
	gr, gg, gb, _ := img.At(75, 50).RGBA()
	assert.InDelta(t, float64(wr>>8), float64(gr>>8), 24)
	assert.InDelta(t, float64(wg>>8), float64(gg>>8), 24)
	assert.InDelta(t, float64(wb>>8), float64(gb>>8), 24)
	offset := webpFile([2][]byte{[]byte("VP8X"), vp8x(170, 120)}, [2][]byte{[]byte("ANIM"), make([]byte, 6)},
		[2][]byte{[]byte("ANMF"), anmf(10, 20, [2][]byte{[]byte("VP8 "), vp8})})
	p, f, img = mustAdmit(t, s, offset, "image/webp")
	assert.Equal(t, []int{170, 120}, []int{p.ref.Width, p.ref.Height})
	assert.True(t, f.hasAlpha)
	assert.Equal(t, uint8(0), color.NRGBAModel.Convert(img.At(2, 2)).(color.NRGBA).A, "outside the frame is transparent")
	assert.Equal(t, uint8(255), color.NRGBAModel.Convert(img.At(80, 70)).(color.NRGBA).A)
	// A frame outside the canvas, or an animation without frame data, is
	// INVALID_IMAGE.
	for _, bad := range [][]byte{
		webpFile([2][]byte{[]byte("VP8X"), vp8x(100, 100)}, [2][]byte{[]byte("ANMF"), anmf(0, 0, [2][]byte{[]byte("VP8 "), vp8})}),
		webpFile([2][]byte{[]byte("VP8X"), vp8x(150, 100)}, [2][]byte{[]byte("ANIM"), make([]byte, 6)}, [2][]byte{[]byte("ANMF"), make([]byte, 16)}, [2][]byte{[]byte("ANMF"), make([]byte, 16)}),
	} {
		_, err := admit(t, s, bad, "image/webp")
		assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "%v", err)
	}
}

// The byte-budget loop shrinks until the cap holds, and the
// shrink sets originalDimensions.
func TestByteBudgetLoop(t *testing.T) {
	s := newStore(t, withPolicy(0, 6000))
	src := encPNG(t, noise(300, 200, 5, false))
	p, _, _ := mustAdmit(t, s, src, "image/png")
	assert.Equal(t, attachments.MediaTypeJPEG, p.ref.MediaType)
	assert.Less(t, p.ref.Width, 300)
	assert.Equal(t, &attachments.Dimensions{Width: 300, Height: 200}, p.ref.OriginalDimensions)

	// Alpha noise shrinks with PNG candidates.
	p, f, _ := mustAdmit(t, s, encPNG(t, noise(120, 80, 6, true)), "image/png")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	assert.True(t, f.hasAlpha)
	assert.NotNil(t, p.ref.OriginalDimensions)
}
