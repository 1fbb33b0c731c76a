package local

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cordon-dev/cordon/internal/proc"
	"github.com/cordon-dev/cordon/plugins/attachments"
)

// BenchmarkAdmitLargePhoto admits a 4000×3000 JPEG (~12 Mpx): header, full
// decode, classify, resize to 2048×1536, JPEG ladder, verification, and a
// durable commit (dedup path after the first iteration).
func BenchmarkAdmitLargePhoto(b *testing.B) {
	src := encJPEG(b, photo(4000, 3000), 90)
	s := newStore(b)
	in := attachments.SaveImage{Data: src, MediaType: "image/jpeg"}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SaveImage(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepareLargePhoto is the same admission without storage (a
// reduction under 2: decoded at full size).
func BenchmarkPrepareLargePhoto(b *testing.B) { benchPrepare(b, 4000, 3000) }

// BenchmarkPrepareCameraPhoto is the admission, without storage, of a
// 6000×4000 JPEG (a 24 Mpx camera picture, quality 90, 4:2:0) normalized to
// 2048×1365: the work of read_image on it apart from reading the file and
// the durable commit. It is decoded at 1/2 (shrink-on-load). cpu-ns/op is
// the process's CPU per admission (the resize and the colour conversion run
// in two bands): on a shared machine the steadier figure.
func BenchmarkPrepareCameraPhoto(b *testing.B) { benchPrepare(b, 6000, 4000) }

// benchPrepare admits a w×h photo-like JPEG (quality 90) without storage,
// reporting the process's CPU per admission too.
func benchPrepare(b *testing.B, w, h int) {
	src := encJPEG(b, photo(w, h), 90)
	s := newStore(b)
	in := attachments.SaveImage{Data: src, MediaType: "image/jpeg"}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := proc.CPUTime()
	for b.Loop() {
		if err := s.ValidateImage(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(proc.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkAdmitPassThroughPNG admits a clean 1024×768 RGBA PNG that is
// stored byte-identically (header, full decode, hash, commit).
func BenchmarkAdmitPassThroughPNG(b *testing.B) {
	src := encPNG(b, photoAlpha(1024, 768))
	s := newStore(b)
	in := attachments.SaveImage{Data: src, MediaType: "image/png"}
	if p, err := prepare(context.Background(), in, s.limits, s.policy, s.memory); err != nil || string(p.ref.AttachmentID) != sha(src) {
		b.Fatalf("not a pass-through: %v", err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SaveImage(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadImage is the verified read of a stored 2048×1536 JPEG.
func BenchmarkReadImage(b *testing.B) {
	s := newStore(b)
	ref, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: encJPEG(b, photo(4000, 3000), 90), MediaType: "image/jpeg"})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(ref.Bytes))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ReadImage(context.Background(), ref); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveWithEviction saves distinct small images into a store full
// to its size budget, so that every save evicts one object: the cost per
// save must not grow with the number of stored objects (the index is built
// once; no save lists a directory).
func BenchmarkSaveWithEviction(b *testing.B) {
	for _, objects := range []int{100, 10000} {
		b.Run(strconv.Itoa(objects), func(b *testing.B) {
			img := distinct(b, 0)
			home := filepath.Join(b.TempDir(), "home")
			seed := storeOn(b, home, 1<<40)
			for i := range objects {
				p, err := prepare(context.Background(), saveInput(distinct(b, i)), seed.limits, seed.policy, seed.memory)
				if err != nil {
					b.Fatal(err)
				}
				h := string(p.ref.AttachmentID)[len(idPrefix):]
				dir := filepath.Join(seed.root, objectsDir, h[:2])
				if err := os.MkdirAll(dir, 0o700); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, h), p.data, 0o600); err != nil {
					b.Fatal(err)
				}
			}
			s := storeOn(b, home, objects*len(img))
			save(b, s, distinct(b, objects), "image/png") // builds the index
			i := objects + 1
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.SaveImage(context.Background(), saveInput(distinct(b, i))); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkResampleLargePhoto resizes a decoded 6000×4000 photo to 2048×1365
// (the read_image normalization of a 24 Mpx camera picture): box shrink by 2,
// Catmull-Rom for the rest, two bands.
func BenchmarkResampleLargePhoto(b *testing.B) {
	src := photo(6000, 4000)
	b.SetBytes(int64(len(src.Pix)))
	for b.Loop() {
		resample(src, 2048, 1365, true)
	}
}
