package jpegscale_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/jpegscale"
)

// fixtures returns every testdata JPEG by name.
func fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	es, err := os.ReadDir("testdata")
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".jpeg") {
			b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
			require.NoError(t, err)
			out[e.Name()] = b
		}
	}
	require.NotEmpty(t, out)
	return out
}

// ycck turns the Adobe CMYK fixture into a YCCK one (APP14 transform 2):
// the same scans, decoded through the YCbCrK path.
func ycck(t testing.TB, cmyk []byte) []byte {
	t.Helper()
	i := bytes.Index(cmyk, []byte("\xff\xee"))
	require.GreaterOrEqual(t, i, 0, "no APP14 segment")
	require.Equal(t, "Adobe", string(cmyk[i+4:i+9]))
	b := bytes.Clone(cmyk)
	// Marker, length, "Adobe", version, flags0, flags1, transform.
	require.Equal(t, byte(0), b[i+15], "the fixture's transform is 0 (CMYK)")
	b[i+15] = 2
	return b
}

// photo is a photo-like w×h image: gradients, a few hard edges, noise.
func photo(w, h int, seed uint64) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, seed+1))
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			n := uint8(r.IntN(12))
			v := uint8(0)
			if (x/37+y/53)%3 == 0 {
				v = 90
			}
			i := m.PixOffset(x, y)
			m.Pix[i] = uint8(x*255/max(1, w-1)) ^ n + v
			m.Pix[i+1] = uint8(y*255/max(1, h-1)) ^ n
			m.Pix[i+2] = uint8((x*y)>>6) + n
			m.Pix[i+3] = 255
		}
	}
	return m
}

func encode(t testing.TB, m image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, m, &jpeg.Options{Quality: q}))
	return b.Bytes()
}

// rgba converts any decoded image to RGBA at the origin.
func rgba(m image.Image) *image.RGBA {
	b := m.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, m, b.Min, draw.Src)
	return out
}

// At scale 1 the fork decodes every fixture exactly as image/jpeg: same
// image type, same pixels, same error.
func TestDecodeIsImageJPEG(t *testing.T) {
	files := fixtures(t)
	files["ycck"] = ycck(t, files["video-001.cmyk.jpeg"])
	for name, b := range files {
		t.Run(name, func(t *testing.T) {
			want, werr := jpeg.Decode(bytes.NewReader(b))
			got, err := jpegscale.Decode(bytes.NewReader(b))
			if werr != nil {
				assert.Equal(t, werr, err)
				return
			}
			require.NoError(t, err)
			assert.IsType(t, want, got)
			assert.Equal(t, want.Bounds(), got.Bounds())
			assert.Equal(t, rgba(want).Pix, rgba(got).Pix)
		})
	}
}

// planePSNR compares a scaled plane (gw×gh of stride gs, step bytes
// apart) against the full plane (fw×fh of stride fs) averaged over d×d
// squares, in dB.
func planePSNR(full []byte, fs, fw, fh int, got []byte, gs, gw, gh, step, d int) float64 {
	var se float64
	n := 0
	for y := 0; y < gh; y++ {
		for x := 0; x < gw; x++ {
			s, c := 0, 0
			for sy := y * d; sy < min(fh, (y+1)*d); sy++ {
				for sx := x * d; sx < min(fw, (x+1)*d); sx++ {
					s += int(full[sy*fs+sx*step])
					c++
				}
			}
			e := float64(s)/float64(c) - float64(got[y*gs+x*step])
			se += e * e
			n++
		}
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

// closeness is the worst PSNR over the planes the decoder produced, each
// against the full decode's plane averaged over d×d squares of its own
// samples: Y, Cb and Cr (chroma on its subsampled grid, padding included),
// grey, the four CMYK channels; of an RGB-coded image (RGBA), the red
// channel only, since the fixture's green and blue are subsampled and RGBA
// hides their grid.
//
// The YCCK image's C, M and Y come from YCbCr through a clipping colour
// conversion (of CMYK data read as YCbCr: far out of gamut), which does not
// commute with averaging: its K channel only.
func closeness(t *testing.T, full, got image.Image, d int, ycck bool) float64 {
	t.Helper()
	if ycck {
		f, g := full.(*image.CMYK), got.(*image.CMYK)
		return planePSNR(f.Pix[3:], f.Stride, f.Rect.Dx(), f.Rect.Dy(), g.Pix[3:], g.Stride, g.Rect.Dx(), g.Rect.Dy(), 4, d)
	}
	switch f := full.(type) {
	case *image.YCbCr:
		g := got.(*image.YCbCr)
		y := planePSNR(f.Y, f.YStride, f.Rect.Dx(), f.Rect.Dy(), g.Y, g.YStride, g.Rect.Dx(), g.Rect.Dy(), 1, d)
		cb := planePSNR(f.Cb, f.CStride, f.CStride, len(f.Cb)/f.CStride, g.Cb, g.CStride, g.CStride, len(g.Cb)/g.CStride, 1, d)
		cr := planePSNR(f.Cr, f.CStride, f.CStride, len(f.Cr)/f.CStride, g.Cr, g.CStride, g.CStride, len(g.Cr)/g.CStride, 1, d)
		return min(y, cb, cr)
	case *image.Gray:
		g := got.(*image.Gray)
		return planePSNR(f.Pix, f.Stride, f.Rect.Dx(), f.Rect.Dy(), g.Pix, g.Stride, g.Rect.Dx(), g.Rect.Dy(), 1, d)
	case *image.CMYK:
		g := got.(*image.CMYK)
		worst := math.Inf(1)
		for c := range 4 {
			worst = min(worst, planePSNR(f.Pix[c:], f.Stride, f.Rect.Dx(), f.Rect.Dy(), g.Pix[c:], g.Stride, g.Rect.Dx(), g.Rect.Dy(), 4, d))
		}
		return worst
	case *image.RGBA:
		g := got.(*image.RGBA)
		return planePSNR(f.Pix, f.Stride, f.Rect.Dx(), f.Rect.Dy(), g.Pix, g.Stride, g.Rect.Dx(), g.Rect.Dy(), 4, d)
	}
	t.Fatalf("unexpected image type %T", full)
	return 0
}

// minPSNR is the floor for a scaled plane against the full plane averaged
// over the same squares: the difference is rounding, and the clipping of
// each full-size pixel before it is averaged.
const minPSNR = 40

// Every fixture (every subsampling, progressive, restart markers, RGB,
// CMYK, YCCK, greyscale) and photo-like images of sizes that are not
// multiples of the block decode at 1/2, 1/4 and 1/8 to ceil(w/d)×ceil(h/d)
// pixels of the same image type, each plane close to the full decode's
// averaged over the same squares. (The worst PSNR of the R, G and B channels
// is logged: it is lower when chroma is subsampled, because a scaled image
// keeps its chroma subsampling, so its chroma is averaged over twice the
// squares.)
func TestDecodeScaledSizeAndCloseness(t *testing.T) {
	files := fixtures(t)
	files["ycck"] = ycck(t, files["video-001.cmyk.jpeg"])
	files["photo 1001x667 q90"] = encode(t, photo(1001, 667, 1), 90)
	files["photo 640x481 q75"] = encode(t, photo(640, 481, 2), 75)
	gray := image.NewGray(image.Rect(0, 0, 333, 250))
	draw.Draw(gray, gray.Rect, photo(333, 250, 3), image.Point{}, draw.Src)
	files["gray 333x250"] = encode(t, gray, 85)
	for name, b := range files {
		full, err := jpeg.Decode(bytes.NewReader(b))
		if err != nil {
			continue // the truncated fixture: TestDecodeIsImageJPEG
		}
		fw, fh := full.Bounds().Dx(), full.Bounds().Dy()
		for _, d := range []int{2, 4, 8} {
			t.Run(name+"/"+strconv.Itoa(d), func(t *testing.T) {
				got, err := jpegscale.DecodeScaled(bytes.NewReader(b), d)
				require.NoError(t, err)
				require.IsType(t, full, got)
				require.Equal(t, image.Rect(0, 0, (fw+d-1)/d, (fh+d-1)/d), got.Bounds())
				p := closeness(t, full, got, d, name == "ycck")
				fr, gr := rgba(full), rgba(got)
				worst := math.Inf(1)
				for c := range 3 {
					worst = min(worst, planePSNR(fr.Pix[c:], fr.Stride, fw, fh, gr.Pix[c:], gr.Stride, gr.Rect.Dx(), gr.Rect.Dy(), 4, d))
				}
				t.Logf("planes %.1f dB, RGB channels %.1f dB", p, worst)
				assert.GreaterOrEqual(t, p, float64(minPSNR))
			})
		}
	}
}

// A grey block decodes to the same grey at every scale.
func TestDecodeScaledFlat(t *testing.T) {
	m := image.NewGray(image.Rect(0, 0, 24, 17))
	for i := range m.Pix {
		m.Pix[i] = 77
	}
	b := encode(t, m, 100)
	for _, d := range []int{1, 2, 4, 8} {
		got, err := jpegscale.DecodeScaled(bytes.NewReader(b), d)
		require.NoError(t, err)
		g := got.(*image.Gray)
		for y := 0; y < g.Rect.Dy(); y++ {
			for x := 0; x < g.Rect.Dx(); x++ {
				assert.InDelta(t, 77, int(g.GrayAt(x, y).Y), 1, "1/%d at %d,%d", d, x, y)
			}
		}
	}
}

// Only 1, 2, 4 and 8 are scales; anything else is image/jpeg's
// UnsupportedError, not a panic.
func TestDecodeScaledOtherDenominators(t *testing.T) {
	b := fixtures(t)["video-001.jpeg"]
	for _, d := range []int{0, -2, 3, 16} {
		_, err := jpegscale.DecodeScaled(bytes.NewReader(b), d)
		var ue jpeg.UnsupportedError
		assert.ErrorAs(t, err, &ue, "1/%d", d)
	}
}

// FuzzDecodeScaled: any bytes decode at every scale without a panic, fail
// exactly when image/jpeg fails, and succeed at ceil(w/d)×ceil(h/d). The
// size is bounded the way a caller bounds it: from the header
// (DecodeConfig) before the decode.
func FuzzDecodeScaled(f *testing.F) {
	for _, b := range fixtures(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := jpegscale.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width*cfg.Height > 1<<20 {
			return
		}
		_, werr := jpeg.Decode(bytes.NewReader(b))
		for _, d := range []int{1, 2, 4, 8} {
			m, err := jpegscale.DecodeScaled(bytes.NewReader(b), d)
			if (err == nil) != (werr == nil) {
				t.Fatalf("1/%d: error %v, image/jpeg's %v", d, err, werr)
			}
			if err == nil && m.Bounds() != image.Rect(0, 0, (cfg.Width+d-1)/d, (cfg.Height+d-1)/d) {
				t.Fatalf("1/%d of %dx%d: %v", d, cfg.Width, cfg.Height, m.Bounds())
			}
		}
	})
}
