package local

import (
	"errors"
	"image"
	"math"
	"strings"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// NormalizationPolicy bounds the stored normalized image (docs/attachments.md
// "Normalization").
type NormalizationPolicy struct {
	// MaxDimension caps the long edge in pixels.
	MaxDimension int `json:"maxDimension"`
	// MaxBytes caps the encoded bytes.
	MaxBytes int `json:"maxBytes"`
}

// normalized is the stored image: bytes and their facts.
type normalized struct {
	data          []byte
	mediaType     attachments.MediaType
	width, height int
}

// Byte-budget loop constants (docs/attachments.md "Normalization",
// Shrinking).
const (
	minScaleStep = 0.9
	safetyFactor = 0.95
)

// canPassThrough is the pass-through rule: clean, single-frame, 8-bit sRGB,
// not GIF and inside both normalization limits.
func canPassThrough(f facts, n int, p NormalizationPolicy) bool {
	return f.mediaType != attachments.MediaTypeGIF &&
		!f.animated &&
		!f.metadata &&
		f.orientation == 0 &&
		f.depth == depthUchar &&
		f.space == spaceSRGB &&
		n <= p.MaxBytes &&
		max(f.width, f.height) <= p.MaxDimension
}

// conversionSource names the source in the conversion error
// (ATTACHMENT_WRITE_FAILED): "16-bit PNG" for a 16-bit PNG, otherwise
// "<depth> <TYPE>".
func conversionSource(f facts) string {
	typ := strings.ToUpper(strings.TrimPrefix(string(f.mediaType), "image/"))
	if f.mediaType == attachments.MediaTypePNG && f.depth != depthUchar {
		if f.depth == depthUshort {
			return "16-bit PNG"
		}
		return f.depth + " PNG"
	}
	return f.depth + " " + typ
}

// normalize produces the stored image of a fully decoded source
// (docs/attachments.md "Normalization"): the source bytes themselves when
// they pass through, otherwise the first candidate of the ladder that fits
// maxBytes at the largest size the byte-budget loop reaches, verified by a
// full re-decode. A non-attachment failure (encoder error, panic) is
// ATTACHMENT_WRITE_FAILED with the conversion message; *attachments.Error
// values propagate unchanged.
func normalize(data []byte, f facts, img image.Image, p NormalizationPolicy) (out normalized, err error) {
	if canPassThrough(f, len(data), p) {
		return normalized{data, f.mediaType, f.width, f.height}, nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
		var ae *attachments.Error
		if err != nil && !errors.As(err, &ae) {
			out, err = normalized{}, attachments.ConversionFailed(conversionSource(f), err)
		}
	}()
	src, opaque := toNRGBA(img)
	if !opaque {
		// Transparent pixels are alpha whatever the header declared (a
		// VP8L alpha bit is only a hint): the output keeps them and the
		// self-check expects them.
		f.hasAlpha = true
	}
	src = orient(src, f.orientation)
	low := lowColour(src)
	hasAlpha := f.hasAlpha
	keepAlpha := f.hasAlpha && f.mediaType != attachments.MediaTypeGIF && f.webpFrames == 0
	cands := ladder(low, hasAlpha, keepAlpha)
	w, h := targetSize(f.width, f.height, p.MaxDimension)
	for {
		rw, rh := fitInside(f.width, f.height, w, h)
		fit, smallest, err := runLadder(cands, resize(src, rw, rh, !hasAlpha), p.MaxBytes)
		if err != nil {
			return normalized{}, err
		}
		if fit != nil {
			return verifyNormalized(*fit, f)
		}
		if w == 1 && h == 1 {
			return normalized{}, attachments.NewError(attachments.CodeImageTooLarge, attachments.MsgNormalizedTooLarge, nil)
		}
		w, h = shrinkBox(w, h, p.MaxBytes, len(smallest.data))
	}
}

// runLadder runs the candidates lazily in order: the first output of at
// most maxBytes wins and no later candidate runs. Otherwise it returns the
// smallest output seen (a later one replaces it only when strictly smaller).
func runLadder(cands []candidate, img *image.NRGBA, maxBytes int) (fit, smallest *encoded, err error) {
	for _, c := range cands {
		e, err := c(img)
		if err != nil {
			return nil, nil, err
		}
		if len(e.data) <= maxBytes {
			return &e, nil, nil
		}
		if smallest == nil || len(e.data) < len(smallest.data) {
			smallest = &e
		}
	}
	return nil, smallest, nil
}

// shrinkBox is one step of the byte-budget loop: scale by min(0.9,
// sqrt(maxBytes/smallest)*0.95), floor each side, at least 1.
func shrinkBox(w, h, maxBytes, smallest int) (int, int) {
	s := math.Min(minScaleStep, math.Sqrt(float64(maxBytes)/float64(smallest))*safetyFactor)
	return max(1, int(math.Floor(float64(w)*s))), max(1, int(math.Floor(float64(h)*s)))
}

// verifyNormalized is the self-check: the chosen output is decoded again and
// must be a single-frame, metadata-free, 8-bit sRGB image of the candidate's
// media type and size whose alpha is compatible with the source. A failed
// re-decode is INVALID_IMAGE (unchanged); any other mismatch is
// ATTACHMENT_WRITE_FAILED with the self-check message.
func verifyNormalized(e encoded, src facts) (normalized, error) {
	got, err := inspect(e.data)
	if err != nil {
		return normalized{}, err
	}
	if _, err := decodeFull(e.data, got); err != nil {
		return normalized{}, err
	}
	var expected *bool
	if src.mediaType != attachments.MediaTypeGIF && src.webpFrames == 0 {
		expected = &src.hasAlpha
	}
	if got.mediaType != e.mediaType || got.width != e.width || got.height != e.height ||
		got.animated || got.metadata || got.orientation != 0 ||
		got.depth != depthUchar || got.space != spaceSRGB ||
		!alphaCompatible(expected, got) {
		return normalized{}, attachments.NewError(attachments.CodeWriteFailed, attachments.MsgNormalizedSelfCheck, nil)
	}
	return normalized(e), nil
}

// alphaCompatible is the self-check's alpha rule: compatible when the
// expectation is unknown (nil: GIF and animated WebP sources), when the alpha
// facts agree, or when an alpha source became WebP without alpha (libwebp
// drops an all-opaque plane; this port never encodes WebP, so the case is
// kept for fidelity).
func alphaCompatible(expected *bool, out facts) bool {
	return expected == nil || out.hasAlpha == *expected ||
		(*expected && !out.hasAlpha && out.mediaType == attachments.MediaTypeWebP)
}
