package local

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"

	"github.com/cordon-dev/cordon/internal/jpegscale"
	"github.com/cordon-dev/cordon/plugins/attachments"
)

// panicError turns a recovered panic value into an error.
func panicError(r any) error {
	if err, ok := r.(error); ok {
		return err
	}
	return fmt.Errorf("panic: %v", r)
}

// decodeFull decodes the first frame of b at its stored size: decodeAt
// at scale 1.
func decodeFull(b []byte, f facts) (image.Image, error) { return decodeAt(b, f, 1) }

// jpegScale is the scale, 1/d, at which prepare decodes f (shrink-on-load,
// docs/attachments.md "Normalization"): for a JPEG, the smallest of 1/2,
// 1/4 and 1/8 whose decoded size, ceil(side/d), still covers the
// normalization's initial target size along both axes; 1 otherwise (other
// formats, a target more than half the source).
func jpegScale(f facts, p NormalizationPolicy) int {
	if f.mediaType != attachments.MediaTypeJPEG {
		return 1
	}
	w, h := targetSize(f.width, f.height, p.MaxDimension)
	if f.orientation >= 5 && f.orientation <= 8 {
		w, h = h, w // the target in the stored axes
	}
	for _, d := range []int{8, 4, 2} {
		if (f.rawW+d-1)/d >= w && (f.rawH+d-1)/d >= h {
			return d
		}
	}
	return 1
}

// decodeAt decodes the first frame of b, whose format inspect identified as
// f.mediaType, at 1/denom of its stored size: ceil(rawW/denom) ×
// ceil(rawH/denom). Only a JPEG decodes at another scale than 1 (denom 2, 4
// or 8: internal/jpegscale, each pixel the average of a denom×denom
// square). Any failure (malformed, truncated, unsupported variant such as
// arithmetic-coded JPEG) is INVALID_IMAGE with an *attachments.ImageFault
// saying which. A GIF frame is composited onto a transparent canvas of the
// logical-screen size. Callers must have checked the header dimensions
// against the pixel limits first.
func decodeAt(b []byte, f facts, denom int) (img image.Image, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, invalid(f.mediaType, attachments.FaultCorrupt, "the decoder failed on it", panicError(r))
		}
	}()
	r := bytes.NewReader(b)
	switch f.mediaType {
	case attachments.MediaTypePNG:
		img, err = png.Decode(r)
	case attachments.MediaTypeJPEG:
		if denom > 1 {
			img, err = jpegscale.DecodeScaled(r, denom)
		} else {
			img, err = jpeg.Decode(r)
		}
	case attachments.MediaTypeGIF:
		img, err = gif.Decode(r)
		if err == nil && img.Bounds() != image.Rect(0, 0, f.rawW, f.rawH) {
			canvas := image.NewNRGBA(image.Rect(0, 0, f.rawW, f.rawH))
			draw.Draw(canvas, img.Bounds(), img, img.Bounds().Min, draw.Src)
			img = canvas
		}
	case attachments.MediaTypeWebP:
		if f.webpFrames > 0 {
			img, err = decodeWebPFirstFrame(b, f)
		} else {
			img, err = webp.Decode(r)
		}
	default:
		err = fmt.Errorf("unsupported media type %q", f.mediaType)
	}
	if err != nil {
		return nil, decodeFault(f, err)
	}
	if b := img.Bounds(); b.Dx() != (f.rawW+denom-1)/denom || b.Dy() != (f.rawH+denom-1)/denom {
		at := ""
		if denom > 1 {
			at = fmt.Sprintf(" at 1/%d", denom)
		}
		return nil, invalid(f.mediaType, attachments.FaultCorrupt,
			fmt.Sprintf("it decodes to %dx%d px%s, but its header declares %dx%d", b.Dx(), b.Dy(), at, f.rawW, f.rawH), nil)
	}
	return img, nil
}

// toNRGBA converts a decoded image to 8-bit non-premultiplied sRGB(A) at
// origin (0,0): 16-bit samples keep their high byte, greyscale expands to
// RGB, CMYK uses the naive formula, premultiplied RGBA is un-premultiplied.
// opaque reports whether every alpha sample is 255.
//
// toNRGBA consumes src: a decoder's image (packed rows at the origin) of
// 4 or 8 bytes per pixel (NRGBA, RGBA, CMYK, NRGBA64, RGBA64) is converted
// in its own pixel buffer instead of into a new raster of up to
// maxImagePixels (an NRGBA is returned itself), so src must not be used
// afterwards. Other images are copied.
func toNRGBA(src image.Image) (dst *image.NRGBA, opaque bool) {
	if m, ok := convertInPlace(src); ok {
		return m, isOpaque(m)
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dst = image.NewNRGBA(image.Rect(0, 0, w, h))
	switch s := src.(type) {
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			copy(dst.Pix[y*dst.Stride:y*dst.Stride+4*w], s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.YCbCr:
		// Opaque: premultiplied and non-premultiplied bytes coincide. Two
		// bands of rows are converted at once (inBands).
		rgba := &image.RGBA{Pix: dst.Pix, Stride: dst.Stride, Rect: dst.Rect}
		inBands(w, h, func(y0, y1 int) {
			band := image.Rect(0, y0, w, y1)
			draw.Draw(rgba, band, s, b.Min.Add(image.Pt(0, y0)), draw.Src)
		})
	case *image.NYCbCrA:
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			for x := 0; x < w; x++ {
				yi, ci := s.YOffset(b.Min.X+x, b.Min.Y+y), s.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bb := color.YCbCrToRGB(s.Y[yi], s.Cb[ci], s.Cr[ci])
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r, g, bb, s.A[s.AOffset(b.Min.X+x, b.Min.Y+y)]
			}
		}
	case *image.Gray:
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			in := s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				v := in[x]
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = v, v, v, 0xff
			}
		}
	case *image.Paletted:
		lut := make([]color.NRGBA, 256)
		for i, c := range s.Palette {
			lut[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			in := s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				c := lut[in[x]]
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
			}
		}
	case *image.Gray16:
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			in := s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				v := in[2*x]
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = v, v, v, 0xff
			}
		}
	case *image.NRGBA64, *image.RGBA, *image.RGBA64, *image.CMYK:
		// Not packed at the origin (a sub-image): copy the rows, then
		// convert the copy in place.
		bpp := 4
		if _, wide := s.(*image.NRGBA64); wide {
			bpp = 8
		} else if _, wide := s.(*image.RGBA64); wide {
			bpp = 8
		}
		pix := make([]byte, bpp*w*h)
		for y := 0; y < h; y++ {
			copy(pix[y*bpp*w:(y+1)*bpp*w], pixRow(s, b.Min.X, b.Min.Y+y))
		}
		m, _ := convertInPlace(packed(s, pix, w, h))
		return m, isOpaque(m)
	default:
		// Anything else (no decoder of the four formats yields it).
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			for x := 0; x < w; x++ {
				c := nrgbaOf(src.At(b.Min.X+x, b.Min.Y+y))
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
			}
		}
	}
	return dst, isOpaque(dst)
}

// pixRow returns the pixel bytes of row y from column x of a 4- or 8-byte
// image.
func pixRow(src image.Image, x, y int) []byte {
	switch s := src.(type) {
	case *image.NRGBA64:
		return s.Pix[s.PixOffset(x, y):]
	case *image.RGBA:
		return s.Pix[s.PixOffset(x, y):]
	case *image.RGBA64:
		return s.Pix[s.PixOffset(x, y):]
	case *image.CMYK:
		return s.Pix[s.PixOffset(x, y):]
	}
	return nil
}

// packed wraps pix (packed rows of w×h) in an image of src's type.
func packed(src image.Image, pix []byte, w, h int) image.Image {
	r := image.Rect(0, 0, w, h)
	switch src.(type) {
	case *image.NRGBA64:
		return &image.NRGBA64{Pix: pix, Stride: 8 * w, Rect: r}
	case *image.RGBA:
		return &image.RGBA{Pix: pix, Stride: 4 * w, Rect: r}
	case *image.RGBA64:
		return &image.RGBA64{Pix: pix, Stride: 8 * w, Rect: r}
	}
	return &image.CMYK{Pix: pix, Stride: 4 * w, Rect: r}
}

// convertInPlace converts an image of packed rows at the origin whose
// pixels take 4 or 8 bytes into NRGBA within its own buffer: pixel i is
// read at bpp*i and written at 4*i, so forward order never overwrites a
// pixel before it is read. ok is false for any other image.
func convertInPlace(src image.Image) (m *image.NRGBA, ok bool) {
	var pix []byte
	var stride, bpp int
	var rect image.Rectangle
	switch s := src.(type) {
	case *image.NRGBA:
		pix, stride, rect, bpp = s.Pix, s.Stride, s.Rect, 4
	case *image.RGBA:
		pix, stride, rect, bpp = s.Pix, s.Stride, s.Rect, 4
	case *image.CMYK:
		pix, stride, rect, bpp = s.Pix, s.Stride, s.Rect, 4
	case *image.NRGBA64:
		pix, stride, rect, bpp = s.Pix, s.Stride, s.Rect, 8
	case *image.RGBA64:
		pix, stride, rect, bpp = s.Pix, s.Stride, s.Rect, 8
	default:
		return nil, false
	}
	w, h := rect.Dx(), rect.Dy()
	if rect.Min != (image.Point{}) || stride != bpp*w || len(pix) < bpp*w*h {
		return nil, false
	}
	n := w * h
	switch src.(type) {
	case *image.RGBA:
		for i := 0; i < 4*n; i += 4 {
			p := pix[i : i+4 : i+4]
			if a := p[3]; a != 0xff {
				c := unpremultiply(uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101, uint32(a)*0x101)
				p[0], p[1], p[2] = c.R, c.G, c.B
			}
		}
	case *image.CMYK:
		for i := 0; i < 4*n; i += 4 {
			p := pix[i : i+4 : i+4]
			p[0], p[1], p[2] = color.CMYKToRGB(p[0], p[1], p[2], p[3])
			p[3] = 0xff
		}
	case *image.NRGBA64:
		for i := 0; i < 4*n; i++ {
			pix[i] = pix[2*i] // high byte of each big-endian sample
		}
	case *image.RGBA64:
		for i := 0; i < n; i++ {
			q := pix[8*i : 8*i+8 : 8*i+8]
			c := unpremultiply(uint32(q[0])<<8|uint32(q[1]), uint32(q[2])<<8|uint32(q[3]),
				uint32(q[4])<<8|uint32(q[5]), uint32(q[6])<<8|uint32(q[7]))
			pix[4*i], pix[4*i+1], pix[4*i+2], pix[4*i+3] = c.R, c.G, c.B, c.A
		}
	}
	if nrgba, same := src.(*image.NRGBA); same {
		return nrgba, true
	}
	return &image.NRGBA{Pix: pix[: 4*n : 4*n], Stride: 4 * w, Rect: rect}, true
}

// isOpaque reports whether every alpha sample of m (origin, packed rows)
// is 255.
func isOpaque(m *image.NRGBA) bool {
	for i := 3; i < len(m.Pix); i += 4 {
		if m.Pix[i] != 0xff {
			return false
		}
	}
	return true
}

// nrgbaOf un-premultiplies c with 16-bit precision, then keeps the high
// byte (so 16-bit sources lose only their low byte, like v>>8).
func nrgbaOf(c color.Color) color.NRGBA { return unpremultiply(c.RGBA()) }

// unpremultiply is nrgbaOf on 16-bit premultiplied samples.
func unpremultiply(r, g, b, a uint32) color.NRGBA {
	if a == 0 {
		return color.NRGBA{}
	}
	if a != 0xffff {
		r, g, b = r*0xffff/a, g*0xffff/a, b*0xffff/a
	}
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// orient applies the EXIF orientation o (2..8; anything else is identity):
// 2 mirror horizontally, 3 rotate 180°, 4 mirror vertically, 5 transpose,
// 6 rotate 90° clockwise, 7 transverse, 8 rotate 90° counter-clockwise.
func orient(src *image.NRGBA, o int) *image.NRGBA {
	if o < 2 || o > 8 {
		return src
	}
	w, h := src.Rect.Dx(), src.Rect.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			si := y*src.Stride + 4*x
			di := dy*dst.Stride + 4*dx
			copy(dst.Pix[di:di+4], src.Pix[si:si+4])
		}
	}
	return dst
}
