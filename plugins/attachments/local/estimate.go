package local

import "github.com/cordon-dev/cordon/plugins/attachments"

// Working set of the output side of a conversion, per pixel of the
// normalized box (resized raster, encoder buffers, the palette candidate,
// the verification decode and the shrink loop's later attempts): PNG
// candidates (sources with alpha) keep more than the JPEG ladder.
const (
	outputBytesPerPixelAlpha  = 32
	outputBytesPerPixelOpaque = 16
	// transformOverhead covers the decoders' tables, row buffers and
	// the classifier.
	transformOverhead = 16 << 20
)

// transformMemory estimates, from the header facts alone, the peak memory
// one admission of a source of n bytes holds: what the Go decoder
// allocates for the first frame (transients included: progressive JPEG
// coefficients, Adam7 pass images, the VP8L pixel buffers), the 8-bit
// NRGBA conversion unless it happens in the decoder's own buffer, the
// orientation copy, and the output side. Garbage made within one
// admission is counted as live: the collector is not relied upon to run
// in between. The calibration against measured peaks is recorded in
// docs/attachments.md.
//
// A JPEG decoded at a reduced scale (jpegScale) counts its decoded raster,
// its conversion and orientation copy at that scale; its progressive
// coefficients stay full size.
func transformMemory(f facts, n int, p NormalizationPolicy) int64 {
	d := jpegScale(f, p)
	px := int64((f.rawW+d-1)/d) * int64((f.rawH+d-1)/d)
	decoded, inPlace := decodedMemory(f, d)
	if canPassThrough(f, n, p) {
		return decoded + transformOverhead
	}
	total := decoded + transformOverhead
	if !inPlace {
		total += 4 * px
	}
	if f.orientation >= 2 && f.orientation <= 8 {
		total += 4 * px
	}
	w, h := targetSize(f.width, f.height, p.MaxDimension)
	perPixel := int64(outputBytesPerPixelOpaque)
	if f.hasAlpha {
		perPixel = outputBytesPerPixelAlpha
	}
	return total + int64(w)*int64(h)*perPixel
}

// decodedMemory is what decodeAt allocates for f at 1/denom, and whether
// its result is converted to NRGBA in place (an NRGBA, RGBA, CMYK, NRGBA64
// or RGBA64 raster, or a canvas that already is NRGBA).
func decodedMemory(f facts, denom int) (bytes int64, inPlace bool) {
	px := int64(f.rawW) * int64(f.rawH)
	l := f.layout
	switch f.mediaType {
	case attachments.MediaTypePNG:
		var bpp int64
		wide := l.pngBitDepth == 16
		switch {
		case l.pngColourType == 3:
			bpp = 1 // Paletted at any bit depth
		case l.pngColourType == 0 && !l.trns:
			bpp = 1 // Gray or Gray16
			if wide {
				bpp = 2
			}
		default: // RGBA, NRGBA, RGBA64 or NRGBA64
			bpp, inPlace = 4, true
			if wide {
				bpp = 8
			}
		}
		bytes = bpp * px
		if l.interlaced {
			bytes *= 2 // the seven pass images, merged into the full one
		}
		return bytes, inPlace
	case attachments.MediaTypeJPEG:
		return jpegMemory(f, denom)
	case attachments.MediaTypeGIF:
		// The first frame (at most the screen) and its NRGBA canvas or
		// conversion.
		return 5 * px, true
	case attachments.MediaTypeWebP:
		var frame int64
		switch {
		case l.webpLossless:
			frame = 8 * px // the VP8L pixels and a colour-indexing expansion
		default:
			frame = px + 2*((px+3)/4) // YCbCr 4:2:0
			if l.webpALPH {
				frame += 5 * px // the alpha plane and its VP8L decode
			}
		}
		if f.webpFrames > 0 {
			return frame + 4*px, true // drawn onto an NRGBA canvas
		}
		return frame, l.webpLossless
	}
	return 8 * px, false
}

// jpegMemory is what image/jpeg (at 1/denom, internal/jpegscale)
// allocates: the component planes, the coefficients of a progressive scan
// (64 int32 per 8×8 block, whatever the scale), and the RGBA (or CMYK)
// raster of a 4-component or RGB-coded image, which is converted in place.
func jpegMemory(f facts, denom int) (int64, bool) {
	l := f.layout
	comps := l.jpegComps
	if len(comps) == 0 {
		comps = []jpegComp{{h: 1, v: 1}, {h: 1, v: 1}, {h: 1, v: 1}}
	}
	hmax, vmax := int64(1), int64(1)
	for _, c := range comps {
		hmax, vmax = max(hmax, int64(c.h)), max(vmax, int64(c.v))
	}
	w, h := int64(f.rawW), int64(f.rawH)
	mxx, myy := (w+8*hmax-1)/(8*hmax), (h+8*vmax-1)/(8*vmax)
	var planes, coeffs int64
	for _, c := range comps {
		ch, cv := max(int64(c.h), 1), max(int64(c.v), 1)
		planes += ((w*ch + hmax - 1) / hmax) * ((h*cv + vmax - 1) / vmax)
		coeffs += mxx * ch * myy * cv * 64 * 4
	}
	d2 := int64(denom) * int64(denom)
	total := (planes + d2 - 1) / d2
	if l.jpegSOF == 0xC2 {
		total += coeffs
	}
	rgb := !l.jfif && len(comps) == 3 &&
		((l.adobe && l.adobeXform == 0) || (comps[0].id == 'R' && comps[1].id == 'G' && comps[2].id == 'B'))
	if len(comps) == 4 || rgb {
		sw, sh := (w+int64(denom)-1)/int64(denom), (h+int64(denom)-1)/int64(denom)
		return total + 4*sw*sh, true
	}
	return total, false
}
