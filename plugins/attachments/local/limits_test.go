package local

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// docs/attachments.md "Configuration", "Admission" and "Normalization": every
// limit admits a source exactly at it and refuses (or, for the normalization
// limits, converts) one just past it. The source is a clean 8-bit RGB PNG of
// w×h.
func TestEveryLimitAtAndOnePast(t *testing.T) {
	src := func(w, h int) []byte { return encPNG(t, flat(w, h, color.NRGBA{10, 200, 30, 255})) }
	six := src(3, 2) // 6 pixels, long side 3
	n := len(six)
	refused := func(code attachments.Code, msg string) func(*testing.T, prepared, error) {
		return func(t *testing.T, _ prepared, err error) {
			assert.True(t, errorIsExactly(err, code, msg), "%v", err)
		}
	}
	passes := func(t *testing.T, p prepared, err error) {
		require.NoError(t, err)
		assert.Equal(t, sha(six), string(p.ref.AttachmentID), "byte-identical pass-through")
		assert.Nil(t, p.ref.OriginalDimensions)
	}
	for _, c := range []struct {
		name  string
		edit  func(*Config)
		check func(*testing.T, prepared, error)
	}{
		{"maxImageBytes at", func(c *Config) { c.MaxImageBytes = n }, passes},
		{"maxImageBytes past", func(c *Config) { c.MaxImageBytes = n - 1 }, refused(attachments.CodeImageTooLarge, attachments.MsgImageTooLarge)},
		{"maxImagePixels at", func(c *Config) { c.MaxImagePixels = 6 }, passes},
		{"maxImagePixels past", func(c *Config) { c.MaxImagePixels = 5 }, refused(attachments.CodeImageTooManyPixels, attachments.MsgImageTooManyPixels)},
		{"maxImageDimension at", func(c *Config) { c.MaxImageDimension = 3 }, passes},
		{"maxImageDimension past", func(c *Config) { c.MaxImageDimension = 2 }, refused(attachments.CodeImageDimensionTooLarge, attachments.MsgImageDimensionTooLarge)},
		{"normalizedImageMaxDimension at", func(c *Config) { c.NormalizedImageMaxDimension = 3 }, passes},
		{"normalizedImageMaxDimension past", func(c *Config) { c.NormalizedImageMaxDimension = 2 }, func(t *testing.T, p prepared, err error) {
			require.NoError(t, err)
			assert.Equal(t, []int{2, 1}, []int{p.ref.Width, p.ref.Height}, "3×2 into a 2-px long edge: round(2·2/3) = 1")
			assert.Equal(t, &attachments.Dimensions{Width: 3, Height: 2}, p.ref.OriginalDimensions)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t, c.edit)
			p, err := prepare(context.Background(), attachments.SaveImage{Data: six, MediaType: attachments.MediaTypePNG}, s.limits, s.policy, s.memory)
			c.check(t, p, err)
		})
	}
	// normalizedImageMaxBytes: an uncompressed clean PNG exactly at the cap
	// passes through; one byte over it is re-encoded (a flat image fits).
	var raw bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&raw, flat(40, 30, color.NRGBA{10, 200, 30, 255})))
	big := raw.Bytes()
	for _, limit := range []int{len(big), len(big) - 1} {
		s := newStore(t, withPolicy(0, limit))
		p, err := prepare(context.Background(), attachments.SaveImage{Data: big, MediaType: attachments.MediaTypePNG}, s.limits, s.policy, s.memory)
		require.NoError(t, err)
		assert.Equal(t, limit == len(big), sha(big) == string(p.ref.AttachmentID), "pass-through iff within the cap (cap %d, source %d)", limit, len(big))
		assert.LessOrEqual(t, p.ref.Bytes, limit)
		assert.Nil(t, p.ref.OriginalDimensions)
	}

	// Orientation 6 swaps the axes before the per-side and normalization
	// checks: a 2×3 raster tagged 6 is a 3×2 image.
	tagged := withPNGChunk(encPNG(t, flat(2, 3, color.NRGBA{1, 2, 3, 255})), "eXIf", exifTIFF(6, false))
	s := newStore(t, func(c *Config) { c.MaxImageDimension = 3; c.NormalizedImageMaxDimension = 2 })
	p, err := prepare(context.Background(), attachments.SaveImage{Data: tagged, MediaType: attachments.MediaTypePNG}, s.limits, s.policy, s.memory)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 1}, []int{p.ref.Width, p.ref.Height})
	assert.Equal(t, &attachments.Dimensions{Width: 3, Height: 2}, p.ref.OriginalDimensions)
}
