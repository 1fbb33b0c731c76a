package local

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Normalization qualities (docs/attachments.md "Normalization").
var normalizationQualities = []int{85, 80, 75}

// encoded is one candidate output with its encoder-reported size.
type encoded struct {
	data          []byte
	mediaType     attachments.MediaType
	width, height int
}

// candidate encodes the resized image into one output format.
type candidate func(img *image.NRGBA) (encoded, error)

// ladder returns the candidates of docs/attachments.md "Normalization" in
// order, every WebP candidate replaced because Go has
// no WebP encoder:
//
//	low colour, opaque:      PNG palette, JPEG q85, q80, q75
//	low colour, alpha:       PNG RGBA, PNG quantized palette with alpha
//	not low colour, alpha:   PNG RGBA, PNG quantized palette with alpha
//	not low colour, opaque:  JPEG q85, q80, q75
//
// keepAlpha makes every PNG output carry an alpha channel even when all
// pixels are opaque (the source declares alpha, so the output must too).
func ladder(low, hasAlpha, keepAlpha bool) []candidate {
	jpegs := make([]candidate, 0, len(normalizationQualities))
	for _, q := range normalizationQualities {
		jpegs = append(jpegs, func(img *image.NRGBA) (encoded, error) { return encodeJPEG(img, q) })
	}
	truecolour := func(img *image.NRGBA) (encoded, error) { return encodePNG(img, keepAlpha) }
	quantized := func(img *image.NRGBA) (encoded, error) { return encodePalettePNG(img, keepAlpha) }
	switch {
	case hasAlpha:
		return []candidate{truecolour, quantized}
	case low:
		return append([]candidate{quantized}, jpegs...)
	default:
		return jpegs
	}
}

// alphaKept makes image/png write colour type 6 for an opaque image.
type alphaKept struct{ *image.NRGBA }

// Opaque reports false so that the encoder keeps the alpha channel.
func (alphaKept) Opaque() bool { return false }

var pngEncoder = png.Encoder{CompressionLevel: png.BestCompression}

// encodePNG writes truecolour PNG (RGB when opaque, RGBA otherwise or when
// keepAlpha), zlib level 9, no ancillary chunks.
func encodePNG(img *image.NRGBA, keepAlpha bool) (encoded, error) {
	var buf bytes.Buffer
	var m image.Image = img
	if keepAlpha && img.Opaque() {
		m = alphaKept{img}
	}
	if err := pngEncoder.Encode(&buf, m); err != nil {
		return encoded{}, err
	}
	return encoded{buf.Bytes(), attachments.MediaTypePNG, img.Rect.Dx(), img.Rect.Dy()}, nil
}

// encodePalettePNG writes a palette PNG of at most 256 colours (exact when
// the image has that few, median-cut otherwise).
func encodePalettePNG(img *image.NRGBA, keepAlpha bool) (encoded, error) {
	p := palettize(img, 256, keepAlpha)
	var buf bytes.Buffer
	if err := pngEncoder.Encode(&buf, p); err != nil {
		return encoded{}, err
	}
	return encoded{buf.Bytes(), attachments.MediaTypePNG, img.Rect.Dx(), img.Rect.Dy()}, nil
}

// encodeJPEG writes baseline 4:2:0 JPEG at quality q. img must be opaque:
// its bytes are then also valid premultiplied RGBA, the encoder's fast path.
func encodeJPEG(img *image.NRGBA, q int) (encoded, error) {
	var buf bytes.Buffer
	rgba := &image.RGBA{Pix: img.Pix, Stride: img.Stride, Rect: img.Rect}
	if err := jpeg.Encode(&buf, rgba, &jpeg.Options{Quality: q}); err != nil {
		return encoded{}, err
	}
	return encoded{buf.Bytes(), attachments.MediaTypeJPEG, img.Rect.Dx(), img.Rect.Dy()}, nil
}
