package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// FuzzAdmit: arbitrary bytes through the whole admission and publication
// never panic; a refusal is an *attachments.Error with an admission code
// (or the conversion/self-check write failure); an admitted image reads
// back verified; no staging file is ever left behind.
func FuzzAdmit(f *testing.F) {
	f.Add(png90)
	f.Add(png69)
	f.Add(encJPEG(f, photo(8, 6), 80))
	f.Add(withJPEGSegment(encJPEG(f, photo(8, 6), 80), 0xE1, append([]byte("Exif\x00\x00"), exifTIFF(6, false)...)))
	// Decoded at 1/4 and 1/2 (shrink-on-load: the target below is 64 px).
	f.Add(encJPEG(f, photo(300, 200), 80))
	f.Add(readTestdata(f, "video-001.q50.420.progressive.jpeg"))
	f.Add(readTestdata(f, "video-001.cmyk.jpeg"))
	f.Add(encGIF(f, paletted(3, 2, 0), paletted(3, 2, 1)))
	f.Add(rawPNG(3, 2, 16, 6, func(x, y int) []byte { return rgba16(1, 2, 3, 4) }))
	f.Add(readTestdata(f, "gopher-doc.with-alpha.lossless.webp"))
	f.Add(readTestdata(f, "blue-purple-pink.lossy.webp"))
	f.Add(pngBomb(1<<20, 1<<20))
	lossy := readTestdata(f, "blue-purple-pink.lossy.webp")
	frame := append([]byte{0, 0, 0, 0, 0, 0, 149, 0, 0, 99, 0, 0, 100, 0, 0, 0}, lossy[12:]...)
	f.Add(webpFile([2][]byte{[]byte("VP8X"), {0x12, 0, 0, 0, 149, 0, 0, 99, 0, 0}}, [2][]byte{[]byte("ANIM"), make([]byte, 6)}, [2][]byte{[]byte("ANMF"), frame}))
	// An animated WebP whose 1×1 frame's bitstream declares 16383×16383.
	bomb := append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0}, webpFile([2][]byte{[]byte("VP8 "), vp8KeyFrame(16383, 16383)})[12:]...)
	f.Add(webpFile([2][]byte{[]byte("VP8X"), {0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, [2][]byte{[]byte("ANMF"), bomb}, [2][]byte{[]byte("ANMF"), bomb}))
	cfg := DefaultConfig()
	home := filepath.Join(f.TempDir(), "home")
	cfg.Home = &home
	cfg.MaxImageBytes = 1 << 16
	cfg.MaxImagePixels = 1 << 16
	cfg.NormalizedImageMaxDimension = 64
	cfg.NormalizedImageMaxBytes = 4096
	s, err := New(cfg, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		mt, ok := sniff(b)
		if !ok {
			mt = attachments.MediaTypePNG
		}
		ctx := context.Background()
		ref, err := s.SaveImage(ctx, attachments.SaveImage{Data: b, MediaType: mt})
		if err != nil {
			var ae *attachments.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %T %v", err, err)
			}
			if !ae.Kind.AdmissionCode() && ae.Kind != attachments.CodeWriteFailed {
				t.Fatalf("unexpected code %s: %v", ae.Kind, err)
			}
		} else {
			got, err := s.ReadImage(ctx, ref)
			if err != nil {
				t.Fatalf("admitted image does not read back: %v", err)
			}
			if len(got.Data) > cfg.NormalizedImageMaxBytes {
				t.Fatalf("stored %d bytes over the cap", len(got.Data))
			}
		}
		if es, err := os.ReadDir(filepath.Join(s.root, stagingDir)); err == nil && len(es) > 0 {
			t.Fatalf("staging residue: %d files", len(es))
		}
	})
}
