package local

import (
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// The detected facts of every kind of source.
func TestInspectFacts(t *testing.T) {
	rgb := func(x, y int) []byte { return []byte{10, 20, 30} }
	opaqueJPEG := encJPEG(t, photo(40, 20), 90)
	xmp := append([]byte("http://ns.adobe.com/xap/1.0/\x00"), "<x/>"...)
	lossy := readTestdata(t, "blue-purple-pink.lossy.webp")
	vp8 := webpChunk(t, lossy, "VP8 ")
	vp8x := func(flags byte) []byte { return []byte{flags, 0, 0, 0, 149, 0, 0, 99, 0, 0} } // 150×100
	type want struct {
		mt           attachments.MediaType
		w, h         int
		orientation  int
		animated, md bool
		depth, space string
		hasAlpha     bool
	}
	cases := []struct {
		name string
		data []byte
		want want
	}{
		{"png90 with pHYs", png90, want{"image/png", 1, 1, 0, false, false, "uchar", "srgb", false}},
		{"png RGBA", encPNG(t, flat(3, 2, color.NRGBA{1, 2, 3, 4})), want{"image/png", 3, 2, 0, false, false, "uchar", "srgb", true}},
		{"png grey", encPNG(t, image.NewGray(image.Rect(0, 0, 2, 2))), want{"image/png", 2, 2, 0, false, false, "uchar", "b-w", false}},
		{"png grey alpha", rawPNG(2, 2, 8, 4, func(x, y int) []byte { return []byte{9, 200} }), want{"image/png", 2, 2, 0, false, false, "uchar", "b-w", true}},
		{"png grey16", encPNG(t, image.NewGray16(image.Rect(0, 0, 2, 2))), want{"image/png", 2, 2, 0, false, false, "ushort", "grey16", false}},
		{"png rgb16", rawPNG(7, 5, 16, 2, func(x, y int) []byte { return rgba16(3084, 8738, 14392) }), want{"image/png", 7, 5, 0, false, false, "ushort", "rgb16", false}},
		{"png rgba16", rawPNG(7, 5, 16, 6, func(x, y int) []byte { return rgba16(3084, 8738, 14392, 32768) }), want{"image/png", 7, 5, 0, false, false, "ushort", "rgb16", true}},
		{"png palette", encPNG(t, opaquePaletted(2, 2)), want{"image/png", 2, 2, 0, false, false, "uchar", "srgb", false}},
		{"png palette tRNS", encPNG(t, paletted(2, 2, 2)), want{"image/png", 2, 2, 0, false, false, "uchar", "srgb", true}},
		{"png 1-bit grey", rawPNG(8, 1, 1, 0, func(x, y int) []byte {
			if x == 0 {
				return []byte{0xAA}
			}
			return nil
		}), want{"image/png", 8, 1, 0, false, false, "uchar", "b-w", false}},
		{"png gAMA sRGB not metadata", rawPNG(1, 1, 8, 2, rgb, pngChunk("gAMA", []byte{0, 0, 177, 143}), pngChunk("sRGB", []byte{0})), want{"image/png", 1, 1, 0, false, false, "uchar", "srgb", false}},
		{"png tEXt", rawPNG(1, 1, 8, 2, rgb, pngChunk("tEXt", []byte("Comment\x00hi"))), want{"image/png", 1, 1, 0, false, true, "uchar", "srgb", false}},
		{"png iTXt", rawPNG(1, 1, 8, 2, rgb, pngChunk("iTXt", []byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00<x/>"))), want{"image/png", 1, 1, 0, false, true, "uchar", "srgb", false}},
		{"png zTXt", rawPNG(1, 1, 8, 2, rgb, pngChunk("zTXt", []byte("k\x00\x00x"))), want{"image/png", 1, 1, 0, false, true, "uchar", "srgb", false}},
		{"png iCCP", rawPNG(1, 1, 8, 2, rgb, pngChunk("iCCP", []byte("p\x00\x00x"))), want{"image/png", 1, 1, 0, false, true, "uchar", "srgb", false}},
		{"png eXIf orientation 6", rawPNG(4, 2, 8, 2, rgb, pngChunk("eXIf", exifTIFF(6, true))), want{"image/png", 2, 4, 6, false, true, "uchar", "srgb", false}},
		{"png acTL", rawPNG(1, 1, 8, 2, rgb, pngChunk("acTL", make([]byte, 8))), want{"image/png", 1, 1, 0, true, false, "uchar", "srgb", false}},
		{"jpeg", opaqueJPEG, want{"image/jpeg", 40, 20, 0, false, false, "uchar", "srgb", false}},
		{"jpeg grey", encJPEG(t, image.NewGray(image.Rect(0, 0, 5, 3)), 90), want{"image/jpeg", 5, 3, 0, false, false, "uchar", "b-w", false}},
		{"jpeg exif 1", withJPEGSegment(opaqueJPEG, 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(1, false)...)), want{"image/jpeg", 40, 20, 1, false, true, "uchar", "srgb", false}},
		{"jpeg exif 8", withJPEGSegment(opaqueJPEG, 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(8, false)...)), want{"image/jpeg", 20, 40, 8, false, true, "uchar", "srgb", false}},
		{"jpeg exif 4", withJPEGSegment(opaqueJPEG, 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(4, true)...)), want{"image/jpeg", 40, 20, 4, false, true, "uchar", "srgb", false}},
		{"jpeg xmp", withJPEGSegment(opaqueJPEG, 0xE1, xmp), want{"image/jpeg", 40, 20, 0, false, true, "uchar", "srgb", false}},
		{"jpeg icc", withJPEGSegment(opaqueJPEG, 0xE2, []byte("ICC_PROFILE\x00\x01\x01")), want{"image/jpeg", 40, 20, 0, false, true, "uchar", "srgb", false}},
		{"jpeg photoshop", withJPEGSegment(opaqueJPEG, 0xED, []byte("Photoshop 3.0\x00")), want{"image/jpeg", 40, 20, 0, false, true, "uchar", "srgb", false}},
		{"jpeg comment", withJPEGSegment(opaqueJPEG, 0xFE, []byte("hello")), want{"image/jpeg", 40, 20, 0, false, true, "uchar", "srgb", false}},
		{"jpeg JFIF not metadata", withJPEGSegment(opaqueJPEG, 0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00")), want{"image/jpeg", 40, 20, 0, false, false, "uchar", "srgb", false}},
		{"gif single", encGIF(t, paletted(3, 2, 0)), want{"image/gif", 3, 2, 0, false, false, "uchar", "srgb", true}},
		{"gif animated", encGIF(t, paletted(3, 2, 0), paletted(3, 2, 1)), want{"image/gif", 3, 2, 0, true, false, "uchar", "srgb", true}},
		{"webp lossy", lossy, want{"image/webp", 150, 100, 0, false, false, "uchar", "srgb", false}},
		{"webp lossy alpha", readTestdata(t, "yellow_rose.lossy-with-alpha.webp"), want{"image/webp", 400, 301, 0, false, false, "uchar", "srgb", true}},
		{"webp lossless alpha + ICC", readTestdata(t, "gopher-doc.with-alpha.lossless.webp"), want{"image/webp", 75, 100, 0, false, true, "uchar", "srgb", true}},
		{"webp VP8X EXIF", webpFile([2][]byte{[]byte("VP8X"), vp8x(0x08)}, [2][]byte{[]byte("VP8 "), vp8}, [2][]byte{[]byte("EXIF"), exifTIFF(6, false)}), want{"image/webp", 100, 150, 6, false, true, "uchar", "srgb", false}},
		{"webp VP8X XMP", webpFile([2][]byte{[]byte("VP8X"), vp8x(0x04)}, [2][]byte{[]byte("VP8 "), vp8}, [2][]byte{[]byte("XMP "), []byte("<x/>")}), want{"image/webp", 150, 100, 0, false, true, "uchar", "srgb", false}},
		{"webp animated", webpFile([2][]byte{[]byte("VP8X"), vp8x(0x02)}, [2][]byte{[]byte("ANIM"), make([]byte, 6)}, [2][]byte{[]byte("ANMF"), make([]byte, 16)}, [2][]byte{[]byte("ANMF"), make([]byte, 16)}), want{"image/webp", 150, 100, 0, true, false, "uchar", "srgb", false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := inspect(c.data)
			require.NoError(t, err)
			got := want{f.mediaType, f.width, f.height, f.orientation, f.animated, f.metadata, f.depth, f.space, f.hasAlpha}
			assert.Equal(t, c.want, got)
		})
	}
}

// docs/attachments.md "Admission" step 3: identification by signature only;
// other formats and unparsable headers are INVALID_IMAGE with the generic
// message.
func TestInspectRefusesOtherFormats(t *testing.T) {
	for name, b := range map[string][]byte{
		"bmp":         []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00"),
		"tiff":        append([]byte("II*\x00\x08\x00\x00\x00"), make([]byte, 32)...),
		"svg":         []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`),
		"avif":        append([]byte("\x00\x00\x00\x1cftypavif"), make([]byte, 32)...),
		"text":        []byte("hello"),
		"png sig":     sigPNG,
		"png no IHDR": append(append([]byte{}, sigPNG...), pngChunk("IEND", nil)...),
		"jpeg soi":    {0xFF, 0xD8, 0xFF},
		"gif header":  []byte("GIF89a"),
		"riff wave":   []byte("RIFF\x04\x00\x00\x00WAVE"),
		"webp empty":  []byte("RIFF\x04\x00\x00\x00WEBP"),
		"gif 0x0":     []byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;"),
	} {
		_, err := inspect(b)
		assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "%s: %v", name, err)
	}
}

func errorIsExactly(err error, code attachments.Code, msg string) bool {
	e, ok := err.(*attachments.Error)
	return ok && e.Kind == code && e.Message == msg
}

func TestExifOrientation(t *testing.T) {
	for o := 1; o <= 8; o++ {
		assert.Equal(t, o, exifOrientation(exifTIFF(o, false)), "II %d", o)
		assert.Equal(t, o, exifOrientation(exifTIFF(o, true)), "MM %d", o)
		assert.Equal(t, o, exifOrientation(append([]byte("Exif\x00\x00"), exifTIFF(o, true)...)), "prefixed %d", o)
	}
	for _, bad := range [][]byte{nil, []byte("II*"), exifTIFF(0, false), exifTIFF(9, true), exifTIFF(6, false)[:12], []byte("XX*\x00\x08\x00\x00\x00"), []byte("II+\x00\x08\x00\x00\x00")} {
		assert.Equal(t, 0, exifOrientation(bad), "%x", bad)
	}
}

func FuzzExifOrientation(f *testing.F) {
	f.Add(exifTIFF(6, false))
	f.Add(exifTIFF(3, true))
	f.Add([]byte("Exif\x00\x00MM\x00*\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if o := exifOrientation(b); o < 0 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
	})
}

// FuzzInspect: the header reader never panics, and whatever it accepts has
// a signature of the four formats and positive, orientation-consistent
// dimensions.
func FuzzInspect(f *testing.F) {
	f.Add(png90)
	f.Add(rawPNG(2, 1, 8, 2, func(x, y int) []byte { return []byte{1, 2, 3} }, pngChunk("eXIf", exifTIFF(6, false))))
	f.Add([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
	f.Add(webpFile([2][]byte{[]byte("VP8X"), {0x08, 0, 0, 0, 1, 0, 0, 1, 0, 0}}, [2][]byte{[]byte("EXIF"), exifTIFF(8, true)}))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x04, 'E', 'x'})
	f.Fuzz(func(t *testing.T, b []byte) {
		fc, err := inspect(b)
		if err != nil {
			if !errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage) {
				t.Fatalf("unexpected error %#v", err)
			}
			if attachments.FaultOf(err) == nil || attachments.FaultOf(err).Error() == "" {
				t.Fatalf("INVALID_IMAGE without a fault: %#v", err)
			}
			return
		}
		if est := transformMemory(fc, len(b), defaultPolicy); est < int64(fc.rawW)*int64(fc.rawH) {
			t.Fatalf("estimate %d below one byte per pixel for %+v", est, fc)
		}
		if describeSource(fc) == "" {
			t.Fatalf("no description for %+v", fc)
		}
		if mt, ok := sniff(b); !ok || mt != fc.mediaType {
			t.Fatalf("accepted %q without its signature", fc.mediaType)
		}
		if fc.width <= 0 || fc.height <= 0 || fc.width*fc.height != fc.rawW*fc.rawH {
			t.Fatalf("bad dims %+v", fc)
		}
	})
}
