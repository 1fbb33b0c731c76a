package attachmentlocal

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

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// panicError turns a recovered panic value into an error.
func panicError(r any) error {
	if err, ok := r.(error); ok {
		return err
	}
	return fmt.Errorf("panic: %v", r)
}

// decodeFull decodes the first frame of b, whose format inspect identified as
// f.mediaType. Any failure (malformed, truncated, unsupported variant such as
// arithmetic-coded JPEG or animated WebP) is INVALID_IMAGE. A GIF frame is
// composited onto a transparent canvas of the logical-screen size. Callers
// must have checked the header dimensions against the pixel limits first.
func decodeFull(b []byte, f facts) (img image.Image, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, attachments.InvalidImage(panicError(r))
		}
	}()
	r := bytes.NewReader(b)
	switch f.mediaType {
	case attachments.MediaTypePNG:
		img, err = png.Decode(r)
	case attachments.MediaTypeJPEG:
		img, err = jpeg.Decode(r)
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
		return nil, attachments.InvalidImage(err)
	}
	if b := img.Bounds(); b.Dx() != f.rawW || b.Dy() != f.rawH {
		return nil, attachments.InvalidImage(fmt.Errorf("decoded %dx%d, header %dx%d", b.Dx(), b.Dy(), f.rawW, f.rawH))
	}
	return img, nil
}

// toNRGBA converts a decoded image to 8-bit non-premultiplied sRGB(A) at
// origin (0,0): 16-bit samples keep their high byte, greyscale expands to
// RGB, CMYK uses the naive formula, premultiplied RGBA is un-premultiplied.
// opaque reports whether every alpha sample is 255. An NRGBA source at the
// origin with packed rows is returned itself, not copied.
func toNRGBA(src image.Image) (dst *image.NRGBA, opaque bool) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if s, ok := src.(*image.NRGBA); ok && b.Min == (image.Point{}) && s.Stride == 4*w {
		// Already the target form (a GIF canvas, an RGBA PNG): use it as
		// is rather than copying a raster of up to maxImagePixels. Nothing
		// downstream writes to the source.
		return s, isOpaque(s)
	}
	dst = image.NewNRGBA(image.Rect(0, 0, w, h))
	switch s := src.(type) {
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			copy(dst.Pix[y*dst.Stride:y*dst.Stride+4*w], s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.YCbCr:
		// Opaque: premultiplied and non-premultiplied bytes coincide.
		rgba := &image.RGBA{Pix: dst.Pix, Stride: dst.Stride, Rect: dst.Rect}
		draw.Draw(rgba, rgba.Rect, s, b.Min, draw.Src)
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
	case *image.NRGBA64:
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			in := s.Pix[s.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < 4*w; x++ {
				row[x] = in[2*x] // high byte of each big-endian sample
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
	default:
		// RGBA, RGBA64, CMYK, NYCbCrA, GrayAlpha-like and anything else.
		for y := 0; y < h; y++ {
			row := dst.Pix[y*dst.Stride:]
			for x := 0; x < w; x++ {
				var c color.NRGBA
				switch v := src.At(b.Min.X+x, b.Min.Y+y).(type) {
				case color.CMYK:
					r, g, bb := color.CMYKToRGB(v.C, v.M, v.Y, v.K)
					c = color.NRGBA{r, g, bb, 0xff}
				case color.NRGBA64:
					c = color.NRGBA{uint8(v.R >> 8), uint8(v.G >> 8), uint8(v.B >> 8), uint8(v.A >> 8)}
				default:
					c = nrgbaOf(v)
				}
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
			}
		}
	}
	return dst, isOpaque(dst)
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
func nrgbaOf(c color.Color) color.NRGBA {
	r, g, b, a := c.RGBA()
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
