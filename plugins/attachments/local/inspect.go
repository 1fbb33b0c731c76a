package local

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Sample depths and colour spaces, with their libvips names.
const (
	depthUchar  = "uchar"
	depthUshort = "ushort"
	spaceSRGB   = "srgb"
	spaceBW     = "b-w"
	spaceRGB16  = "rgb16"
	spaceGrey16 = "grey16"
	spaceCMYK   = "cmyk"
)

// facts are the detected source facts, read from the header and
// a container walk (never from pixels).
type facts struct {
	mediaType attachments.MediaType
	// rawW, rawH are the stored axes; width, height are orientation-applied.
	rawW, rawH    int
	width, height int
	// orientation is the EXIF orientation (1..8) or 0 without a valid tag.
	orientation int
	// animated: more than one frame (GIF, WebP ANMF) or an APNG acTL chunk.
	animated bool
	// metadata: EXIF, XMP, IPTC, ICC, Photoshop data or text comments.
	metadata bool
	depth    string
	space    string
	hasAlpha bool
	// webpFrames counts ANMF chunks (0 for a still WebP).
	webpFrames int
	// layout is what the decoder will allocate (see transformMemory).
	layout layout
}

// layout describes how a source is coded, as far as it decides the size
// of what the Go decoders allocate.
type layout struct {
	// PNG: IHDR colour type and bit depth, Adam7 interlacing, a tRNS chunk.
	pngColourType, pngBitDepth byte
	interlaced, trns           bool
	// JPEG: the SOF marker of the frame, its sample precision, its
	// components (sampling factors and ids), and the colour transform
	// markers the decoder reads (JFIF APP0, Adobe APP14).
	jpegSOF       byte
	jpegPrecision byte
	jpegComps     []jpegComp
	jfif, adobe   bool
	adobeXform    byte
	// WebP: a lossless (VP8L) still, an ALPH chunk.
	webpLossless, webpALPH bool
}

// jpegComp is one frame component: its id and sampling factors.
type jpegComp struct{ id, h, v byte }

var (
	sigPNG  = []byte("\x89PNG\r\n\x1a\n")
	sigJPEG = []byte{0xFF, 0xD8, 0xFF}
)

// sniff identifies the format by its content signature only.
func sniff(b []byte) (attachments.MediaType, bool) {
	switch {
	case bytes.HasPrefix(b, sigPNG):
		return attachments.MediaTypePNG, true
	case bytes.HasPrefix(b, sigJPEG):
		return attachments.MediaTypeJPEG, true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return attachments.MediaTypeGIF, true
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return attachments.MediaTypeWebP, true
	}
	return "", false
}

// inspect reads the facts of b without decoding pixels. An unknown format or
// an unparsable header is INVALID_IMAGE "Unsupported or malformed image
// data." with an *attachments.ImageFault saying which. The container walk is lenient: it stops at truncation, leaving
// the full decode to refuse such bytes.
func inspect(b []byte) (f facts, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = facts{}, invalid(f.mediaType, attachments.FaultCorrupt, "the decoder failed on it", panicError(r))
		}
	}()
	mt, ok := sniff(b)
	if !ok {
		return facts{}, unrecognized(b)
	}
	f = facts{mediaType: mt, depth: depthUchar, space: spaceSRGB}
	var cfg image.Config
	r := bytes.NewReader(b)
	switch mt {
	case attachments.MediaTypePNG:
		cfg, err = png.DecodeConfig(r)
	case attachments.MediaTypeJPEG:
		cfg, err = jpeg.DecodeConfig(r)
	case attachments.MediaTypeGIF:
		cfg, err = gif.DecodeConfig(r)
	case attachments.MediaTypeWebP:
		cfg, err = webp.DecodeConfig(r)
	}
	// The container walk runs first: it is what names a variant the
	// header parser refuses (a 12-bit JPEG, for instance).
	scanContainer(b, &f)
	if err != nil {
		return facts{}, headerFault(f, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return facts{}, invalid(mt, attachments.FaultHeader, fmt.Sprintf("it declares a %dx%d image", cfg.Width, cfg.Height), nil)
	}
	f.setRaw(cfg.Width, cfg.Height)
	return f, nil
}

// setRaw sets the stored size and the displayed one: swapped when the orientation turns the image
// a quarter (5 to 8).
func (f *facts) setRaw(w, h int) {
	f.rawW, f.rawH = w, h
	f.width, f.height = w, h
	if f.orientation >= 5 {
		f.width, f.height = h, w
	}
}

// scanContainer runs the container walk of f.mediaType.
func scanContainer(b []byte, f *facts) {
	switch f.mediaType {
	case attachments.MediaTypePNG:
		scanPNG(b, f)
	case attachments.MediaTypeJPEG:
		scanJPEG(b, f)
	case attachments.MediaTypeGIF:
		scanGIF(b, f)
	case attachments.MediaTypeWebP:
		scanWebP(b, f)
	}
}

// scanPNG walks the chunks: IHDR bit depth and colour type, tRNS (alpha),
// iCCP, eXIf (with orientation) and text chunks (metadata), acTL (APNG).
// pHYs, gAMA, cHRM, sRGB and tIME are not metadata.
func scanPNG(b []byte, f *facts) {
	var bitDepth, colourType byte = 8, 2
	trns := false
	for p := len(sigPNG); p+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[p : p+4]))
		typ := string(b[p+4 : p+8])
		start := p + 8
		if n < 0 || n > len(b)-start {
			break
		}
		data := b[start : start+n]
		switch typ {
		case "IHDR":
			if n >= 10 {
				bitDepth, colourType = data[8], data[9]
			}
			if n >= 13 {
				f.layout.interlaced = data[12] == 1
			}
		case "tRNS":
			trns = true
		case "iCCP", "tEXt", "zTXt", "iTXt":
			f.metadata = true
		case "eXIf":
			f.metadata = true
			f.orientation = exifOrientation(data)
		case "acTL":
			f.animated = true
		case "IEND":
			p = len(b)
			continue
		}
		p = start + n + 4
	}
	f.layout.pngColourType, f.layout.pngBitDepth, f.layout.trns = colourType, bitDepth, trns
	if bitDepth == 16 {
		f.depth = depthUshort
	}
	switch colourType {
	case 0, 4:
		f.space = spaceBW
		if bitDepth == 16 {
			f.space = spaceGrey16
		}
	case 2, 6:
		if bitDepth == 16 {
			f.space = spaceRGB16
		}
	}
	f.hasAlpha = colourType == 4 || colourType == 6 || trns
}

// scanJPEG walks the marker segments up to the first SOS: APP1 Exif (with
// orientation) and XMP, APP2 ICC_PROFILE, APP13 Photoshop, COM are
// metadata; JFIF APP0 and Adobe APP14 are not; SOFn gives precision and
// component count.
func scanJPEG(b []byte, f *facts) {
	p := 2
	for p+4 <= len(b) {
		if b[p] != 0xFF {
			return
		}
		m := b[p+1]
		if m == 0xFF { // fill byte
			p++
			continue
		}
		if m == 0x01 || (m >= 0xD0 && m <= 0xD8) {
			p += 2
			continue
		}
		if m == 0xD9 || m == 0xDA {
			return
		}
		n := int(binary.BigEndian.Uint16(b[p+2 : p+4]))
		if n < 2 || p+2+n > len(b) {
			return
		}
		data := b[p+4 : p+2+n]
		switch {
		case m == 0xE1 && bytes.HasPrefix(data, exifHeader):
			f.metadata = true
			f.orientation = exifOrientation(data)
		case m == 0xE1 && bytes.HasPrefix(data, []byte("http://ns.adobe.com/")):
			f.metadata = true
		case m == 0xE2 && bytes.HasPrefix(data, []byte("ICC_PROFILE\x00")):
			f.metadata = true
		case m == 0xED && bytes.HasPrefix(data, []byte("Photoshop 3.0\x00")):
			f.metadata = true
		case m == 0xFE:
			f.metadata = true
		case m == 0xE0 && bytes.HasPrefix(data, []byte("JFIF\x00")):
			f.layout.jfif = true
		case m == 0xEE && len(data) >= 12 && bytes.HasPrefix(data, []byte("Adobe")):
			f.layout.adobe, f.layout.adobeXform = true, data[11]
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			if f.layout.jpegSOF == 0 {
				f.layout.jpegSOF = m
				if len(data) >= 6 {
					f.layout.jpegPrecision = data[0]
					for i := 6; i+3 <= len(data) && len(f.layout.jpegComps) < int(data[5]); i += 3 {
						f.layout.jpegComps = append(f.layout.jpegComps, jpegComp{id: data[i], h: data[i+1] >> 4, v: data[i+1] & 15})
					}
				}
			}
			if len(data) >= 6 {
				if data[0] > 8 {
					f.depth = depthUshort
				}
				switch data[5] {
				case 1:
					f.space = spaceBW
				case 4:
					f.space = spaceCMYK
				}
			}
		}
		p += 2 + n
	}
}

// scanGIF counts image descriptors with a block walk (frames are never
// materialized). libvips reports every GIF as having alpha.
func scanGIF(b []byte, f *facts) {
	f.hasAlpha = true
	if len(b) < 13 {
		return
	}
	p := 13
	if b[10]&0x80 != 0 {
		p += 3 << (int(b[10]&7) + 1)
	}
	frames := 0
	skipBlocks := func() bool {
		for p < len(b) {
			n := int(b[p])
			p++
			if n == 0 {
				return true
			}
			p += n
		}
		return false
	}
	for p < len(b) {
		switch b[p] {
		case 0x2C:
			frames++
			if frames > 1 {
				f.animated = true
				return
			}
			if p+10 > len(b) {
				return
			}
			flags := b[p+9]
			p += 10
			if flags&0x80 != 0 {
				p += 3 << (int(flags&7) + 1)
			}
			p++ // LZW minimum code size
			if !skipBlocks() {
				return
			}
		case 0x21:
			if p+2 > len(b) {
				return
			}
			if b[p+1] == 0xFE {
				f.metadata = true
			}
			p += 2
			if !skipBlocks() {
				return
			}
		default: // 0x3B trailer or garbage
			return
		}
	}
}

// scanWebP walks the RIFF chunks: VP8X flags, ICCP/EXIF/XMP (metadata),
// ANMF (frames), ALPH and the VP8L alpha bit.
func scanWebP(b []byte, f *facts) {
	frames := 0
	for p := 12; p+8 <= len(b); {
		id := string(b[p : p+4])
		n := int(binary.LittleEndian.Uint32(b[p+4 : p+8]))
		start := p + 8
		if n < 0 || n > len(b)-start {
			break
		}
		data := b[start : start+n]
		switch id {
		case "VP8X":
			if n >= 1 {
				fl := data[0]
				f.metadata = f.metadata || fl&0x2C != 0
				f.hasAlpha = f.hasAlpha || fl&0x10 != 0
			}
		case "ICCP", "XMP ":
			f.metadata = true
		case "EXIF":
			f.metadata = true
			f.orientation = exifOrientation(data)
		case "ANMF":
			frames++
		case "ALPH":
			f.hasAlpha = true
			f.layout.webpALPH = true
		case "VP8L":
			f.layout.webpLossless = true
			if n >= 5 && data[0] == 0x2f {
				f.hasAlpha = f.hasAlpha || binary.LittleEndian.Uint32(data[1:5])>>28&1 == 1
			}
		}
		p = start + n + n&1
	}
	f.animated = frames > 1
	f.webpFrames = frames
}
