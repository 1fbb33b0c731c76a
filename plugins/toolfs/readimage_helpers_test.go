package toolfs_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	_ "golang.org/x/image/webp" // registers the WebP decoder for the fake store

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Fixtures: 1x1 and 3x3 red PNGs, and a 1x1 lossless WebP.
var (
	png1x1  = mustB64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
	png3x3  = mustB64("iVBORw0KGgoAAAANSUhEUgAAAAMAAAADCAIAAADZSiLoAAAAEElEQVR4nGP4z8AAQQxYWACPjgj4kWPEuQAAAABJRU5ErkJggg==")
	webp1x1 = mustB64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
)

func mustB64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// encodeImage encodes a w x h image in format ("png", "jpeg", "gif").
func encodeImage(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(40 * x), G: uint8(40 * y), B: 200, A: 255})
		}
	}
	var buf bytes.Buffer
	switch format {
	case "png":
		require.NoError(t, png.Encode(&buf, img))
	case "jpeg":
		require.NoError(t, jpeg.Encode(&buf, img, nil))
	case "gif":
		require.NoError(t, gif.Encode(&buf, img, nil))
	default:
		t.Fatalf("unknown format %q", format)
	}
	return buf.Bytes()
}

// defaultLimits are the local backend's defaults (docs/attachments.md "Configuration").
func defaultLimits() attachments.ImageLimits {
	return attachments.ImageLimits{
		MaxImageBytes: 20 * 1024 * 1024, MaxImagesPerMessage: 20, MaxMessageImageBytes: 200 * 1024 * 1024,
		MaxImagePixels: 64_000_000, MaxImageDimension: 8192, MediaTypes: attachments.MediaTypes(),
	}
}

// fakeStore is an in-memory attachments.Store for the tool's tests: it decodes with the standard
// decoders (png, jpeg, gif, x/image/webp), applies the admission checks in the store's order
// (docs/attachments.md "Admission") and stores the bytes unchanged under sha256. saveErr and
// refHook let a test script failures and references.
type fakeStore struct {
	limits attachments.ImageLimits

	mu      sync.Mutex
	objects map[attachments.AttachmentID][]byte
	saves   []attachments.SaveImage
	saveErr error                                           // returned by SaveImage when set
	refHook func(attachments.ImageRef) attachments.ImageRef // rewrites the returned ref
}

var _ attachments.Store = (*fakeStore)(nil)

func newFakeStore(limits attachments.ImageLimits) *fakeStore {
	return &fakeStore{limits: limits, objects: map[attachments.AttachmentID][]byte{}}
}

func (s *fakeStore) ImageLimits() attachments.ImageLimits { return s.limits }

func (s *fakeStore) ValidateImage(ctx context.Context, in attachments.SaveImage) error {
	_, err := s.admit(ctx, in)
	return err
}

func (s *fakeStore) admit(ctx context.Context, in attachments.SaveImage) (attachments.ImageRef, error) {
	if ctx.Err() != nil {
		return attachments.ImageRef{}, context.Cause(ctx)
	}
	if len(in.Data) > s.limits.MaxImageBytes {
		return attachments.ImageRef{}, attachments.NewError(attachments.CodeImageTooLarge, attachments.MsgImageTooLarge, nil)
	}
	if len(in.Data) == 0 {
		return attachments.ImageRef{}, attachments.NewError(attachments.CodeInvalidImage, attachments.MsgImageEmpty, nil)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(in.Data))
	if err != nil {
		return attachments.ImageRef{}, attachments.InvalidImage(err)
	}
	if cfg.Width*cfg.Height > s.limits.MaxImagePixels {
		return attachments.ImageRef{}, attachments.NewError(attachments.CodeImageTooManyPixels, attachments.MsgImageTooManyPixels, nil)
	}
	if cfg.Width > s.limits.MaxImageDimension || cfg.Height > s.limits.MaxImageDimension {
		return attachments.ImageRef{}, attachments.NewError(attachments.CodeImageDimensionTooLarge, attachments.MsgImageDimensionTooLarge, nil)
	}
	if _, _, err := image.Decode(bytes.NewReader(in.Data)); err != nil {
		return attachments.ImageRef{}, attachments.InvalidImage(err)
	}
	detected := attachments.MediaType("image/" + format)
	if detected != in.MediaType {
		return attachments.ImageRef{}, attachments.NewError(attachments.CodeImageTypeMismatch, attachments.MsgImageTypeMismatch, nil)
	}
	sum := sha256.Sum256(in.Data)
	return attachments.ImageRef{AttachmentID: attachments.AttachmentID("sha256:" + hex.EncodeToString(sum[:])),
		MediaType: detected, Bytes: len(in.Data), Width: cfg.Width, Height: cfg.Height, Name: in.Name}, nil
}

func (s *fakeStore) SaveImage(ctx context.Context, in attachments.SaveImage) (attachments.ImageRef, error) {
	s.mu.Lock()
	s.saves = append(s.saves, in)
	saveErr, hook := s.saveErr, s.refHook
	s.mu.Unlock()
	if saveErr != nil {
		return attachments.ImageRef{}, saveErr
	}
	ref, err := s.admit(ctx, in)
	if err != nil {
		return attachments.ImageRef{}, err
	}
	if hook != nil {
		ref = hook(ref)
	}
	s.mu.Lock()
	s.objects[ref.AttachmentID] = bytes.Clone(in.Data)
	s.mu.Unlock()
	return ref, nil
}

func (s *fakeStore) SaveImages(ctx context.Context, in []attachments.SaveImage) ([]attachments.ImageRef, error) {
	return attachments.SaveImagesInOrder(ctx, s, in)
}

func (s *fakeStore) ReadImage(ctx context.Context, ref attachments.ImageRef) (attachments.StoredImage, error) {
	if ctx.Err() != nil {
		return attachments.StoredImage{}, context.Cause(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.objects[ref.AttachmentID]
	if !ok {
		return attachments.StoredImage{}, attachments.NewError(attachments.CodeNotFound, attachments.MsgNotFound, nil)
	}
	return attachments.StoredImage{Ref: ref, Data: bytes.Clone(data)}, nil
}

func (s *fakeStore) ReadImageRequest(ctx context.Context, _ attachments.ImageRef, _ attachments.ImageRequestPolicy) (attachments.RequestImage, error) {
	return attachments.UnsupportedRequest(ctx)
}

// saveCount returns how many SaveImage calls the store received.
func (s *fakeStore) saveCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.saves)
}

// storeModule provides store as the attachments service.
func storeModule(store attachments.Store) kernel.Module {
	return kernel.Module{ID: "fake-attachments", Apply: func(kc *kernel.Context, _ any) error {
		_, err := attachments.Service.Provide(kc, store)
		return err
	}}
}

// testCatalog is the model catalog of the tests: three models (image, text only,
// undeclared) with the image model as the default.
func testCatalog() modelcatalog.Config {
	return modelcatalog.Config{DefaultModel: "vision-model", Models: []modelcatalog.Model{
		{ID: "vision-model", Input: []string{"text", "image"}},
		{ID: "text-model", Input: []string{"text"}},
		{ID: "legacy-model"},
	}}
}

// imgEnv is an env with tool-fs, a model catalog and (unless noStore) an attachment store, plus a
// recorder of every fs/observed dispatch.
type imgEnv struct {
	*env
	store    *fakeStore
	storeF   *kernel.Fiber
	catalogF *kernel.Fiber

	obsMu    sync.Mutex
	observed []string // "<kind> <displayPath>"
}

type imgOptions struct {
	noStore   bool
	noCatalog bool
	limits    *attachments.ImageLimits
	catalog   *modelcatalog.Config
}

func newImgEnv(t *testing.T, opt imgOptions) *imgEnv {
	t.Helper()
	e := &imgEnv{env: newEnv(t, envOptions{})}
	limits := defaultLimits()
	if opt.limits != nil {
		limits = *opt.limits
	}
	e.store = newFakeStore(limits)
	if !opt.noStore {
		e.storeF = kerneltest.RequireLoad(t, e.root, storeModule(e.store), nil)
		kerneltest.RequireActive(t, e.storeF)
	}
	if !opt.noCatalog {
		cfg := testCatalog()
		if opt.catalog != nil {
			cfg = *opt.catalog
		}
		e.catalogF = kerneltest.RequireLoad(t, e.root, modelcatalog.Plugin, cfg)
		kerneltest.RequireActive(t, e.catalogF)
	}
	rec := kernel.Module{ID: "observed-recorder", Apply: func(kc *kernel.Context, _ any) error {
		_, err := fs.ObservedEvent.On(kc, func(_ context.Context, p fs.ObservedArgs) error {
			e.obsMu.Lock()
			e.observed = append(e.observed, string(p.Observation.Kind)+" "+p.Target.DisplayPath)
			e.obsMu.Unlock()
			return nil
		})
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, rec, nil))
	e.fsys.take()
	return e
}

// takeObserved returns and clears the recorded observations.
func (e *imgEnv) takeObserved() []string {
	e.obsMu.Lock()
	defer e.obsMu.Unlock()
	out := e.observed
	e.observed = nil
	return out
}

// withModel returns a session whose header names model (and the env's directory as cwd).
func (e *imgEnv) withModel(model string) *tools.Session {
	s := tools.NewSession("s-" + model)
	s.SetHeader(tools.Header{Cwd: e.dir, Model: model})
	return s
}

func (e *imgEnv) writeBytes(t *testing.T, name string, data []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(e.path(name), data, 0o644))
}

// readImage calls read_image in session s with file_path p.
func (e *imgEnv) readImage(s *tools.Session, p string) tools.Result {
	return e.callIn(s, "read_image", args{"file_path": p})
}

// imageText is the text block of a successful read_image.
func imageText(dp string, ref attachments.ImageRef) string { return toolfs.RenderReadImage(dp, ref) }
