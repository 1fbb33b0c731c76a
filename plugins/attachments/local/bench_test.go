package attachmentlocal

import (
	"context"
	"testing"

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

// BenchmarkPrepareLargePhoto is the same admission without storage.
func BenchmarkPrepareLargePhoto(b *testing.B) {
	src := encJPEG(b, photo(4000, 3000), 90)
	s := newStore(b)
	in := attachments.SaveImage{Data: src, MediaType: "image/jpeg"}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.ValidateImage(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
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
