package toolfs_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/attachments"
	attachmentlocal "github.com/cordon-dev/cordon/plugins/attachments/local"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// localEnv is an imgEnv whose attachment service is the real attachment-local store, homed in a
// temporary directory.
type localEnv struct {
	*imgEnv
	home string
}

func newLocalEnv(t *testing.T, mutate func(c *attachmentlocal.Config)) *localEnv {
	t.Helper()
	e := newImgEnv(t, imgOptions{noStore: true})
	home := t.TempDir()
	cfg := attachmentlocal.DefaultConfig()
	cfg.Home = &home
	if mutate != nil {
		mutate(&cfg)
	}
	e.storeF = kerneltest.RequireLoad(t, e.root, attachmentlocal.Plugin, cfg)
	kerneltest.RequireActive(t, e.storeF)
	return &localEnv{imgEnv: e, home: home}
}

// imageValue decodes the canonical value of a successful read_image.
func imageValue(t *testing.T, v string) (path string, ref attachments.ImageRef) {
	t.Helper()
	var out struct {
		Path  string               `json:"path"`
		Image attachments.ImageRef `json:"image"`
	}
	require.NoError(t, json.Unmarshal([]byte(v), &out))
	return out.Path, out.Image
}

// TestReadImageLocalStore is the happy path over the real store: a clean PNG passes
// through byte-identically (its id is the upload's SHA-256), the image block carries the stored
// bytes, and the object reads back verbatim.
func TestReadImageLocalStore(t *testing.T) {
	e := newLocalEnv(t, nil)
	e.writeBytes(t, "red.png", png1x1)
	res := e.readImage(vision(e.imgEnv), "red.png")
	requireOK(t, res)
	dp, ref := imageValue(t, valueJSON(t, res))
	sum := sha256.Sum256(png1x1)
	assert.Equal(t, e.path("red.png"), dp)
	assert.Equal(t, attachments.ImageRef{AttachmentID: attachments.AttachmentID("sha256:" + hex.EncodeToString(sum[:])),
		MediaType: "image/png", Bytes: len(png1x1), Width: 1, Height: 1, Name: "red.png"}, ref)
	assert.Equal(t, imageText(dp, ref), res.Content[0].Text)
	assert.Equal(t, base64.StdEncoding.EncodeToString(png1x1), res.Content[1].Data)
	assert.Equal(t, []string{"present " + dp}, e.takeObserved())

	store, ok := attachments.Service.Get(e.root)
	require.True(t, ok)
	stored, err := store.ReadImage(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, png1x1, stored.Data)

	// The extension-less object file itself (a normalized attachment path) can be read directly
	// and deduplicates to the same object.
	hexID := hex.EncodeToString(sum[:])
	object := filepath.Join(e.home, "attachments", "v1", "objects", hexID[:2], hexID)
	_, err = os.Stat(object)
	require.NoError(t, err, "the committed object is on disk")
	res = e.readImage(vision(e.imgEnv), object)
	requireOK(t, res)
	_, again := imageValue(t, valueJSON(t, res))
	assert.Equal(t, ref.AttachmentID, again.AttachmentID)
	assert.Equal(t, hexID, again.Name)
}

// TestReadImageLocalFormats: a converted image (JPEG, GIF) is stored normalized; the value is the
// stored object's facts and the block its bytes.
func TestReadImageLocalFormats(t *testing.T) {
	e := newLocalEnv(t, nil)
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"photo.jpg", encodeImage(t, "jpeg", 8, 6)},
		{"anim.gif", encodeImage(t, "gif", 5, 3)},
		{"tiny.webp", webp1x1},
		{"gif-noext", encodeImage(t, "gif", 2, 2)},
	} {
		e.writeBytes(t, f.name, f.data)
		res := e.readImage(vision(e.imgEnv), f.name)
		requireOK(t, res)
		_, ref := imageValue(t, valueJSON(t, res))
		store := attachments.Service.Must(e.root)
		stored, err := store.ReadImage(context.Background(), ref)
		require.NoError(t, err, f.name)
		assert.Equal(t, base64.StdEncoding.EncodeToString(stored.Data), res.Content[1].Data, f.name)
		assert.Equal(t, string(ref.MediaType), res.Content[1].MediaType, f.name)
		assert.Equal(t, len(stored.Data), ref.Bytes, f.name)
	}
}

// TestReadImageLocalDownscale: a source larger than the normalized long-edge cap is stored
// smaller; the envelope names the original size and the multiplier.
func TestReadImageLocalDownscale(t *testing.T) {
	e := newLocalEnv(t, func(c *attachmentlocal.Config) { c.NormalizedImageMaxDimension = 2 })
	e.writeBytes(t, "big.png", encodeImage(t, "png", 4, 2))
	res := e.readImage(vision(e.imgEnv), "big.png")
	requireOK(t, res)
	dp, ref := imageValue(t, valueJSON(t, res))
	require.NotNil(t, ref.OriginalDimensions)
	assert.Equal(t, attachments.Dimensions{Width: 4, Height: 2}, *ref.OriginalDimensions)
	assert.Equal(t, 2, ref.Width)
	assert.Equal(t, 1, ref.Height)
	assert.Equal(t, "<path>"+dp+"</path>\n<type>image</type>\n<content>\n"+string(ref.MediaType)+" image, 2x1 px, "+itoa(ref.Bytes)+
		" bytes (downscaled from 4x2 px; multiply coordinates by 2.00 to locate features in the original file)\n</content>", res.Content[0].Text)
}

// truncatedPNG is what read_image says of a cut PNG: the contract's sniffed-path sentence, then
// the store's finding (docs/attachments.md).
const truncatedPNG = "the bytes do not decode as a supported PNG/JPEG/WebP/GIF image; the file may be truncated or corrupt — " +
	"the PNG data ends before the image is complete (the file is truncated); re-create or re-download the complete file"

// TestReadImageLocalAdmission holds the admission failures over the real store, with
// Cordon's INVALID_IMAGE remedies naming the file and what failed.
func TestReadImageLocalAdmission(t *testing.T) {
	n := len(png1x1)
	cases := []struct {
		name   string
		file   string
		data   []byte
		mutate func(c *attachmentlocal.Config)
		want   string
		code   string // "" for the tool's remedies, which carry no code (docs/attachments.md)
	}{
		{"mismatch", "wrong.jpg", png1x1, nil,
			golden("read_image.error.extension_mismatch", "ext", ".jpg", "media_type", "image/jpeg"), ""},
		{"maxImageBytes", "red.png", png1x1, func(c *attachmentlocal.Config) { c.MaxImageBytes = n - 1 },
			itoa(n) + " bytes exceeds the " + itoa(n-1) + "-byte limit", "FS_TOO_LARGE"},
		{"maxMessageImageBytes", "red.png", png1x1, func(c *attachmentlocal.Config) { c.MaxMessageImageBytes = n - 1 },
			itoa(n) + " bytes exceeds the " + itoa(n-1) + "-byte limit", "FS_TOO_LARGE"},
		{"pixel limit", "big.png", png3x3, func(c *attachmentlocal.Config) { c.MaxImagePixels = 4 },
			golden("read_image.error.pixels", "max", "4"), ""},
		{"per-side limit", "wide.png", png3x3, func(c *attachmentlocal.Config) { c.MaxImageDimension = 2 },
			golden("read_image.error.dimension", "max", "2"), ""},
		{"corrupt with a declared type", "cut.png", png1x1[:30], nil, truncatedPNG, "INVALID_IMAGE"},
		{"empty with a declared type", "empty.png", []byte{}, nil,
			"the bytes do not decode as a supported PNG/JPEG/WebP/GIF image; the file may be truncated or corrupt — " +
				"the file is empty (0 bytes); write the image data to it or read another file", "INVALID_IMAGE"},
		{"tiff named png", "scan.png", append([]byte("II*\x00\x08\x00\x00\x00"), make([]byte, 32)...), nil,
			"the bytes do not decode as a supported PNG/JPEG/WebP/GIF image; the file may be truncated or corrupt — " +
				"the bytes are a TIFF image, not PNG/JPEG/WebP/GIF; convert it to PNG or JPEG and retry", "INVALID_IMAGE"},
		{"gif named png", "anim.png", encodeImage(t, "gif", 2, 2), nil,
			golden("read_image.error.extension_mismatch", "ext", ".png", "media_type", "image/png"), ""},
		{"header bomb", "bomb.png", pngHeaderBomb(100000, 100000), nil,
			golden("read_image.error.pixels", "max", "64000000"), ""},
		{"header bomb without an extension", "bomb", pngHeaderBomb(8193, 1), nil,
			golden("read_image.error.dimension", "max", "8192"), ""},
		{"normalized byte cap", "red.png", png1x1, func(c *attachmentlocal.Config) { c.NormalizedImageMaxBytes = 1 },
			golden("read_image.error.bytes"), ""},
		{"corrupt without an extension", "cut", png1x1[:30], nil, truncatedPNG, "INVALID_IMAGE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newLocalEnv(t, tc.mutate)
			e.writeBytes(t, tc.file, tc.data)
			res := e.readImage(vision(e.imgEnv), tc.file)
			require.True(t, res.IsError)
			want := `Error: cannot read "` + e.path(tc.file) + `": ` + tc.want
			assert.Equal(t, want, res.Text())
			assert.Equal(t, tc.code, res.Code())
			assert.Empty(t, e.takeObserved())
			entries, _ := os.ReadDir(filepath.Join(e.home, "attachments", "v1", "objects"))
			assert.Empty(t, entries, "a refused image never enters the store")
		})
	}
}

// TestReadImageLocalLifecycle: disposing the real store withdraws read_image, remounting it
// restores it; the fs tools stay.
func TestReadImageLocalLifecycle(t *testing.T) {
	e := newLocalEnv(t, nil)
	require.Equal(t, []string{"edit", "read", "read_image", "write"}, toolNames(e.rt))
	kerneltest.RequireDispose(t, e.storeF)
	require.Equal(t, []string{"edit", "read", "write"}, toolNames(e.rt))
	cfg := attachmentlocal.DefaultConfig()
	cfg.Home = &e.home
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, attachmentlocal.Plugin, cfg))
	require.Equal(t, []string{"edit", "read", "read_image", "write"}, toolNames(e.rt))
	e.writeBytes(t, "red.png", png1x1)
	requireOK(t, e.readImage(vision(e.imgEnv), "red.png"))
}

// openFDs counts this process's open descriptors (Linux), or -1 when it cannot.
func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}

// TestReadImageConcurrentLocal: parallel read_image calls of one file (and of a refused one)
// all succeed with the same object, and the run leaves no goroutine and no descriptor behind.
func TestReadImageConcurrentLocal(t *testing.T) {
	ignore := kerneltest.IgnoreCurrent()
	before := openFDs()
	t.Run("calls", func(t *testing.T) {
		e := newLocalEnv(t, nil)
		data := encodeImage(t, "jpeg", 40, 30)
		e.writeBytes(t, "photo.jpg", data)
		e.writeBytes(t, "bad.png", data)
		const n = 8
		session := vision(e.imgEnv)
		call := func(i int, p string) tools.Result { // env.call's counter is not goroutine-safe
			return e.rt.Execute(context.Background(), tools.Call{CallID: "par-" + itoa(i), Name: "read_image", Args: args{"file_path": p}, Session: session})
		}
		ids := make(chan string, n)
		done := make(chan struct{})
		for i := range n {
			go func() {
				defer func() { done <- struct{}{} }()
				if i%4 == 3 {
					res := call(i, "bad.png")
					if !res.IsError || !strings.Contains(res.Text(), "extension declares") {
						t.Errorf("bad.png: %s", res.Text())
					}
					return
				}
				res := call(i, "photo.jpg")
				if res.IsError {
					t.Errorf("photo.jpg: %s", res.Text())
					return
				}
				var v struct {
					Image attachments.ImageRef `json:"image"`
				}
				b, _ := json.Marshal(res.Value)
				_ = json.Unmarshal(b, &v)
				ids <- string(v.Image.AttachmentID)
			}()
		}
		for range n {
			<-done
		}
		close(ids)
		var first string
		for id := range ids {
			if first == "" {
				first = id
			}
			assert.Equal(t, first, id, "one content-addressed object")
		}
		assert.NotEmpty(t, first)
	})
	kerneltest.VerifyNone(t, ignore)
	if before >= 0 {
		assert.Equal(t, before, openFDs(), "no descriptor leaked")
	}
}

// pngHeaderBomb is a PNG whose IHDR claims w×h (8-bit RGB) over a tiny, truncated IDAT.
func pngHeaderBomb(w, h int) []byte {
	chunk := func(typ string, data []byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		b = append(append(b, typ...), data...)
		return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	out := append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...)
	out = append(out, chunk("IDAT", []byte{0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1})...)
	return append(out, chunk("IEND", nil)...)
}
