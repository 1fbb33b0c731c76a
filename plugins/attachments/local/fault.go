package local

import (
	"bytes"
	"errors"
	"fmt"
	"image/jpeg"
	"image/png"
	"io"
	"strings"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// invalid is INVALID_IMAGE "Unsupported or malformed image data." with an
// *attachments.ImageFault of the given kind as its cause.
func invalid(mt attachments.MediaType, kind attachments.FaultKind, detail string, err error) *attachments.Error {
	return attachments.InvalidImage(&attachments.ImageFault{Format: mt, Kind: kind, Detail: detail, Err: err})
}

// unrecognized is the fault of bytes without a supported signature,
// naming the format they are in when it is a common one.
func unrecognized(b []byte) *attachments.Error {
	return attachments.InvalidImage(&attachments.ImageFault{Kind: attachments.FaultUnrecognized, Other: otherFormat(b)})
}

// headerFault classifies a failure of the header (DecodeConfig) stage.
func headerFault(f facts, err error) *attachments.Error {
	kind, detail := classify(f, err)
	if kind == attachments.FaultCorrupt {
		kind = attachments.FaultHeader
	}
	return invalid(f.mediaType, kind, detail, err)
}

// decodeFault classifies a failure of the full decode.
func decodeFault(f facts, err error) *attachments.Error {
	kind, detail := classify(f, err)
	return invalid(f.mediaType, kind, detail, err)
}

// Decoder errors that mean the data ran out: io's own, and the texts the
// decoders turn a short read into.
var truncationTexts = []string{
	"unexpected EOF",        // wrapped as text by image/gif, vp8 and vp8l
	"not enough pixel data", // image/png: the IDAT stream ended
	"short Huffman data",    // image/jpeg: EOF inside a scan
	"not enough image data", // image/gif, vp8l
	"short chunk data",      // x/image/riff: a WebP chunk cut short
}

// classify maps a decoder error to a fault kind and its detail.
func classify(f facts, err error) (attachments.FaultKind, string) {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return attachments.FaultTruncated, ""
	}
	var ju jpeg.UnsupportedError
	var pu png.UnsupportedError
	switch {
	case errors.As(err, &ju):
		if v := jpegVariant(f, string(ju)); v != "" {
			return attachments.FaultUnsupported, v
		}
		return attachments.FaultCorrupt, err.Error()
	case errors.As(err, &pu):
		return attachments.FaultUnsupported, "PNG using an unsupported " + string(pu)
	}
	msg := err.Error()
	for _, t := range truncationTexts {
		if strings.Contains(msg, t) {
			return attachments.FaultTruncated, ""
		}
	}
	return attachments.FaultCorrupt, msg
}

// jpegVariant names the JPEG variant image/jpeg refused with feature, or
// "" when the refusal is damage that looks like a feature (a corrupted
// marker or DC coefficient in a baseline or progressive file).
func jpegVariant(f facts, feature string) string {
	l := f.layout
	switch {
	case l.jpegPrecision != 0 && l.jpegPrecision != 8:
		return fmt.Sprintf("%d-bit JPEG", l.jpegPrecision)
	case l.jpegSOF == 0xC3:
		return "lossless JPEG"
	case l.jpegSOF >= 0xC5 && l.jpegSOF <= 0xC7:
		return "hierarchical JPEG"
	case l.jpegSOF >= 0xC9:
		return "arithmetic-coded JPEG"
	case strings.HasPrefix(feature, "unknown color model"):
		return "4-component (CMYK) JPEG without an Adobe colour marker"
	case feature == "luma/chroma subsampling ratio":
		return "JPEG with an unusual chroma subsampling ratio"
	case feature == "number of components" || feature == "too many components":
		return fmt.Sprintf("JPEG with %d colour components", len(l.jpegComps))
	}
	return ""
}

// otherFormat names a common image (or image-like) format by its
// signature, or "".
func otherFormat(b []byte) string {
	has := func(sig string) bool { return bytes.HasPrefix(b, []byte(sig)) }
	head := b[:min(len(b), 1024)]
	switch {
	case has("II*\x00"), has("MM\x00*"):
		return "TIFF"
	case has("BM") && len(b) >= 14:
		return "BMP"
	case has("\x00\x00\x01\x00"):
		return "ICO"
	case has("8BPS"):
		return "PSD"
	case has("%PDF"):
		return "PDF"
	case has("\xFF\x0A"), has("\x00\x00\x00\x0CJXL \r\n\x87\n"):
		return "JPEG XL"
	case len(b) >= 12 && string(b[4:8]) == "ftyp":
		switch string(b[8:12]) {
		case "avif", "avis":
			return "AVIF"
		case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1":
			return "HEIF"
		}
	case bytes.Contains(head, []byte("<svg")):
		return "SVG"
	}
	return ""
}
