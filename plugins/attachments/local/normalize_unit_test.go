package local

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

func TestShrinkBox(t *testing.T) {
	// Over budget by 4×: sqrt(1/4)*0.95 = 0.475.
	w, h := shrinkBox(1000, 500, 1000, 4000)
	assert.Equal(t, []int{475, 237}, []int{w, h})
	// Barely over budget: the 0.9 cap applies.
	w, h = shrinkBox(100, 51, 1000, 1001)
	assert.Equal(t, []int{90, 45}, []int{w, h})
	// Never below 1.
	w, h = shrinkBox(3, 1, 1, 1_000_000)
	assert.Equal(t, []int{1, 1}, []int{w, h})
}

func TestTargetSizeAndFitInside(t *testing.T) {
	for _, c := range []struct{ w, h, dim, ww, wh int }{
		{4, 4, 2, 2, 2}, {10, 6, 5, 5, 3}, {64, 32, 32, 32, 16}, {3, 1000, 10, 1, 10}, {100, 50, 200, 100, 50},
	} {
		w, h := targetSize(c.w, c.h, c.dim)
		assert.Equal(t, []int{c.ww, c.wh}, []int{w, h}, "%+v", c)
	}
	for _, c := range []struct{ w, h, bw, bh, ww, wh int }{
		{300, 200, 270, 180, 270, 180}, {300, 200, 100, 100, 100, 67}, {200, 300, 100, 100, 67, 100},
		{10, 10, 20, 20, 10, 10}, {1000, 1, 10, 10, 10, 1}, {3, 2, 1, 1, 1, 1},
	} {
		w, h := fitInside(c.w, c.h, c.bw, c.bh)
		assert.Equal(t, []int{c.ww, c.wh}, []int{w, h}, "%+v", c)
	}
}

// The ladder is lazy and "smallest" is replaced only by a strictly smaller
// output.
func TestRunLadderLazyAndStrictlySmaller(t *testing.T) {
	var calls []int
	cand := func(i, n int) candidate {
		return func(*image.NRGBA) (encoded, error) {
			calls = append(calls, i)
			return encoded{data: make([]byte, n)}, nil
		}
	}
	fit, smallest, err := runLadder([]candidate{cand(0, 50), cand(1, 10), cand(2, 5)}, nil, 10)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, calls, "no candidate after the first fit")
	assert.Len(t, fit.data, 10)
	assert.Nil(t, smallest)

	calls = nil
	first := cand(0, 20)
	fit, smallest, err = runLadder([]candidate{cand(0, 30), first, cand(2, 20), cand(3, 25)}, nil, 10)
	require.NoError(t, err)
	assert.Nil(t, fit)
	assert.Equal(t, []int{0, 0, 2, 3}, calls)
	assert.Len(t, smallest.data, 20)

	boom := errors.New("encoder failed")
	_, _, err = runLadder([]candidate{func(*image.NRGBA) (encoded, error) { return encoded{}, boom }}, nil, 10)
	assert.Same(t, boom, err)
}

// Few colours (docs/attachments.md "Normalization"): nearest-neighbour
// sampling, 5-bit keys with alpha, ≤ 256.
func TestLowColour(t *testing.T) {
	grey := image.NewNRGBA(image.Rect(0, 0, 256, 1))
	for x := 0; x < 256; x++ {
		copy(grey.Pix[4*x:], []byte{uint8(x), uint8(x), uint8(x), 255})
	}
	assert.True(t, lowColour(grey), "any opaque greyscale is ≤ 32 keys")
	assert.False(t, lowColour(noise(64, 64, 9, false)))
	// A 1-pixel checkerboard stays two colours: no averaging.
	check := image.NewNRGBA(image.Rect(0, 0, 1001, 999))
	for y := 0; y < 999; y++ {
		for x := 0; x < 1001; x++ {
			v := uint8(0)
			if (x+y)%2 == 0 {
				v = 255
			}
			copy(check.Pix[check.PixOffset(x, y):], []byte{v, 0, 255 - v, 255})
		}
	}
	assert.True(t, lowColour(check))
	// Exactly 256 keys is low colour, 257 is not; alpha is part of the key.
	m := image.NewNRGBA(image.Rect(0, 0, 16, 17))
	for i := 0; i < 16*17; i++ {
		k := i
		if i >= 256 {
			k = 0 // the last row repeats pixel 0
		}
		copy(m.Pix[4*i:], []byte{uint8(k%32) << 3, uint8(k/32) << 3, 7, 255})
	}
	assert.True(t, lowColour(m), "256 keys")
	m.Pix[4*260+3] = 0x80 // same R,G,B as pixel 0, new alpha key
	assert.False(t, lowColour(m), "257 keys")
}

func TestConversionSourceNames(t *testing.T) {
	for _, c := range []struct {
		mt    attachments.MediaType
		depth string
		want  string
	}{
		{"image/png", "ushort", "16-bit PNG"},
		{"image/png", "float", "float PNG"},
		{"image/png", "uchar", "uchar PNG"},
		{"image/jpeg", "uchar", "uchar JPEG"},
		{"image/webp", "uchar", "uchar WEBP"},
		{"image/gif", "uchar", "uchar GIF"},
	} {
		assert.Equal(t, c.want, conversionSource(facts{mediaType: c.mt, depth: c.depth}))
	}
	err := attachments.ConversionFailed(conversionSource(facts{mediaType: "image/png", depth: "ushort"}), nil)
	assert.Equal(t, "The 16-bit PNG could not be converted to the normalized 8-bit sRGB form.", err.Error())
}

// Alpha compatibility and the self-check (docs/attachments.md
// "Normalization", Check).
func TestVerifyNormalized(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		expected *bool
		out      facts
		ok       bool
	}{
		{nil, facts{hasAlpha: true}, true},
		{nil, facts{hasAlpha: false}, true},
		{&yes, facts{hasAlpha: true, mediaType: "image/png"}, true},
		{&no, facts{hasAlpha: false, mediaType: "image/jpeg"}, true},
		{&yes, facts{hasAlpha: false, mediaType: "image/webp"}, true},
		{&yes, facts{hasAlpha: false, mediaType: "image/jpeg"}, false},
		{&yes, facts{hasAlpha: false, mediaType: "image/png"}, false},
		{&no, facts{hasAlpha: true, mediaType: "image/png"}, false},
		{&no, facts{hasAlpha: true, mediaType: "image/webp"}, false},
	} {
		assert.Equal(t, c.ok, alphaCompatible(c.expected, c.out), "%+v", c)
	}

	good := encPNG(t, flat(3, 2, color.NRGBA{1, 2, 3, 255}))
	_, err := verifyNormalized(encoded{good, "image/png", 3, 2}, facts{mediaType: "image/png"})
	require.NoError(t, err)
	for name, e := range map[string]encoded{
		"size":       {good, "image/png", 3, 3},
		"media type": {good, "image/jpeg", 3, 2},
		"metadata":   {withPNGChunk(good, "tEXt", []byte("a\x00b")), "image/png", 3, 2},
		"depth":      {encPNG(t, image.NewRGBA64(image.Rect(0, 0, 3, 2))), "image/png", 3, 2},
	} {
		_, err := verifyNormalized(e, facts{mediaType: "image/png"})
		assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, attachments.MsgNormalizedSelfCheck), "%s: %v", name, err)
	}
	_, err = verifyNormalized(encoded{good, "image/png", 3, 2}, facts{mediaType: "image/png", hasAlpha: true})
	assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, attachments.MsgNormalizedSelfCheck), "lost alpha: %v", err)
	_, err = verifyNormalized(encoded{good[:len(good)-20], "image/png", 3, 2}, facts{mediaType: "image/png"})
	assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "re-decode failure: %v", err)
}

func TestPalettize(t *testing.T) {
	// Exact palette for ≤ 256 colours: lossless.
	src := noise(16, 16, 3, false)
	p := palettize(src, 256, false)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			assert.Equal(t, src.NRGBAAt(x, y), p.At(x, y))
		}
	}
	// Median cut for more colours: at most 256 entries, deterministic,
	// opaque stays opaque, and a reserved transparent entry when asked.
	big := noise(64, 64, 4, false)
	a, b := palettize(big, 256, false), palettize(big, 256, false)
	assert.LessOrEqual(t, len(a.Palette), 256)
	assert.Equal(t, a.Palette, b.Palette)
	assert.Equal(t, a.Pix, b.Pix)
	assert.False(t, hasTransparentEntry(a.Palette))
	c := palettize(big, 256, true)
	assert.LessOrEqual(t, len(c.Palette), 256)
	assert.True(t, hasTransparentEntry(c.Palette))
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, c))
	f, err := inspect(buf.Bytes())
	require.NoError(t, err)
	assert.True(t, f.hasAlpha, "tRNS written")
}
