package local

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// An image whose estimate alone exceeds the whole budget is refused before
// it is decoded, with IMAGE_OVER_MEMORY_BUDGET (an admission error) and a
// message naming its size and kind, the estimate, the budget, and the
// largest size of it that fits. That size is admitted; one pixel more on
// the long side is not.
func TestOverBudgetIsRefusedWithASizeThatFits(t *testing.T) {
	const budget = 64 << 20
	s := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = budget })
	big := flatPNG16(t, 3000, 2000)
	var err error
	n := allocatedDuring(func() {
		_, err = s.SaveImage(context.Background(), attachments.SaveImage{Data: big, MediaType: attachments.MediaTypePNG})
	})
	assert.True(t, errorIsExactly(err, attachments.CodeImageOverMemoryBudget,
		"Image is too large to normalize in memory: a 3000x2000 16-bit RGBA PNG needs about 148 MiB, "+
			"more than the 64 MiB image-transform memory budget; downscale it to at most 1373x915 px and retry."), "%v", err)
	assert.True(t, attachments.IsImageAdmissionError(err))
	assert.Less(t, n, uint64(4<<20), "refused from the header: the %d-byte raster is never allocated", 3000*2000*8)

	_, err = s.SaveImage(context.Background(), attachments.SaveImage{Data: flatPNG16(t, 1373, 915), MediaType: attachments.MediaTypePNG})
	require.NoError(t, err, "the suggested size fits")
	_, err = s.SaveImage(context.Background(), attachments.SaveImage{Data: flatPNG16(t, 1374, 916), MediaType: attachments.MediaTypePNG})
	assert.True(t, attachments.HasCode(err, attachments.CodeImageOverMemoryBudget), "%v", err)
}

// A budget too small for even a 1×1 copy says so instead of suggesting a
// size.
func TestOverBudgetWithoutAnySizeThatFits(t *testing.T) {
	s := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = 1 << 20 })
	err := s.ValidateImage(context.Background(), attachments.SaveImage{Data: encPNG(t, photo(40, 30)), MediaType: attachments.MediaTypePNG})
	assert.True(t, errorIsExactly(err, attachments.CodeImageOverMemoryBudget,
		"Image is too large to normalize in memory: a 40x30 8-bit RGB PNG needs about 17 MiB, "+
			"more than the 1 MiB image-transform memory budget, which cannot hold even a 1x1 copy of it."), "%v", err)
}

// The kind of source the over-budget message names.
func TestDescribeSource(t *testing.T) {
	cases := map[string]facts{
		"interlaced 16-bit RGBA PNG": {mediaType: attachments.MediaTypePNG, layout: layout{pngColourType: 6, pngBitDepth: 16, interlaced: true}},
		"8-bit palette PNG":          {mediaType: attachments.MediaTypePNG, layout: layout{pngColourType: 3, pngBitDepth: 8}},
		"1-bit greyscale PNG":        {mediaType: attachments.MediaTypePNG, layout: layout{pngColourType: 0, pngBitDepth: 1}},
		"8-bit greyscale-alpha PNG":  {mediaType: attachments.MediaTypePNG, layout: layout{pngColourType: 4, pngBitDepth: 8}},
		"16-bit RGB PNG":             {mediaType: attachments.MediaTypePNG, layout: layout{pngColourType: 2, pngBitDepth: 16}},
		"JPEG":                       {mediaType: attachments.MediaTypeJPEG, layout: layout{jpegSOF: 0xC0, jpegComps: make([]jpegComp, 3)}},
		"progressive CMYK JPEG":      {mediaType: attachments.MediaTypeJPEG, layout: layout{jpegSOF: 0xC2, jpegComps: make([]jpegComp, 4)}},
		"greyscale JPEG":             {mediaType: attachments.MediaTypeJPEG, layout: layout{jpegSOF: 0xC0, jpegComps: make([]jpegComp, 1)}},
		"lossless WebP":              {mediaType: attachments.MediaTypeWebP, layout: layout{webpLossless: true}},
		"lossy WebP with alpha":      {mediaType: attachments.MediaTypeWebP, layout: layout{webpALPH: true}},
		"lossy WebP":                 {mediaType: attachments.MediaTypeWebP},
		"animated WebP":              {mediaType: attachments.MediaTypeWebP, webpFrames: 3},
		"GIF":                        {mediaType: attachments.MediaTypeGIF},
	}
	for want, f := range cases {
		assert.Equal(t, want, describeSource(f))
	}
}
