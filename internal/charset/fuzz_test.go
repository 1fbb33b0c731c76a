package charset_test

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/internal/charset"
)

// fuzzRoundTrip checks the round-trip rule of one charset on arbitrary bytes: what Decode
// accepts encodes back to exactly the same bytes, and splicing text in at any character boundary
// and re-encoding changes no byte outside the splice (the edit invariant); what it refuses has
// its offset inside the input.
func fuzzRoundTrip(f *testing.F, label string, seeds ...string) {
	cs, err := charset.Lookup(label)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add([]byte(s), 1, "x")
	}
	f.Fuzz(func(t *testing.T, raw []byte, at int, insert string) {
		text, err := charset.Decode(cs, raw)
		if err != nil {
			nt, ok := errors.AsType[*charset.NotTextError](err)
			if !ok || nt.Offset < 0 || len(raw) > 0 && nt.Offset >= int64(len(raw)) {
				t.Fatalf("Decode(%q) = %v", raw, err)
			}
			return
		}
		back, err := charset.EncodeKnown(cs, string(text))
		if err != nil || !bytes.Equal(back, raw) {
			t.Fatalf("Encode(Decode(%q)) = %q, %v", raw, back, err)
		}
		if !utf8.ValidString(insert) {
			return
		}
		ins, err := charset.Encode(cs, insert)
		if err != nil {
			return
		}
		i := boundary(string(text), at)
		head, err := charset.EncodeKnown(cs, string(text[:i]))
		if err != nil || !bytes.HasPrefix(raw, head) {
			t.Fatalf("the encoded head %q is not a prefix of %q (%v)", head, raw, err)
		}
		if ti, err := charset.DecodeIndexed(cs, raw); err != nil || ti.RawOffset(i) != len(head) {
			t.Fatalf("RawOffset(%d) of %q = %d, want %d (%v)", i, raw, ti.RawOffset(i), len(head), err)
		}
		got, err := charset.EncodeKnown(cs, string(text[:i])+insert+string(text[i:]))
		want := append(append(append([]byte(nil), raw[:len(head)]...), ins...), raw[len(head):]...)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("splice at %d of %q into %q: %q, want %q (%v)", i, insert, raw, got, want, err)
		}
	})
}

// boundary maps at to a character boundary of s.
func boundary(s string, at int) int {
	if len(s) == 0 {
		return 0
	}
	i := ((at % (len(s) + 1)) + len(s) + 1) % (len(s) + 1)
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func FuzzRoundTripWindows1252(f *testing.F) {
	fuzzRoundTrip(f, "windows-1252", "caf\xe9", "\x80\x81", "a\r\nb")
}

func FuzzRoundTripISO88592(f *testing.F) { fuzzRoundTrip(f, "iso-8859-2", "\xb1\xe6", "\x80") }

func FuzzRoundTripShiftJIS(f *testing.F) {
	fuzzRoundTrip(f, "shift_jis", "\x93\xfa\x96\x7b", "\x87\x90", "\xfa\x5c", "\x82", "a\\b~")
}

func FuzzRoundTripEUCJP(f *testing.F) { fuzzRoundTrip(f, "euc-jp", "\xc6\xfc\xcb\xdc", "\x8e\xb1") }

func FuzzRoundTripGBK(f *testing.F) { fuzzRoundTrip(f, "gbk", "\xd6\xd0\xce\xc4", "\xa2\xe3", "\x80") }

func FuzzRoundTripGB18030(f *testing.F) {
	fuzzRoundTrip(f, "gb18030", "\xd6\xd0", "\x81\x30\x81\x30", "\x95\x32\x82\x36")
}

func FuzzRoundTripBig5(f *testing.F) { fuzzRoundTrip(f, "big5", "\xa4\xa4\xa4\xe5", "\x88\x62") }

func FuzzRoundTripEUCKR(f *testing.F) { fuzzRoundTrip(f, "euc-kr", "\xc7\xd1\xb1\xdb", "\xc9\xa1") }

func FuzzRoundTripUTF16LE(f *testing.F) {
	fuzzRoundTrip(f, "utf-16le", "a\x00\r\x00\n\x00", "\x3d\xd8\x00\xde", "\x00\xd8", "a")
}

func FuzzRoundTripUTF16BE(f *testing.F) {
	fuzzRoundTrip(f, "utf-16be", "\x00a\x00\r\x00\n", "\xd8\x3d\xde\x00", "\xdc\x00")
}
