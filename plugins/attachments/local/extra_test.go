package attachmentlocal

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

// Spec 1.7: different sources that normalize to identical bytes share one
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

// Spec 1.8: staging names are random lowercase v4 UUIDs.
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

// Spec 2.9: a non-attachment failure during conversion is
// ATTACHMENT_WRITE_FAILED with the source named; attachment errors pass.
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

// Spec 5.1 #7: low colour is decided on the source before the resize; the
// resized raster (with interpolated edge colours) still takes the palette
// PNG route.
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
