package local

import (
	"context"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

func objectOf(s *Store, ref attachments.ImageRef) string {
	h := strings.TrimPrefix(string(ref.AttachmentID), "sha256:")
	return filepath.Join(s.root, "objects", h[:2], h)
}

// parentChainToRoot lists the parents of p up to "/".
func parentChainToRoot(p string) []string {
	var out []string
	for p != "/" {
		p = filepath.Dir(p)
		out = append(out, p)
	}
	return out
}

// Reference: "syncs every object ancestor up to the durable boundary before
// returning" (the exact fsync order of the commit).
func TestPublicationFsyncOrder(t *testing.T) {
	s := newStore(t)
	var mu sync.Mutex
	var synced []string
	s.onSyncDir = func(d string) { mu.Lock(); synced = append(synced, d); mu.Unlock() }
	ref := save(t, s, png90, "image/png")
	objects := filepath.Join(s.root, "objects")
	bucket := filepath.Dir(objectOf(s, ref))
	want := append(parentChainToRoot(s.home),
		objects, s.root, filepath.Dir(s.root), s.home,
		s.root, filepath.Dir(s.root), s.home,
		bucket, objects)
	assert.Equal(t, want, synced)

	// The home proof is once per process; the dedup path syncs again.
	synced = nil
	save(t, s, png90, "image/png")
	assert.Equal(t, []string{objects, s.root, filepath.Dir(s.root), s.home, s.root, filepath.Dir(s.root), s.home, bucket, objects}, synced)
}

// Reference: "creates and persists a missing nested home directory".
func TestMissingNestedHome(t *testing.T) {
	s := newStore(t, func(c *Config) { h := filepath.Join(*c.Home, "a", "b"); c.Home = &h })
	ref := save(t, s, png90, "image/png")
	got, err := s.ReadImage(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, png90, got.Data)
	assert.Equal(t, ref, got.Ref)
}

// Reference: "publishes one private content-addressed object and
// deduplicates equal bytes".
func TestPublishPrivateAndDedup(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	first, err := s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: "image/png", Name: "/private/tmp/pixel.png"})
	require.NoError(t, err)
	second := save(t, s, png90, "image/png")
	assert.Equal(t, attachments.ImageRef{AttachmentID: png90ID, MediaType: "image/png", Bytes: 90, Width: 1, Height: 1, Name: "pixel.png"}, first)
	assert.Equal(t, first.AttachmentID, second.AttachmentID)
	assert.Equal(t, "", second.Name, "each save returns its own name")
	obj := objectOf(s, first)
	b, err := os.ReadFile(obj)
	require.NoError(t, err)
	assert.Equal(t, png90, b)
	mode := func(p string) os.FileMode { i, err := os.Stat(p); require.NoError(t, err); return i.Mode().Perm() }
	assert.Equal(t, os.FileMode(0o600), mode(obj))
	assert.Equal(t, os.FileMode(0o700), mode(filepath.Dir(obj)))
	assert.Equal(t, os.FileMode(0o700), mode(s.home))
	assert.Equal(t, os.FileMode(0o700), mode(filepath.Join(s.home, "attachments")))
	entries, err := os.ReadDir(filepath.Join(s.root, "tmp"))
	require.NoError(t, err)
	assert.Empty(t, entries, "staging file removed")
	got, err := s.ReadImage(ctx, first)
	require.NoError(t, err)
	assert.Equal(t, attachments.StoredImage{Ref: first, Data: png90}, got)
	// Different sources normalizing to identical bytes share one object.
	assert.Equal(t, []string{filepath.Base(obj)}, dirNames(t, filepath.Dir(obj)))
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// Reference: "stores the normalized image of an oversized source and reads
// it back verified".
func TestStoresNormalizedAndReadsBack(t *testing.T) {
	s := newStore(t, withPolicy(2, 0), func(c *Config) { c.MaxImagePixels = 64 })
	src := encPNG(t, flat(4, 4, color.NRGBA{9, 9, 9, 255}))
	ref, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: src, MediaType: "image/png", Name: "big.png"})
	require.NoError(t, err)
	assert.Equal(t, attachments.MediaTypePNG, ref.MediaType)
	assert.Equal(t, []int{2, 2}, []int{ref.Width, ref.Height})
	assert.Equal(t, "big.png", ref.Name)
	assert.Equal(t, &attachments.Dimensions{Width: 4, Height: 4}, ref.OriginalDimensions)
	assert.NotEqual(t, len(src), ref.Bytes)
	got, err := s.ReadImage(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, ref.Bytes, len(got.Data))
	assert.Equal(t, sha(got.Data), string(ref.AttachmentID))
}

// Reference: "keeps admitted history readable after deployment limits
// become stricter".
func TestReadsIgnoreCurrentLimits(t *testing.T) {
	s := newStore(t)
	ref := save(t, s, encPNG(t, noise(40, 30, 1, false)), "image/png")
	strict := newStore(t, func(c *Config) {
		c.Home = &s.home
		c.MaxImageBytes, c.MaxImagePixels, c.MaxImageDimension = 1, 1, 1
		c.NormalizedImageMaxBytes, c.NormalizedImageMaxDimension = 1, 1
	})
	got, err := strict.ReadImage(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, ref.Bytes, len(got.Data))
}

// Reference: "forwards read cancellation ... and preserves its reason".
func TestReadCancellationKeepsReason(t *testing.T) {
	s := newStore(t)
	ref := save(t, s, png90, "image/png")
	reason := errors.New("attachment read cancelled")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(reason)
	_, err := s.ReadImage(ctx, ref)
	assert.Same(t, reason, err)
	_, err = s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: "image/png"})
	assert.Same(t, reason, err)
	_, err = s.SaveImages(ctx, []attachments.SaveImage{{Data: png90, MediaType: "image/png"}})
	assert.Same(t, reason, err)
	assert.Same(t, reason, s.ValidateImage(ctx, attachments.SaveImage{Data: png90, MediaType: "image/png"}))
	_, err = s.ReadImageRequest(ctx, ref, attachments.ImageRequestPolicy{MaxPixels: 1, MaxBytes: 1})
	assert.Same(t, reason, err)
	// A bad id is still refused first only when not cancelled.
	_, err = s.ReadImage(ctx, attachments.ImageRef{AttachmentID: "bad"})
	assert.Same(t, reason, err)
}

// Reference: "rejects malformed bytes, mismatched declarations, byte limits,
// and decoded-pixel limits" plus the check order of docs/attachments.md
// "Admission".
func TestAdmissionErrorsAndOrder(t *testing.T) {
	limits := func(c *Config) { c.MaxImageBytes, c.MaxImagePixels, c.MaxImageDimension = 1024, 16, 2000 }
	s := newStore(t, limits)
	wide := encPNG(t, flat(5, 5, color.NRGBA{0, 0, 0, 255}))
	// A PNG header that claims 100000×100000 over a tiny, truncated body.
	bomb := pngBomb(100000, 100000)
	cases := []struct {
		name string
		s    *Store
		data []byte
		mt   attachments.MediaType
		code attachments.Code
		msg  string
	}{
		{"empty", s, nil, "image/png", attachments.CodeInvalidImage, "Image is empty."},
		{"garbage", s, []byte{1, 2, 3}, "image/png", attachments.CodeInvalidImage, "Unsupported or malformed image data."},
		{"mismatch", s, png90, "image/jpeg", attachments.CodeImageTypeMismatch, "Declared image type does not match its bytes."},
		{"bytes", newStore(t, limits, func(c *Config) { c.MaxImageBytes = 1 }), png90, "image/png", attachments.CodeImageTooLarge, "Image exceeds the configured byte limit."},
		{"bytes before empty", newStore(t, limits, func(c *Config) { c.MaxImageBytes = 1 }), []byte{1, 2}, "image/png", attachments.CodeImageTooLarge, "Image exceeds the configured byte limit."},
		{"pixels", s, wide, "image/png", attachments.CodeImageTooManyPixels, "Image exceeds the configured decoded-pixel limit."},
		{"side", newStore(t, limits, func(c *Config) { c.MaxImagePixels, c.MaxImageDimension = 25, 4 }), wide, "image/png", attachments.CodeImageDimensionTooLarge, "Image exceeds the configured per-side pixel limit."},
		{"pixels before mismatch", s, wide, "image/gif", attachments.CodeImageTooManyPixels, "Image exceeds the configured decoded-pixel limit."},
		{"pixels before decode", newStore(t), bomb, "image/png", attachments.CodeImageTooManyPixels, "Image exceeds the configured decoded-pixel limit."},
		{"decode before mismatch", s, png90[:70], "image/jpeg", attachments.CodeInvalidImage, "Unsupported or malformed image data."},
		{"truncated jpeg", s, encJPEG(t, photo(4, 4), 90)[:200], "image/jpeg", attachments.CodeInvalidImage, "Unsupported or malformed image data."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.s.SaveImage(context.Background(), attachments.SaveImage{Data: c.data, MediaType: c.mt})
			assert.True(t, errorIsExactly(err, c.code, c.msg), "%v", err)
			assert.True(t, attachments.IsImageAdmissionError(err))
			_, statErr := os.Stat(c.s.root)
			assert.True(t, os.IsNotExist(statErr), "nothing written")
		})
	}
	ref, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: "image/png", Name: "\x00"})
	require.NoError(t, err)
	assert.Equal(t, "", ref.Name, "an empty display name is omitted")
}

// Reference: "fails closed when an object is missing, corrupted, or
// addressed by an invalid reference" (docs/attachments.md "Storage").
func TestReadFailsClosed(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref := save(t, s, png90, "image/png")
	obj := objectOf(s, ref)
	require.NoError(t, os.WriteFile(obj, []byte{1, 2, 3}, 0o600))
	_, err := s.ReadImage(ctx, ref)
	assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, "Stored attachment failed integrity verification."), "%v", err)
	for _, id := range []string{"bad", "sha256:" + strings.ToUpper(string(ref.AttachmentID[7:])), string(ref.AttachmentID) + "0", "sha1:" + string(ref.AttachmentID[7:])} {
		_, err = s.ReadImage(ctx, attachments.ImageRef{AttachmentID: attachments.AttachmentID(id)})
		assert.True(t, errorIsExactly(err, attachments.CodeInvalidAttachmentRef, "Attachment reference is invalid."), "%s: %v", id, err)
	}

	missing := newStore(t)
	_, err = missing.ReadImage(ctx, ref)
	assert.True(t, errorIsExactly(err, attachments.CodeNotFound, "Attachment object is missing."), "%v", err)

	dir := newStore(t)
	require.NoError(t, os.MkdirAll(objectOf(dir, ref), 0o700))
	_, err = dir.ReadImage(ctx, ref)
	assert.True(t, errorIsExactly(err, attachments.CodeReadFailed, "Unable to read image attachment."), "%v", err)
	assert.NotContains(t, err.Error(), dir.home, "no host path in the message")

	fifo := newStore(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(objectOf(fifo, ref)), 0o700))
	require.NoError(t, syscall.Mkfifo(objectOf(fifo, ref), 0o600))
	_, err = fifo.ReadImage(ctx, ref)
	assert.True(t, errorIsExactly(err, attachments.CodeReadFailed, "Unable to read image attachment."), "a FIFO never hangs: %v", err)

	// A valid image under the right name that is not a supported format
	// fails the probe.
	probe := newStore(t)
	junk := []byte("not an image at all")
	h := sha(junk)[7:]
	require.NoError(t, os.MkdirAll(filepath.Join(probe.root, "objects", h[:2]), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(probe.root, "objects", h[:2], h), junk, 0o600))
	_, err = probe.ReadImage(ctx, attachments.ImageRef{AttachmentID: attachments.AttachmentID("sha256:" + h), MediaType: "image/png", Bytes: len(junk)})
	assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "%v", err)
}

// Conflicting existing objects and reference metadata mismatches are
// refused.
func TestConflictsAndMetadataMismatch(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	h := png90ID[7:]
	target := filepath.Join(s.root, "objects", h[:2], h)
	require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o700))
	require.NoError(t, os.WriteFile(target, []byte{1, 2, 3}, 0o600))
	_, err := s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: "image/png"})
	assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, "Stored attachment failed integrity verification."), "%v", err)
	assert.Empty(t, dirNames(t, filepath.Join(s.root, "tmp")), "staging cleaned up")

	require.NoError(t, os.WriteFile(target, png90, 0o600))
	ref := save(t, s, png90, "image/png")
	for name, bad := range map[string]attachments.ImageRef{
		"width":      {AttachmentID: ref.AttachmentID, MediaType: ref.MediaType, Bytes: ref.Bytes, Width: 2, Height: 1},
		"height":     {AttachmentID: ref.AttachmentID, MediaType: ref.MediaType, Bytes: ref.Bytes, Width: 1, Height: 2},
		"bytes":      {AttachmentID: ref.AttachmentID, MediaType: ref.MediaType, Bytes: 91, Width: 1, Height: 1},
		"media type": {AttachmentID: ref.AttachmentID, MediaType: "image/webp", Bytes: ref.Bytes, Width: 1, Height: 1},
	} {
		_, err := s.ReadImage(ctx, bad)
		assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, "Stored attachment metadata does not match its reference."), "%s: %v", name, err)
	}
	// name and originalDimensions are not checked.
	withExtras := ref
	withExtras.Name, withExtras.OriginalDimensions = "x.png", &attachments.Dimensions{Width: 9, Height: 9}
	got, err := s.ReadImage(ctx, withExtras)
	require.NoError(t, err)
	assert.Equal(t, withExtras, got.Ref, "the caller's ref as given")
}

// Reference: "maps unexpected publication failures to a stable storage
// error" — a directory where the object belongs.
func TestPublicationFailureIsWriteFailed(t *testing.T) {
	s := newStore(t)
	h := png90ID[7:]
	require.NoError(t, os.MkdirAll(filepath.Join(s.root, "objects", h[:2], h), 0o700))
	_, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: "image/png"})
	assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, "Unable to persist image attachment."), "%v", err)
	assert.NotNil(t, errors.Unwrap(err), "cause chained")
	assert.Empty(t, dirNames(t, filepath.Join(s.root, "tmp")), "no staging residue")

	// An unwritable home is wrapped too (no raw OS error with a path).
	ro := newStore(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(ro.home), 0o500))
	require.NoError(t, os.Chmod(filepath.Dir(ro.home), 0o500))
	t.Cleanup(func() { _ = os.Chmod(filepath.Dir(ro.home), 0o700) })
	if os.Geteuid() != 0 {
		_, err = ro.SaveImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: "image/png"})
		assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, attachments.MsgWriteFailed), "%v", err)
	}
}

// Reference: "rejects prepared bytes that no longer match their
// content-addressed reference".
func TestCommitRejectsTamperedPrepared(t *testing.T) {
	s := newStore(t)
	p, err := admit(t, s, png90, "image/png")
	require.NoError(t, err)
	tampered := p
	tampered.data = append(append([]byte{}, p.data...), 0)
	_, _, err = s.commit(tampered)
	assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, "Prepared attachment bytes do not match their reference."), "%v", err)
	short := p
	short.ref.Bytes++
	_, _, err = s.commit(short)
	assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, attachments.MsgPreparedCorrupt), "%v", err)
	bad := p
	bad.ref.AttachmentID = "sha256:XYZ"
	_, _, err = s.commit(bad)
	assert.True(t, errorIsExactly(err, attachments.CodeInvalidAttachmentRef, attachments.MsgInvalidAttachmentRef), "%v", err)
	_, statErr := os.Stat(s.root)
	assert.True(t, os.IsNotExist(statErr))
}

// Concurrent admissions of the same image are safe: one object,
// identical refs, no staging residue (run with -race).
func TestConcurrentSameImage(t *testing.T) {
	s := newStore(t, func(c *Config) { c.ImageCompressionConcurrency = 4 })
	converted := encPNG(t, noise(50, 40, 8, true))
	for _, data := range [][]byte{png90, converted} {
		const n = 16
		refs := make([]attachments.ImageRef, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				refs[i], errs[i] = s.SaveImage(context.Background(), attachments.SaveImage{Data: data, MediaType: "image/png"})
			})
		}
		wg.Wait()
		for i := range n {
			require.NoError(t, errs[i])
			assert.Equal(t, refs[0], refs[i])
		}
		got, err := s.ReadImage(context.Background(), refs[0])
		require.NoError(t, err)
		assert.Equal(t, refs[0].Bytes, len(got.Data))
		assert.Equal(t, []string{filepath.Base(objectOf(s, refs[0]))}, dirNames(t, filepath.Dir(objectOf(s, refs[0]))))
	}
	assert.Empty(t, dirNames(t, filepath.Join(s.root, "tmp")))
}

func TestDisplayName(t *testing.T) {
	long := strings.Repeat("a", 300)
	emoji := strings.Repeat("😀", 200) // 2 UTF-16 units each
	for in, want := range map[string]string{
		"":                        "",
		"pixel.png":               "pixel.png",
		"/private/tmp/pixel.png":  "pixel.png",
		`C:\Users\me\shot.png`:    "shot.png",
		`a/b\c/d.png`:             "d.png",
		"dir/":                    "",
		"\x00":                    "",
		" \t name.png \n":         "name.png",
		"\ufeff\u00a0x.png\u3000": "x.png",
		"a\x01b\x1fc\x7fd":        "abcd",
		"a\u0085b":                "a\u0085b",
		long:                      long[:255],
		emoji:                     strings.Repeat("😀", 127),
		"x" + emoji:               "x" + strings.Repeat("😀", 127),
	} {
		assert.Equal(t, want, displayName(in), "%q", in)
	}
}
