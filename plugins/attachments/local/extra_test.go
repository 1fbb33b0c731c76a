package local

import (
	"errors"
	"image"
	"image/color"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Different sources that normalize to identical bytes share one
// object.
func TestDifferentSourcesShareOneObject(t *testing.T) {
	s := newStore(t)
	base := encPNG(t, flat(6, 4, color.NRGBA{40, 50, 60, 255}))
	a := withPNGChunk(base, "tEXt", []byte("Comment\x00a"))
	b := withPNGChunk(base, "iTXt", []byte("Title\x00\x00\x00\x00\x00b"))
	ra, rb := save(t, s, a, "image/png"), save(t, s, b, "image/png")
	assert.NotEqual(t, sha(a), sha(b))
	assert.Equal(t, ra.AttachmentID, rb.AttachmentID)
	assert.Len(t, dirNames(t, filepath.Dir(objectOf(s, ra))), 1)
}

// Staging names (tmp/<uuid>, docs/attachments.md "Storage") are random
// lowercase v4 UUIDs.
func TestNewUUID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 100 {
		u := newUUID()
		assert.Regexp(t, re, u)
		assert.False(t, seen[u])
		seen[u] = true
	}
}

// docs/attachments.md "Normalization": a non-attachment failure during
// conversion is ATTACHMENT_WRITE_FAILED with the source named; attachment
// errors pass.
func TestConversionFailure(t *testing.T) {
	p := NormalizationPolicy{MaxDimension: 10, MaxBytes: 100}
	f := facts{mediaType: "image/png", width: 2, height: 2, rawW: 2, rawH: 2, depth: "ushort", space: "rgb16"}
	_, err := normalize([]byte("x"), f, nil, p) // nil image: the conversion panics
	assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, "The 16-bit PNG could not be converted to the normalized 8-bit sRGB form."), "%v", err)
	assert.Error(t, errors.Unwrap(err), "cause chained")
	f = facts{mediaType: "image/jpeg", width: 2, height: 2, rawW: 2, rawH: 2, depth: "uchar", space: "cmyk"}
	_, err = normalize([]byte("x"), f, nil, p)
	assert.EqualError(t, err, "The uchar JPEG could not be converted to the normalized 8-bit sRGB form.")
}

// Low colour is decided on the source before the resize (docs/attachments.md
// "Normalization"); the resized raster (with interpolated edge colours) still
// takes the palette PNG route.
func TestLowColourDecidedBeforeResize(t *testing.T) {
	s := newStore(t, withPolicy(50, 0))
	m := image.NewNRGBA(image.Rect(0, 0, 300, 200))
	for y := 0; y < 200; y++ {
		for x := 0; x < 300; x++ {
			c := []byte{255, 255, 255, 255}
			if (x/3+y/3)%2 == 0 {
				c = []byte{0, 0, 200, 255}
			}
			copy(m.Pix[m.PixOffset(x, y):], c)
		}
	}
	require.True(t, lowColour(m))
	resized := resize(m, 50, 33, true)
	exact := map[color.NRGBA]bool{}
	for y := 0; y < 33; y++ {
		for x := 0; x < 50; x++ {
			exact[resized.NRGBAAt(x, y)] = true
		}
	}
	require.Greater(t, len(exact), 2, "the resize creates new colours")
	p, _, img := mustAdmit(t, s, encPNG(t, m), "image/png")
	assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
	_, isPal := img.(*image.Paletted)
	assert.True(t, isPal)
}

// CMYK JPEG is converted (naive formula) to sRGB (docs/attachments.md
// "Normalization").
func TestCMYKJPEG(t *testing.T) {
	s := newStore(t)
	src := readTestdata(t, "video-001.cmyk.jpeg")
	f, _ := decodedFacts(t, src)
	require.Equal(t, "cmyk", f.space)
	p, _, _ := mustAdmit(t, s, src, "image/jpeg")
	assert.NotEqual(t, sha(src), string(p.ref.AttachmentID))
	assert.Equal(t, []int{150, 103}, []int{p.ref.Width, p.ref.Height})
}

// The full decode of docs/attachments.md "Admission" (step 6) is strict: it
// refuses truncation (image/jpeg fails on a missing EOI or a cut scan,
// progressive or baseline); an EXIF thumbnail's own EOI does not make a
// truncated image complete.
func TestTruncatedJPEGIsInvalid(t *testing.T) {
	s := newStore(t)
	prog := readTestdata(t, "video-001.q50.420.progressive.jpeg")
	full := encJPEG(t, photo(64, 48), 90)
	thumb := encJPEG(t, photo(8, 6), 50)
	withThumb := withJPEGSegment(full, 0xE1, append([]byte("Exif\x00\x00"), append(exifTIFF(1, false), thumb...)...))
	_, err := admit(t, s, withThumb, "image/jpeg")
	require.NoError(t, err)
	for _, b := range [][]byte{prog, full, withThumb} {
		for _, cut := range []int{2, 1, len(b) / 3} {
			_, err := admit(t, s, b[:len(b)-cut], "image/jpeg")
			assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "cut %d: %v", cut, err)
		}
	}
}

// An interlaced GIF decodes and converts like any GIF.
func TestInterlacedGIF(t *testing.T) {
	s := newStore(t)
	p, _, _ := mustAdmit(t, s, readTestdata(t, "video-001.interlaced.gif"), "image/gif")
	assert.Equal(t, []int{150, 103}, []int{p.ref.Width, p.ref.Height})
}
