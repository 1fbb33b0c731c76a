package local

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/attachments.md "Normalization": every decoded pixel format becomes
// 8-bit non-premultiplied sRGB(A) at the origin.
func TestToNRGBA(t *testing.T) {
	r := image.Rect(2, 3, 5, 5) // a non-zero origin
	ycc := image.NewYCbCr(r, image.YCbCrSubsampleRatio444)
	for i := range ycc.Y {
		ycc.Y[i], ycc.Cb[i], ycc.Cr[i] = 100, 128, 128
	}
	g16 := image.NewGray16(r)
	n64 := image.NewNRGBA64(r)
	r64 := image.NewRGBA64(r)
	rgba := image.NewRGBA(r)
	cmyk := image.NewCMYK(r)
	pal := image.NewPaletted(r, color.Palette{color.NRGBA{1, 2, 3, 4}})
	gray := image.NewGray(r)
	nycca := image.NewNYCbCrA(r, image.YCbCrSubsampleRatio420)
	for i := range nycca.Y {
		nycca.Y[i], nycca.A[i] = 100, 0x40
	}
	for i := range nycca.Cb {
		nycca.Cb[i], nycca.Cr[i] = 128, 128
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			g16.SetGray16(x, y, color.Gray16{0x12ff})
			n64.SetNRGBA64(x, y, color.NRGBA64{0x1000, 0x2000, 0x30ff, 0x8000})
			r64.SetRGBA64(x, y, color.RGBA64{0x1111, 0x2222, 0x3333, 0xffff})
			rgba.SetRGBA(x, y, color.RGBA{50, 25, 0, 100})
			cmyk.SetCMYK(x, y, color.CMYK{0, 255, 255, 0})
			gray.SetGray(x, y, color.Gray{77})
		}
	}
	cases := []struct {
		name   string
		img    image.Image
		want   color.NRGBA
		opaque bool
	}{
		{"ycbcr", ycc, color.NRGBA{100, 100, 100, 255}, true},
		{"gray", gray, color.NRGBA{77, 77, 77, 255}, true},
		{"gray16", g16, color.NRGBA{0x12, 0x12, 0x12, 255}, true},
		{"nrgba64", n64, color.NRGBA{0x10, 0x20, 0x30, 0x80}, false},
		{"rgba64", r64, color.NRGBA{0x11, 0x22, 0x33, 255}, true},
		{"rgba premultiplied", rgba, color.NRGBA{127, 63, 0, 100}, false},
		{"cmyk naive", cmyk, color.NRGBA{255, 0, 0, 255}, true},
		{"nycbcra", nycca, color.NRGBA{100, 100, 100, 0x40}, false},
		{"paletted", pal, color.NRGBA{1, 2, 3, 4}, false},
		{"nrgba sub-image", flat(9, 9, color.NRGBA{5, 6, 7, 8}).SubImage(r), color.NRGBA{5, 6, 7, 8}, false},
	}
	for _, c := range cases {
		got, opaque := toNRGBA(c.img)
		assert.Equal(t, image.Rect(0, 0, 3, 2), got.Rect, c.name)
		assert.Equal(t, c.opaque, opaque, c.name)
		for y := 0; y < 2; y++ {
			for x := 0; x < 3; x++ {
				assert.Equal(t, c.want, got.NRGBAAt(x, y), "%s (%d,%d)", c.name, x, y)
			}
		}
	}
}

// A decoder's raster of 4 or 8 bytes per pixel (packed at the origin) is
// converted in its own buffer, with the same pixels as the copying path of
// a sub-image: no second raster of up to maxImagePixels is allocated.
func TestToNRGBAInPlace(t *testing.T) {
	r := image.Rect(0, 0, 3, 2)
	fill := func(m draw.Image) draw.Image {
		for y := 0; y < 2; y++ {
			for x := 0; x < 3; x++ {
				m.Set(x, y, color.NRGBA64{uint16(x) * 0x3fff, uint16(y) * 0x7fff, 0x1234, uint16(0x4000 + x*0x5000)})
			}
		}
		return m
	}
	cases := []struct {
		name string
		img  draw.Image
		pix  func(image.Image) []byte
	}{
		{"nrgba", image.NewNRGBA(r), func(m image.Image) []byte { return m.(*image.NRGBA).Pix }},
		{"rgba", image.NewRGBA(r), func(m image.Image) []byte { return m.(*image.RGBA).Pix }},
		{"nrgba64", image.NewNRGBA64(r), func(m image.Image) []byte { return m.(*image.NRGBA64).Pix }},
		{"rgba64", image.NewRGBA64(r), func(m image.Image) []byte { return m.(*image.RGBA64).Pix }},
		{"cmyk", image.NewCMYK(r), func(m image.Image) []byte { return m.(*image.CMYK).Pix }},
	}
	for _, c := range cases {
		src := fill(c.img)
		// The same pixels at a non-zero origin take the
		// copying path.
		shifted := reflectNew(c.img, image.Rect(0, 0, 4, 3))
		for y := 0; y < 2; y++ {
			for x := 0; x < 3; x++ {
				shifted.Set(x+1, y+1, src.At(x, y))
			}
		}
		sub := shifted.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(1, 1, 4, 3))
		want, wantOpaque := toNRGBA(sub)
		buf := c.pix(src)
		got, opaque := toNRGBA(src)
		assert.Same(t, &buf[0], &got.Pix[0], "%s: converted in its own buffer", c.name)
		assert.Equal(t, want.Pix, got.Pix, c.name)
		assert.Equal(t, r, got.Rect, c.name)
		assert.Equal(t, 12, got.Stride, c.name)
		assert.Equal(t, wantOpaque, opaque, c.name)
	}
}

// reflectNew returns a new blank image of m's type with bounds r.
func reflectNew(m image.Image, r image.Rectangle) draw.Image {
	switch m.(type) {
	case *image.NRGBA:
		return image.NewNRGBA(r)
	case *image.RGBA:
		return image.NewRGBA(r)
	case *image.NRGBA64:
		return image.NewNRGBA64(r)
	case *image.RGBA64:
		return image.NewRGBA64(r)
	}
	return image.NewCMYK(r)
}

// A YCbCr large enough to be converted in two bands (4:2:0, an odd height, a
// non-zero origin whose chroma rows straddle the bands' boundary) converts as
// one draw of the whole image.
func TestToNRGBAYCbCrBands(t *testing.T) {
	r := image.Rect(3, 5, 3+301, 5+257)
	ycc := image.NewYCbCr(r, image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = uint8(i * 7)
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = uint8(i*13), uint8(i*5+60)
	}
	want := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(want, want.Rect, ycc, r.Min, draw.Src)
	got, opaque := toNRGBA(ycc)
	require.True(t, opaque)
	require.Equal(t, want.Pix, got.Pix)
}
