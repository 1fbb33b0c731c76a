package local

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	xdraw "golang.org/x/image/draw"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// docs/attachments.md "Normalization", shrink-on-load: a JPEG is decoded at
// the smallest of 1/2, 1/4 and 1/8 that still covers the initial target
// size on both axes (the target measured in the stored axes when the
// orientation swaps them); other formats at full size.
func TestJPEGScale(t *testing.T) {
	jpg := func(w, h, o int) facts {
		f := facts{mediaType: attachments.MediaTypeJPEG, orientation: o}
		f.setRaw(w, h)
		return f
	}
	png := facts{mediaType: attachments.MediaTypePNG}
	png.setRaw(6000, 4000)
	p := NormalizationPolicy{MaxDimension: 2048}
	for _, c := range []struct {
		name string
		f    facts
		want int
	}{
		{"6000x4000 to 2048x1365", jpg(6000, 4000, 0), 2},
		{"4096x3072: 1/2 is exactly the target", jpg(4096, 3072, 0), 2},
		{"4095x3072: ceil(4095/2) is the target's 2048", jpg(4095, 3072, 0), 2},
		{"4000x3000: 1/2 is under 2048", jpg(4000, 3000, 0), 1},
		{"8192x8192", jpg(8192, 8192, 0), 4},
		{"16384x16384", jpg(16384, 16384, 0), 8},
		{"20000x1000: the short side decides", jpg(20000, 1000, 0), 8},
		{"1000x20000 tagged 6 (20000x1000 shown): the target is 102x2048 stored", jpg(1000, 20000, 6), 8},
		{"1000x4100 tagged 6 (4100x1000 shown): the target is 500x2048 stored", jpg(1000, 4100, 6), 2},
		{"2048x1536 passes through or re-encodes at full size", jpg(2048, 1536, 0), 1},
		{"a PNG is never scaled", png, 1},
	} {
		assert.Equal(t, c.want, jpegScale(c.f, p), c.name)
	}
}

// psnrNRGBA is the PSNR of b against a (same size) over the colour
// channels, in dB.
func psnrNRGBA(a, b *image.NRGBA) float64 {
	var se float64
	n := 0
	for i := range a.Pix {
		if i%4 != 3 {
			d := float64(a.Pix[i]) - float64(b.Pix[i])
			se += d * d
			n++
		}
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

// upscaled is the fixture frame name enlarged k times (Catmull-Rom) and
// encoded at quality 90: real picture content at a size worth scaling.
func upscaled(t *testing.T, name string, k int) []byte {
	t.Helper()
	src, err := jpeg.Decode(bytes.NewReader(readTestdata(t, name)))
	require.NoError(t, err)
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, k*b.Dx(), k*b.Dy()))
	xdraw.CatmullRom.Scale(dst, dst.Rect, src, b, xdraw.Src, nil)
	return encJPEG(t, dst, 90)
}

// Floors of the stored image through the scaled decode against the same
// source through the full decode (both decoded again; docs/attachments.md
// records the figures). A source of real size (hundreds of pixels or more
// per side) differs by rounding and chroma averaging: today's resize also
// averages boxes before its kernel. A fixture frame (150×103) shrunk by
// exactly 2, 4 or 8 differs by more: the full path's Catmull-Rom (no box
// below a reduction of 2.5) is sharper than the decoder's box average, and
// a palette PNG may win where the full path kept JPEG (few colours are
// counted on the decoded raster, here a few hundred pixels).
const (
	scaledMinPSNR        = 35
	scaledFixtureMinPSNR = 19
)

// Every JPEG fixture (progressive 4:2:0, RGB-coded, Adobe CMYK), EXIF
// orientation 6, photo-like and upscaled real frames, at targets that take
// each of 1/2, 1/4 and 1/8: the stored image has the size and original
// dimensions of the full-decode path, the same media type for sources of
// real size, and pixels close to it.
func TestScaledDecodeMatchesFullDecode(t *testing.T) {
	rotate := func(j []byte) []byte {
		return withJPEGSegment(j, 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(6, false)...))
	}
	frame := upscaled(t, "video-001.q50.420.progressive.jpeg", 8)
	for _, c := range []struct {
		name    string
		data    []byte
		fixture bool
	}{
		{"progressive 4:2:0", readTestdata(t, "video-001.q50.420.progressive.jpeg"), true},
		{"rgb", readTestdata(t, "video-001.rgb.jpeg"), true},
		{"cmyk", readTestdata(t, "video-001.cmyk.jpeg"), true},
		{"orientation 6", rotate(readTestdata(t, "video-001.q50.420.progressive.jpeg")), true},
		{"photo 1203x901", encJPEG(t, photo(1203, 901), 90), false},
		{"frame upscaled 8x", frame, false},
		{"frame upscaled 8x, orientation 6", rotate(frame), false},
		{"frame upscaled 8x, cmyk", upscaled(t, "video-001.cmyk.jpeg", 8), false},
	} {
		f, err := inspect(c.data)
		require.NoError(t, err)
		long := max(f.width, f.height)
		for _, d := range []int{2, 4, 8} {
			dim := long / d // the target is exactly 1/d of the long side
			s := newStore(t, withPolicy(dim, 0))
			require.Equal(t, d, jpegScale(f, s.policy), "%s to %d px", c.name, dim)
			got, err := admit(t, s, c.data, attachments.MediaTypeJPEG)
			require.NoError(t, err, "%s at 1/%d", c.name, d)
			img, err := decodeFull(c.data, f)
			require.NoError(t, err)
			want, err := normalize(c.data, f, img, s.policy)
			require.NoError(t, err)
			assert.Equal(t, []int{want.width, want.height}, []int{got.ref.Width, got.ref.Height}, "%s at 1/%d", c.name, d)
			assert.Equal(t, &attachments.Dimensions{Width: f.width, Height: f.height}, got.ref.OriginalDimensions)
			floor := scaledFixtureMinPSNR
			if !c.fixture {
				floor = scaledMinPSNR
				assert.Equal(t, want.mediaType, got.ref.MediaType, "%s at 1/%d", c.name, d)
			}
			_, a := decodedFacts(t, want.data)
			_, b := decodedFacts(t, got.data)
			an, _ := toNRGBA(a)
			bn, _ := toNRGBA(b)
			p := psnrNRGBA(an, bn)
			t.Logf("%-32s 1/%d → %dx%d %s: PSNR %.1f dB", c.name, d, got.ref.Width, got.ref.Height, got.ref.MediaType, p)
			assert.GreaterOrEqual(t, p, float64(floor), "%s at 1/%d", c.name, d)
		}
	}
}

// A large JPEG is never decoded at full size when its target is at most an
// eighth of it: the admission allocates less than one full-size NRGBA
// raster (the full-decode path allocates the YCbCr planes and that raster).
func TestScaledDecodeAllocatesTheScaledRaster(t *testing.T) {
	const w, h = 2400, 1800
	data := encJPEG(t, photo(w, h), 85)
	s := newStore(t, withPolicy(300, 0))
	var err error
	n := allocatedDuring(func() {
		_, err = prepare(context.Background(), attachments.SaveImage{Data: data, MediaType: attachments.MediaTypeJPEG}, s.limits, s.policy, s.memory)
	})
	require.NoError(t, err)
	assert.Less(t, n, uint64(w*h*3/2), "allocated %d bytes for a %dx%d JPEG stored at 300 px", n, w, h)
}

// A JPEG bomb decoded scaled: a 64×64 picture's scan under a frame header
// declaring 8000×8000 is refused as INVALID_IMAGE, and what its scaled
// decode allocates stays within the memory admitted for it beforehand
// (the estimate of the decode at 1/2), well under the full-size planes.
func TestScaledJPEGBomb(t *testing.T) {
	b := encJPEG(t, photo(64, 64), 90)
	sof := bytes.Index(b, []byte{0xFF, 0xC0})
	require.Greater(t, sof, 0)
	b[sof+5], b[sof+6], b[sof+7], b[sof+8] = 8000>>8, 8000&0xff, 8000>>8, 8000&0xff
	s := newStore(t)
	f, err := inspect(b)
	require.NoError(t, err)
	require.Equal(t, 2, jpegScale(f, s.policy))
	est := transformMemory(f, len(b), s.policy)
	n := allocatedDuring(func() { _, err = admit(t, s, b, attachments.MediaTypeJPEG) })
	t.Logf("%v; allocated %d MiB, admitted %d MiB", err, n>>20, est>>20)
	assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "%v", err)
	assert.LessOrEqual(t, int64(n), est, "allocated %d bytes, admitted %d", n, est)
	assert.Less(t, n, uint64(8000*8000*3/2), "less than the full-size 4:2:0 planes")
}
