package local

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"

	"golang.org/x/image/webp"
)

var errNoFrame = errors.New("webp: animation without a decodable first frame")

// decodeWebPFirstFrame decodes the first ANMF frame of an animated WebP
// (x/image/webp decodes only still images): the frame's own chunks (ALPH,
// VP8, VP8L) are rewrapped as a still WebP, decoded, and drawn at the
// frame's offset on a transparent canvas of the VP8X canvas size. Later
// frames are never decoded.
func decodeWebPFirstFrame(b []byte, f facts) (image.Image, error) {
	for p := 12; p+8 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[p+4 : p+8]))
		start := p + 8
		if n < 0 || n > len(b)-start {
			break
		}
		if string(b[p:p+4]) != "ANMF" {
			p = start + n + n&1
			continue
		}
		d := b[start : start+n]
		if len(d) < 16 {
			return nil, errNoFrame
		}
		u24 := func(o int) int { return int(d[o]) | int(d[o+1])<<8 | int(d[o+2])<<16 }
		x, y, fw, fh := 2*u24(0), 2*u24(3), u24(6)+1, u24(9)+1
		if x+fw > f.rawW || y+fh > f.rawH {
			return nil, fmt.Errorf("webp: frame %dx%d at (%d,%d) outside the %dx%d canvas", fw, fh, x, y, f.rawW, f.rawH)
		}
		frame := d[16:]
		// The still always carries a VP8X of the frame's size: x/image/webp
		// then refuses a VP8/VP8L bitstream of any other size from its
		// header, before allocating (or decoding) a raster of the
		// bitstream's claimed size (a 1×1 frame declaring 16383×16383).
		var flags byte
		if hasChunk(frame, "ALPH") {
			flags = 0x10
		}
		vp8x := []byte{flags, 0, 0, 0, byte(fw - 1), byte((fw - 1) >> 8), byte((fw - 1) >> 16), byte(fh - 1), byte((fh - 1) >> 8), byte((fh - 1) >> 16)}
		var still bytes.Buffer
		still.WriteString("WEBP")
		still.WriteString("VP8X")
		_ = binary.Write(&still, binary.LittleEndian, uint32(len(vp8x)))
		still.Write(vp8x)
		still.Write(frame)
		riff := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(still.Len()))...)
		m, err := webp.Decode(bytes.NewReader(append(riff, still.Bytes()...)))
		if err != nil {
			return nil, err
		}
		if m.Bounds().Dx() != fw || m.Bounds().Dy() != fh {
			return nil, fmt.Errorf("webp: frame decoded %v, header %dx%d", m.Bounds(), fw, fh)
		}
		canvas := image.NewNRGBA(image.Rect(0, 0, f.rawW, f.rawH))
		draw.Draw(canvas, image.Rect(x, y, x+fw, y+fh), m, m.Bounds().Min, draw.Src)
		return canvas, nil
	}
	return nil, errNoFrame
}

// hasChunk reports whether the RIFF chunk sequence b holds a chunk id.
func hasChunk(b []byte, id string) bool {
	for p := 0; p+8 <= len(b); {
		if string(b[p:p+4]) == id {
			return true
		}
		n := int(binary.LittleEndian.Uint32(b[p+4 : p+8]))
		if n < 0 || n > len(b)-p-8 {
			return false
		}
		p += 8 + n + n&1
	}
	return false
}
