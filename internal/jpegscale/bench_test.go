package jpegscale_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/cordon-dev/cordon/internal/jpegscale"
	"github.com/cordon-dev/cordon/internal/proc"
)

// BenchmarkDecodeScaled decodes a 6000×4000 photo-like JPEG (quality 90,
// 4:2:0; noisy, so about 10 MB) at each scale; 1 is image/jpeg's work.
// cpu-ns/op is the process's CPU per decode: on a shared machine the
// steadier figure.
func BenchmarkDecodeScaled(b *testing.B) {
	src := encode(b, photo(6000, 4000, 1), 90)
	for _, d := range []int{1, 2, 8} {
		b.Run(strconv.Itoa(d), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu := proc.CPUTime()
			for b.Loop() {
				if _, err := jpegscale.DecodeScaled(bytes.NewReader(src), d); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(proc.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
