package local

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Fixtures: a 90-byte 1×1 RGB PNG with pHYs and
// the 69-byte 1×1 red PNG of the tool tests.
var (
	png90 = mustB64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWNgZGIGAAAOAAeCcsnOAAAAAElFTkSuQmCC")
	png69 = mustB64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
)

const (
	png90ID = "sha256:999f1d1527ee7e79266f16add5430fff76b1225d742464a5b1ff1f02971bb8ee"
	png69ID = "sha256:b1ff9c8ea3a780bad09b346c423d2d0e46815926879b18e841d928376a946640"
)

func mustB64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// newStore returns a store whose home is a fresh temporary directory.
func newStore(t testing.TB, edit ...func(*Config)) *Store {
	t.Helper()
	cfg := DefaultConfig()
	home := filepath.Join(t.TempDir(), "home")
	cfg.Home = &home
	for _, e := range edit {
		e(&cfg)
	}
	s, err := New(cfg, zaptest.NewLogger(t))
	require.NoError(t, err)
	return s
}

func flat(w, h int, c color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return m
}

// noise is random RGB(A) content (seeded): never low colour.
func noise(w, h int, seed uint64, alpha bool) *image.NRGBA {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		v := r.Uint32()
		m.Pix[i], m.Pix[i+1], m.Pix[i+2] = uint8(v), uint8(v>>8), uint8(v>>16)
		m.Pix[i+3] = 255
		if alpha {
			m.Pix[i+3] = uint8(v>>24) | 1
		}
	}
	return m
}

// photo is a smooth gradient with mild noise: JPEG-friendly, not low colour.
func photo(w, h int) *image.NRGBA {
	r := rand.New(rand.NewPCG(7, 11))
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := m.PixOffset(x, y)
			n := uint8(r.IntN(8))
			m.Pix[i] = uint8(x*255/max(1, w-1)) ^ n
			m.Pix[i+1] = uint8(y*255/max(1, h-1)) ^ n
			m.Pix[i+2] = uint8((x+y)*255/max(1, w+h-2)) ^ n
			m.Pix[i+3] = 255
		}
	}
	return m
}

func encPNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, m))
	return b.Bytes()
}

func encJPEG(t testing.TB, m image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, m, &jpeg.Options{Quality: q}))
	return b.Bytes()
}

// encGIF writes frames (each a paletted w×h frame) as one GIF.
func encGIF(t testing.TB, frames ...*image.Paletted) []byte {
	t.Helper()
	g := &gif.GIF{}
	for _, f := range frames {
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	require.NoError(t, gif.EncodeAll(&b, g))
	return b.Bytes()
}

func paletted(w, h int, idx uint8) *image.Paletted {
	p := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{
		color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}, color.NRGBA{0, 0, 0, 0},
	})
	for i := range p.Pix {
		p.Pix[i] = idx
	}
	return p
}

// pngChunk encodes one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	c := crc32.NewIEEE()
	c.Write([]byte(typ))
	c.Write(data)
	_ = binary.Write(&b, binary.BigEndian, c.Sum32())
	return b.Bytes()
}

// withPNGChunk inserts a chunk right after IHDR.
func withPNGChunk(p []byte, typ string, data []byte) []byte {
	const afterIHDR = 8 + 8 + 13 + 4
	out := append([]byte{}, p[:afterIHDR]...)
	out = append(out, pngChunk(typ, data)...)
	return append(out, p[afterIHDR:]...)
}

// exifTIFF is a minimal TIFF structure with IFD0 holding the orientation.
func exifTIFF(orientation int, bigEndian bool) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	hdr := []byte("II*\x00")
	if bigEndian {
		order = binary.BigEndian
		hdr = []byte("MM\x00*")
	}
	b := append([]byte{}, hdr...)
	b = order.AppendUint32(b, 8)
	b = order.AppendUint16(b, 1)
	b = order.AppendUint16(b, 0x0112)
	b = order.AppendUint16(b, 3)
	b = order.AppendUint32(b, 1)
	b = order.AppendUint16(b, uint16(orientation))
	b = order.AppendUint16(b, 0)
	return order.AppendUint32(b, 0)
}

// withJPEGSegment inserts a marker segment right after SOI.
func withJPEGSegment(j []byte, marker byte, data []byte) []byte {
	out := append([]byte{}, j[:2]...)
	out = append(out, 0xFF, marker)
	out = binary.BigEndian.AppendUint16(out, uint16(len(data)+2))
	out = append(out, data...)
	return append(out, j[2:]...)
}

// webpFile wraps chunks (id, data) into a RIFF WEBP container.
func webpFile(chunks ...[2][]byte) []byte {
	var body []byte
	body = append(body, "WEBP"...)
	for _, c := range chunks {
		body = append(body, c[0]...)
		body = binary.LittleEndian.AppendUint32(body, uint32(len(c[1])))
		body = append(body, c[1]...)
		if len(c[1])%2 == 1 {
			body = append(body, 0)
		}
	}
	out := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	return append(out, body...)
}

// webpChunk returns the payload of the first chunk id of a WebP file.
func webpChunk(t testing.TB, b []byte, id string) []byte {
	t.Helper()
	for p := 12; p+8 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[p+4 : p+8]))
		if string(b[p:p+4]) == id {
			return b[p+8 : p+8+n]
		}
		p += 8 + n + n&1
	}
	t.Fatalf("no %s chunk", id)
	return nil
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// decodedFacts inspects and fully decodes b (for assertions on outputs).
func decodedFacts(t testing.TB, b []byte) (facts, image.Image) {
	t.Helper()
	f, err := inspect(b)
	require.NoError(t, err)
	img, err := decodeFull(b, f)
	require.NoError(t, err)
	return f, img
}

func save(t testing.TB, s *Store, data []byte, mt attachments.MediaType) attachments.ImageRef {
	t.Helper()
	ref, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: data, MediaType: mt})
	require.NoError(t, err)
	return ref
}

// rawPNG writes a non-interlaced PNG with the given bit depth and colour
// type from packed rows (filter 0), plus optional extra chunks before IDAT.
func rawPNG(w, h int, bitDepth, colourType byte, pixel func(x, y int) []byte, extra ...[]byte) []byte {
	var raw bytes.Buffer
	for y := 0; y < h; y++ {
		raw.WriteByte(0)
		for x := 0; x < w; x++ {
			raw.Write(pixel(x, y))
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(raw.Bytes())
	_ = zw.Close()
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, bitDepth, colourType, 0, 0, 0)
	out := append([]byte{}, sigPNG...)
	out = append(out, pngChunk("IHDR", ihdr)...)
	for _, c := range extra {
		out = append(out, c...)
	}
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

// rgba16 is one 16-bit sample set, big-endian.
func rgba16(vs ...uint16) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.BigEndian.AppendUint16(b, v)
	}
	return b
}

// opaquePaletted is a w×h paletted image whose palette has no transparency.
func opaquePaletted(w, h int) *image.Paletted {
	p := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 128, 0, 255}})
	for i := range p.Pix {
		p.Pix[i] = uint8(i % 2)
	}
	return p
}

// gifEncodeScreen writes a single-frame GIF89a whose logical screen is
// sw×sh and whose frame is m (at its own bounds), via image/gif and a
// patched logical-screen descriptor.
func gifEncodeScreen(w *bytes.Buffer, m *image.Paletted, sw, sh int) error {
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{m}, Delay: []int{0}, Config: image.Config{ColorModel: m.Palette, Width: sw, Height: sh}}); err != nil {
		return err
	}
	w.Write(b.Bytes())
	return nil
}

// pngBomb is a PNG whose IHDR claims w×h (8-bit RGB) over a tiny IDAT.
func pngBomb(w, h int) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	out := append([]byte{}, sigPNG...)
	out = append(out, pngChunk("IHDR", ihdr)...)
	out = append(out, pngChunk("IDAT", []byte{0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1})...)
	return append(out, pngChunk("IEND", nil)...)
}

func saveInput(b []byte) attachments.SaveImage {
	mt, _ := sniff(b)
	return attachments.SaveImage{Data: b, MediaType: mt}
}

// photoAlpha is photo with a horizontal alpha ramp.
func photoAlpha(w, h int) *image.NRGBA {
	m := photo(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Pix[m.PixOffset(x, y)+3] = uint8(128 + x*127/max(1, w-1))
		}
	}
	return m
}

// interlaced1x1 is a 1×1 Adam7-interlaced RGB PNG (pass 1 holds the pixel).
func interlaced1x1() []byte {
	p := rawPNG(1, 1, 8, 2, func(x, y int) []byte { return []byte{10, 200, 30} })
	ihdr := append([]byte{}, p[16:29]...)
	ihdr[12] = 1
	out := append([]byte{}, p[:8]...)
	out = append(out, pngChunk("IHDR", ihdr)...)
	return append(out, p[8+25:]...)
}
