package local

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// withSOF returns a copy of a Go-encoded JPEG whose SOF0 marker is replaced
// by marker and whose sample precision is precision.
func withSOF(t *testing.T, j []byte, marker, precision byte) []byte {
	t.Helper()
	j = bytes.Clone(j)
	i := bytes.Index(j, []byte{0xFF, 0xC0})
	require.Positive(t, i)
	j[i+1], j[i+4] = marker, precision
	return j
}

// Every INVALID_IMAGE keeps the contract's message and carries an
// ImageFault saying which format the bytes are and what failed.
func TestInvalidImageFaults(t *testing.T) {
	s := newStore(t)
	pngPhoto := encPNG(t, photo(64, 48))
	jpg := encJPEG(t, photo(64, 48), 90)
	gifImg := encGIF(t, paletted(64, 48, 1))
	lossy := readTestdata(t, "blue-purple-pink.lossy.webp")
	badCRC := bytes.Clone(pngPhoto)
	badCRC[len(badCRC)/2] ^= 0x5a
	badIHDR := bytes.Clone(png90)
	badIHDR[11] = 12 // IHDR length 12 instead of 13
	cases := []struct {
		name   string
		data   []byte
		msg    string
		format attachments.MediaType
		kind   attachments.FaultKind
		detail string
		other  string
	}{
		{"empty", nil, attachments.MsgImageEmpty, "", attachments.FaultEmpty, "", ""},
		{"text", []byte("hello, world"), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", ""},
		{"tiff", append([]byte("II*\x00\x08\x00\x00\x00"), make([]byte, 32)...), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", "TIFF"},
		{"bmp", append([]byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00"), make([]byte, 8)...), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", "BMP"},
		{"heic", append([]byte("\x00\x00\x00\x18ftypheic"), make([]byte, 16)...), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", "HEIF"},
		{"avif", append([]byte("\x00\x00\x00\x1cftypavif"), make([]byte, 16)...), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", "AVIF"},
		{"svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", "SVG"},
		{"pdf", []byte("%PDF-1.7\n"), attachments.MsgInvalidImage, "", attachments.FaultUnrecognized, "", "PDF"},
		{"png header cut", png90[:20], attachments.MsgInvalidImage, attachments.MediaTypePNG, attachments.FaultTruncated, "", ""},
		{"png bad IHDR", badIHDR, attachments.MsgInvalidImage, attachments.MediaTypePNG, attachments.FaultHeader, "png: invalid format: bad IHDR length", ""},
		{"png pixels cut", pngPhoto[:len(pngPhoto)/2], attachments.MsgInvalidImage, attachments.MediaTypePNG, attachments.FaultTruncated, "", ""},
		{"png pixels damaged", badCRC, attachments.MsgInvalidImage, attachments.MediaTypePNG, attachments.FaultCorrupt, "", ""},
		{"jpeg cut", jpg[:len(jpg)/2], attachments.MsgInvalidImage, attachments.MediaTypeJPEG, attachments.FaultTruncated, "", ""},
		{"jpeg 12-bit", withSOF(t, jpg, 0xC1, 12), attachments.MsgInvalidImage, attachments.MediaTypeJPEG, attachments.FaultUnsupported, "12-bit JPEG", ""},
		{"jpeg arithmetic", withSOF(t, jpg, 0xC9, 8), attachments.MsgInvalidImage, attachments.MediaTypeJPEG, attachments.FaultUnsupported, "arithmetic-coded JPEG", ""},
		{"jpeg lossless", withSOF(t, jpg, 0xC3, 8), attachments.MsgInvalidImage, attachments.MediaTypeJPEG, attachments.FaultUnsupported, "lossless JPEG", ""},
		{"jpeg hierarchical", withSOF(t, jpg, 0xC5, 8), attachments.MsgInvalidImage, attachments.MediaTypeJPEG, attachments.FaultUnsupported, "hierarchical JPEG", ""},
		{"gif cut", gifImg[:len(gifImg)/2], attachments.MsgInvalidImage, attachments.MediaTypeGIF, attachments.FaultTruncated, "", ""},
		{"webp cut", lossy[:len(lossy)/2], attachments.MsgInvalidImage, attachments.MediaTypeWebP, attachments.FaultTruncated, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mt, _ := sniff(c.data)
			if mt == "" {
				mt = attachments.MediaTypePNG
			}
			_, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: c.data, MediaType: mt})
			require.True(t, errorIsExactly(err, attachments.CodeInvalidImage, c.msg), "%v", err)
			f := attachments.FaultOf(err)
			require.NotNil(t, f)
			assert.Equal(t, c.kind, f.Kind)
			assert.Equal(t, c.format, f.Format)
			assert.Equal(t, c.other, f.Other)
			if c.detail != "" || c.kind != attachments.FaultCorrupt {
				assert.Equal(t, c.detail, f.Detail)
			} else {
				assert.NotEmpty(t, f.Detail, "a corrupt image carries the decoder's words")
			}
		})
	}
}

// The JPEG variants image/jpeg refuses by feature name; damage that looks
// like a feature (a corrupted DC coefficient or marker) is corrupt data.
func TestJPEGVariant(t *testing.T) {
	f := facts{layout: layout{jpegSOF: 0xC0, jpegPrecision: 8, jpegComps: make([]jpegComp, 5)}}
	assert.Equal(t, "4-component (CMYK) JPEG without an Adobe colour marker",
		jpegVariant(f, "unknown color model: 4-component JPEG doesn't have Adobe APP14 metadata"))
	assert.Equal(t, "JPEG with an unusual chroma subsampling ratio", jpegVariant(f, "luma/chroma subsampling ratio"))
	assert.Equal(t, "JPEG with 5 colour components", jpegVariant(f, "number of components"))
	assert.Empty(t, jpegVariant(f, "excessive DC component"))
	assert.Empty(t, jpegVariant(f, "unknown marker"))
}

// A decode that yields another size than the header declares is corrupt.
func TestDecodedSizeMismatchIsCorrupt(t *testing.T) {
	f, err := inspect(png90)
	require.NoError(t, err)
	f.rawW = 2
	_, err = decodeFull(png90, f)
	fault := attachments.FaultOf(err)
	require.NotNil(t, fault)
	assert.Equal(t, attachments.FaultCorrupt, fault.Kind)
	assert.Equal(t, "it decodes to 1x1 px, but its header declares 2x1", fault.Detail)
}
