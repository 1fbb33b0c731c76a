package local

import (
	"bytes"
	"encoding/binary"
	"image"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// allocatedDuring reports the bytes allocated while f runs (process-wide;
// the tests using it are not parallel).
func allocatedDuring(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// vp8KeyFrame is a VP8 key-frame header declaring w×h over a tiny,
// truncated first partition.
func vp8KeyFrame(w, h int) []byte {
	const partSize = 16
	tag := uint32(0) | 0<<1 | 1<<4 | partSize<<5 // key frame, version 0, shown
	b := []byte{byte(tag), byte(tag >> 8), byte(tag >> 16), 0x9d, 0x01, 0x2a,
		byte(w), byte(w >> 8 & 0x3f), byte(h), byte(h >> 8 & 0x3f)}
	return append(b, make([]byte, partSize)...)
}

// vp8lHeader is a VP8L bitstream declaring w×h (1..16384) over no data.
func vp8lHeader(w, h int) []byte {
	v := uint32(w-1) | uint32(h-1)<<14
	return []byte{0x2f, byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24), 0, 0, 0}
}

// Decompression bombs in an animated WebP: the first ANMF frame claims 1×1
// inside a 1×1 canvas, but its bitstream declares a huge raster. The frame
// must be refused (INVALID_IMAGE) from its header, before any pixel buffer
// of the bitstream's size is allocated or decoded.
func TestAnimatedWebPFrameBitstreamBomb(t *testing.T) {
	s := newStore(t)
	vp8x := []byte{0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0} // animation, 1×1 canvas
	anmf := func(id string, payload []byte) []byte {
		h := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0} // (0,0) 1×1
		return append(h, webpFile([2][]byte{[]byte(id), payload})[12:]...)
	}
	for name, frame := range map[string][]byte{
		"VP8 16383x16383":  anmf("VP8 ", vp8KeyFrame(16383, 16383)),
		"VP8L 16384x16384": anmf("VP8L", vp8lHeader(16384, 16384)),
	} {
		t.Run(name, func(t *testing.T) {
			b := webpFile([2][]byte{[]byte("VP8X"), vp8x}, [2][]byte{[]byte("ANIM"), make([]byte, 6)},
				[2][]byte{[]byte("ANMF"), frame}, [2][]byte{[]byte("ANMF"), frame})
			var err error
			start := time.Now()
			n := allocatedDuring(func() { _, err = admit(t, s, b, attachments.MediaTypeWebP) })
			assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "%v", err)
			assert.Less(t, n, uint64(16<<20), "allocated %d bytes for a 1×1 canvas", n)
			assert.Less(t, time.Since(start), 2*time.Second)
		})
	}
}

// A lossless WebP whose VP8L header does not set the alpha hint but whose
// pixels are transparent (a valid bitstream: the bit is only a hint) is
// admitted with its transparency kept when it must be converted; it used
// to fail the self-check with ATTACHMENT_WRITE_FAILED because the output
// had alpha and the source "fact" said it had none.
func TestWebPAlphaWithoutTheHintBit(t *testing.T) {
	g := readTestdata(t, "gopher-doc.with-alpha.lossless.webp")
	vp8l := append([]byte{}, webpChunk(t, g, "VP8L")...)
	v := binary.LittleEndian.Uint32(vp8l[1:5])
	binary.LittleEndian.PutUint32(vp8l[1:5], v&^(1<<28))
	for name, b := range map[string][]byte{
		"simple":                      webpFile([2][]byte{[]byte("VP8L"), vp8l}),
		"VP8X without the alpha flag": webpFile([2][]byte{[]byte("VP8X"), {0, 0, 0, 0, 74, 0, 0, 99, 0, 0}}, [2][]byte{[]byte("VP8L"), vp8l}),
	} {
		t.Run(name, func(t *testing.T) {
			f, err := inspect(b)
			require.NoError(t, err)
			require.False(t, f.hasAlpha, "the header declares no alpha")
			s := newStore(t, withPolicy(16, 0))
			p, out, img := mustAdmit(t, s, b, attachments.MediaTypeWebP)
			assert.Equal(t, attachments.MediaTypePNG, p.ref.MediaType)
			assert.True(t, out.hasAlpha, "transparency is never flattened")
			assert.False(t, img.(interface{ Opaque() bool }).Opaque())
		})
	}
}

// Animations with many frames: only the first frame is ever decoded, so a
// GIF of 2000 200×200 frames, or a WebP of 2000 ANMF frames, costs about
// one frame, not the whole animation.
func TestManyFramesDecodeOnlyTheFirst(t *testing.T) {
	s := newStore(t)
	// One encoded 200×200 frame block repeated 2000 times between the
	// header and the trailer (decoding them all would take 80 MB).
	one := encGIF(t, paletted(200, 200, 1))
	head := 13
	if one[10]&0x80 != 0 {
		head += 3 << (int(one[10]&7) + 1)
	}
	manyGIF := append([]byte{}, one[:head]...)
	for range 2000 {
		manyGIF = append(manyGIF, one[head:len(one)-1]...)
	}
	manyGIF = append(manyGIF, 0x3B)
	lossy := readTestdata(t, "blue-purple-pink.lossy.webp")
	frame := append([]byte{0, 0, 0, 0, 0, 0, 149, 0, 0, 99, 0, 0, 100, 0, 0, 0}, webpFile([2][]byte{[]byte("VP8 "), webpChunk(t, lossy, "VP8 ")})[12:]...)
	chunks := [][2][]byte{{[]byte("VP8X"), {0x02, 0, 0, 0, 149, 0, 0, 99, 0, 0}}, {[]byte("ANIM"), make([]byte, 6)}}
	for range 2000 {
		chunks = append(chunks, [2][]byte{[]byte("ANMF"), frame})
	}
	manyWebP := webpFile(chunks...)
	for name, c := range map[string]struct {
		data []byte
		mt   attachments.MediaType
		w, h int
	}{
		"gif":  {manyGIF, attachments.MediaTypeGIF, 200, 200},
		"webp": {manyWebP, attachments.MediaTypeWebP, 150, 100},
	} {
		t.Run(name, func(t *testing.T) {
			var p prepared
			var err error
			n := allocatedDuring(func() { p, err = admit(t, s, c.data, c.mt) })
			require.NoError(t, err)
			assert.Equal(t, []int{c.w, c.h}, []int{p.ref.Width, p.ref.Height})
			assert.Less(t, n, uint64(48<<20), "allocated %d bytes for a %d-byte animation", n, len(c.data))
		})
	}
}

// A GIF whose 1×1 frame sits on a large logical screen is composited once:
// the canvas (an NRGBA at the origin) is used as the conversion source
// as is, not copied again (each copy of a 64 Mpx canvas is 256 MB; a
// 49-byte GIF on an 8000×8000 screen allocated 548 MB).
func TestNRGBASourceIsNotCopied(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	m.Pix[3] = 0x80
	got, opaque := toNRGBA(m)
	assert.Same(t, m, got)
	assert.False(t, opaque)
	sub := image.NewNRGBA(image.Rect(0, 0, 4, 4)).SubImage(image.Rect(1, 1, 3, 3)).(*image.NRGBA)
	got, opaque = toNRGBA(sub)
	assert.NotSame(t, sub, got, "a sub-image is copied to the origin")
	assert.Equal(t, image.Rect(0, 0, 2, 2), got.Rect)
	assert.False(t, opaque)

	s := newStore(t)
	small := image.NewPaletted(image.Rect(0, 0, 1, 1), paletted(1, 1, 0).Palette)
	var b bytes.Buffer
	require.NoError(t, gifEncodeScreen(&b, small, 1200, 1200))
	var err error
	n := allocatedDuring(func() { _, err = admit(t, s, b.Bytes(), attachments.MediaTypeGIF) })
	require.NoError(t, err)
	const canvas = 1200 * 1200 * 4
	// The canvas, the verification decode of the output, encoder buffers.
	assert.Less(t, n, uint64(2*canvas+canvas*3/5), "allocated %d bytes for a %d-byte canvas", n, canvas)
}
