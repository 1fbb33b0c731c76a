package hostfs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// chunkReader returns data in reads whose sizes cycle through sizes (0 = a
// zero-length read with no error).
type chunkReader struct {
	data  []byte
	sizes []byte
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := len(r.data)
	if len(r.sizes) > 0 {
		n = int(r.sizes[r.i%len(r.sizes)])
		r.i++
	}
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// decodeStream runs the stream decoder over data split by sizes.
func decodeStream(data, sizes []byte, fresh bool) (string, error) {
	d := newStreamDecoder(context.Background(), &chunkReader{data: data, sizes: sizes}, "/f", nil)
	d.fresh = fresh
	var out []byte
	for {
		chunk, err := d.Next()
		if err == io.EOF {
			return string(out), nil
		}
		if err != nil {
			return string(out), err
		}
		if len(chunk) == 0 {
			return "", errors.New("empty chunk")
		}
		out = append(out, chunk...)
	}
}

// FuzzStreamDecode checks that any chunking of any input decodes exactly like
// the whole-file read: same text, or the same FS_NOT_TEXT error. pad ASCII
// bytes are prepended (modulo 12000) so that inputs stay small (fast
// minimization) while still crossing the 8192-byte NUL sample and the decoder
// buffer size.
func FuzzStreamDecode(f *testing.F) {
	seeds := []struct {
		pad         uint16
		data, sizes string
	}{
		{0, "", ""},
		{0, "hello\r\nworld\n", "\x01"},
		{0, "\xEF\xBB\xBFbom", "\x01\x01\x01"},
		{0, "\xEF\xBB\xBF", "\x02"},
		{0, "h\xc3\xa9llo \xe4\xb8\x96 \xf0\x9f\x8e\x89", "\x01\x02\x03"},
		{0, "ok \xff bad", "\x02"},
		{0, "\xe4\xb8", "\x01"},
		{0, "\xed\xa0\x80", ""},
		{0, "ab\x00cd", "\x01"},
		{9000, "\x00", "\x00\x07\xff"},
		{8191, "\x00", "\xff"},
		{8192, "\x00", ""},
		{8190, "\xe4\xb8\x96\xe4\xb8\x96", "\xfe\xff\x01"},
		{8195, "\xf0\x9f\x8e\x89", ""},
		{100, "\xff\x00", "\x10"},
	}
	for _, s := range seeds {
		f.Add(s.pad, []byte(s.data), []byte(s.sizes))
	}
	f.Fuzz(func(t *testing.T, pad uint16, data, sizes []byte) {
		// Keep each execution cheap: bounded input and a short size cycle.
		data = append(bytes.Repeat([]byte{'x'}, int(pad)%12000), data[:min(len(data), 4096)]...)
		sizes = sizes[:min(len(sizes), 8)]
		if len(sizes) > 0 && bytes.Count(sizes, []byte{0}) == len(sizes) {
			sizes = append(sizes, 1) // avoid a reader that never makes progress
		}
		wantText, wantErr := decodeWhole(bytes.Clone(data), "/f")
		for _, fresh := range []bool{false, true} {
			got, err := decodeStream(data, sizes, fresh)
			if wantErr != nil {
				var fe *fs.Error
				if !errors.As(err, &fe) || fe.Message != wantErr.Error() || fe.Kind != fs.CodeNotText {
					t.Fatalf("fresh=%v: whole read failed with %q, stream gave %v", fresh, wantErr, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("fresh=%v: whole read succeeded, stream failed: %v", fresh, err)
			}
			if got != string(wantText) {
				t.Fatalf("fresh=%v: stream text differs (len %d vs %d)", fresh, len(got), len(wantText))
			}
		}
	})
}

func TestCompleteNames(t *testing.T) {
	// compareNames is a total order: antisymmetric and consistent.
	names := []string{"", "a", "A", "é", "É", "e", "E", "_", "-", "10", "9", "ab", "aB", "Ab", "a b", "~"}
	for _, a := range names {
		for _, b := range names {
			if compareNames(a, b) != -compareNames(b, a) {
				t.Fatalf("not antisymmetric for %q, %q", a, b)
			}
			if (compareNames(a, b) == 0) != (a == b) {
				t.Fatalf("not total for %q, %q", a, b)
			}
		}
	}
}
