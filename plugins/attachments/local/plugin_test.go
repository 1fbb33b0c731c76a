package local_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/attachments"
	attachmentlocal "github.com/cordon-dev/cordon/plugins/attachments/local"
)

func config(home string) attachmentlocal.Config {
	c := attachmentlocal.DefaultConfig()
	c.Home = &home
	return c
}

func TestCatalogRegistration(t *testing.T) {
	cat, err := kernelfx.Catalog(attachmentlocal.Module)
	require.NoError(t, err)
	m, ok := cat.Lookup("attachment-local")
	require.True(t, ok)
	assert.Equal(t, attachmentlocal.ID, m.ID)
}

func TestPluginProvidesTheService(t *testing.T) {
	root := kerneltest.NewRoot(t)
	home := t.TempDir()
	f := kerneltest.RequireLoad(t, root, attachmentlocal.Plugin, config(home))
	kerneltest.RequireActive(t, f)
	svc, ok := attachments.Service.Get(root)
	require.True(t, ok)
	s, ok := svc.(*attachmentlocal.Store)
	require.True(t, ok)
	assert.Equal(t, filepath.Join(home, "attachments", "v1"), s.Root())

	second, err := root.Load(attachmentlocal.Plugin, config(home))
	if err == nil {
		assert.ErrorIs(t, second.Err(), kernel.ErrDuplicateService)
	} else {
		assert.ErrorIs(t, err, kernel.ErrDuplicateService)
	}
	kerneltest.RequireDispose(t, f)
	_, ok = attachments.Service.Get(root)
	assert.False(t, ok)
}

// Every omitted admission limit resolves to its default explicitly.
func TestDefaults(t *testing.T) {
	assert.Equal(t, 20971520, attachmentlocal.DefaultMaxImageBytes)
	assert.Equal(t, 20, attachmentlocal.DefaultMaxImagesPerMessage)
	assert.Equal(t, 209715200, attachmentlocal.DefaultMaxMessageImageBytes)
	assert.Equal(t, 64000000, attachmentlocal.DefaultMaxImagePixels)
	assert.Equal(t, 8192, attachmentlocal.DefaultMaxImageDimension)
	assert.Equal(t, 2048, attachmentlocal.DefaultNormalizedImageMaxDimension)
	assert.Equal(t, 4194304, attachmentlocal.DefaultNormalizedImageMaxBytes)
	assert.Equal(t, 2, attachmentlocal.DefaultImageCompressionConcurrency)
	assert.Equal(t, 2147483648, attachmentlocal.DefaultImageTransformMemoryBytes)
	assert.Equal(t, 120000, attachmentlocal.DefaultImageTransformMemoryWaitMs)
	assert.Equal(t, 1073741824, attachmentlocal.DefaultMaxStoreBytes)
	s, err := attachmentlocal.New(config(t.TempDir()), nil)
	require.NoError(t, err)
	assert.Equal(t, attachments.ImageLimits{
		MaxImageBytes: 20971520, MaxImagesPerMessage: 20, MaxMessageImageBytes: 209715200,
		MaxImagePixels: 64000000, MaxImageDimension: 8192,
		MediaTypes: []attachments.MediaType{"image/png", "image/jpeg", "image/webp", "image/gif"},
	}, s.ImageLimits())
	assert.Equal(t, attachmentlocal.NormalizationPolicy{MaxDimension: 2048, MaxBytes: 4194304}, s.NormalizationPolicy())
	assert.Equal(t, 2, s.ImageCompressionConcurrency())
	// Construction performs no I/O.
	_, err = os.Stat(s.Root())
	assert.True(t, os.IsNotExist(err))
}

// The instance image-compression concurrency is resolved and validated
// (direct construction checks only it).
func TestConstructionValidatesConcurrency(t *testing.T) {
	c := config(t.TempDir())
	c.ImageCompressionConcurrency = 1
	s, err := attachmentlocal.New(c, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, s.ImageCompressionConcurrency())
	for _, n := range []int{0, 9, -1} {
		c.ImageCompressionConcurrency = n
		_, err := attachmentlocal.New(c, nil)
		assert.EqualError(t, err, "attachment-local: imageCompressionConcurrency must be an integer from 1 through 8", "%d", n)
	}
}

func decode(t *testing.T, src string) (*attachmentlocal.Config, error) {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n))
	cfg, err := loader.DecodeConfig(attachmentlocal.Plugin, &n)
	if err != nil {
		return nil, err
	}
	return cfg.(*attachmentlocal.Config), nil
}

// docs/attachments.md "Configuration": every numeric option is an integer >=
// 1 (an integer scalar to the decoder: 8.0 is refused as every plugin's whole
// numbers refuse it), concurrency <= 8; unknown keys are errors; home is a string, null =
// unset; the old key tohHome is refused with the new name.
func TestConfigYAML(t *testing.T) {
	cfg, err := decode(t, "{}")
	require.NoError(t, err)
	want := attachmentlocal.DefaultConfig()
	assert.Equal(t, &want, cfg)

	cfg, err = decode(t, "home: /h\nmaxImageBytes: 8\nmaxImagesPerMessage: 3\nmaxMessageImageBytes: 1000\nmaxImagePixels: 9\nmaxImageDimension: 4\nnormalizedImageMaxDimension: 5\nnormalizedImageMaxBytes: 6\nimageCompressionConcurrency: 8\n")
	require.NoError(t, err)
	require.NotNil(t, cfg.Home)
	assert.Equal(t, "/h", *cfg.Home)
	assert.Equal(t, []int{8, 3, 1000, 9, 4, 5, 6, 8}, []int{cfg.MaxImageBytes, cfg.MaxImagesPerMessage, cfg.MaxMessageImageBytes, cfg.MaxImagePixels, cfg.MaxImageDimension, cfg.NormalizedImageMaxDimension, cfg.NormalizedImageMaxBytes, cfg.ImageCompressionConcurrency})

	cfg, err = decode(t, "home: ''")
	require.NoError(t, err)
	require.NotNil(t, cfg.Home, "an explicit empty string is not unset")
	assert.Equal(t, "", *cfg.Home)
	cfg, err = decode(t, "home: null")
	require.NoError(t, err)
	assert.Nil(t, cfg.Home)

	cfg, err = decode(t, "imageTransformMemoryBytes: 1000000000\nimageTransformMemoryWaitMs: 50\nmaxStoreBytes: 4096\n")
	require.NoError(t, err)
	assert.Equal(t, []int{1000000000, 50, 4096}, []int{cfg.ImageTransformMemoryBytes, cfg.ImageTransformMemoryWaitMs, cfg.MaxStoreBytes})

	for _, key := range []string{"maxImageBytes", "maxImagesPerMessage", "maxMessageImageBytes", "maxImagePixels", "maxImageDimension", "normalizedImageMaxDimension", "normalizedImageMaxBytes",
		"imageTransformMemoryBytes", "imageTransformMemoryWaitMs", "maxStoreBytes"} {
		for _, bad := range []string{"0", "-1", "9007199254740993"} {
			_, err := decode(t, key+": "+bad)
			assert.EqualError(t, err, "attachment-local: "+key+" must be a positive integer", "%s: %s", key, bad)
		}
		// Not an integer scalar (confint.Int decides, as for every plugin's whole numbers): the
		// option's message.
		for bad, tag := range map[string]string{"8.0": "!!float", "1e3": "!!float", "1.5": "!!float", ".inf": "!!float", ".nan": "!!float", "'8'": "!!str"} {
			_, err := decode(t, "home: /h\n"+key+": "+bad)
			assert.EqualError(t, err, "attachment-local: "+key+" must be a positive integer", "%s: %s: %s", key, bad, tag)
		}
	}
	for _, bad := range []string{"0", "9", "-1"} {
		_, err := decode(t, "imageCompressionConcurrency: "+bad)
		assert.EqualError(t, err, "attachment-local: imageCompressionConcurrency must be an integer from 1 through 8", bad)
	}
	for bad, tag := range map[string]string{"2.0": "!!float", "1.5": "!!float", "'2'": "!!str"} {
		_, err := decode(t, "imageCompressionConcurrency: "+bad)
		assert.EqualError(t, err, "attachment-local: imageCompressionConcurrency must be an integer from 1 through 8", "%s: %s", bad, tag)
	}
	_, err = decode(t, "maxImageBytes: 5\nbogus: 1")
	var uk *loader.UnknownKeyError
	require.ErrorAs(t, err, &uk)
	assert.Equal(t, "bogus", uk.Key)
	assert.Equal(t, 2, uk.Line)
	_, err = decode(t, "home: [a]")
	assert.Error(t, err, "home must be a string")
	for _, old := range []string{"tohHome: /h", "maxImageBytes: 5\ntohHome: null"} {
		_, err = decode(t, old)
		assert.EqualError(t, err, `attachment-local: config key "tohHome" was renamed to "home"`, old)
	}
}

// The plugin through an fx host with a YAML composition.
func TestFxComposition(t *testing.T) {
	home := t.TempDir()
	var k *kernel.Kernel
	app := fx.New(
		kernelfx.Module,
		attachmentlocal.Module,
		kernelfx.YAML([]byte("plugins:\n  - name: attachment-local\n    config: { home: '"+home+"', maxImagesPerMessage: 3 }\n")),
		fx.Supply(zaptest.NewLogger(t)),
		fx.Populate(&k),
		fx.NopLogger,
	)
	require.NoError(t, app.Err())
	require.NoError(t, app.Start(context.Background()))
	defer func() { require.NoError(t, app.Stop(context.Background())) }()
	s, ok := attachments.Service.Get(k.Root())
	require.True(t, ok)
	assert.Equal(t, 3, s.ImageLimits().MaxImagesPerMessage)
	assert.Equal(t, filepath.Join(home, "attachments", "v1"), s.(*attachmentlocal.Store).Root())
}

func aged(t *testing.T, p string, when time.Time) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
	require.NoError(t, os.WriteFile(p, []byte("partial"), 0o600))
	require.NoError(t, os.Chtimes(p, when, when))
}

// Crash-orphaned residue is swept when the store mounts, and the store stays
// usable: cutoff = process start.
func TestMountSweepsResidue(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "attachments", "v1")
	stale := filepath.Join(root, "tmp", "orphaned-uuid")
	live := filepath.Join(root, "tmp", "in-flight-uuid")
	fresh := filepath.Join(root, "tmp", "fresh-uuid")
	orphanTemp := filepath.Join(root, "request-images", "cd", "ef01.uuid-4.tmp")
	aged(t, stale, time.Now().Add(-time.Hour*24*365))
	aged(t, live, time.Now().Add(time.Hour))
	aged(t, fresh, time.Now())
	aged(t, orphanTemp, time.Now().Add(-time.Hour*24*365))

	rootCtx, logs := kerneltest.NewObservedRoot(t, zapcore.DebugLevel)
	f := kerneltest.RequireLoad(t, rootCtx, attachmentlocal.Plugin, config(home))
	kerneltest.RequireActive(t, f)
	assert.NoFileExists(t, stale)
	assert.NoFileExists(t, orphanTemp)
	assert.FileExists(t, live)
	assert.FileExists(t, fresh)
	assert.Equal(t, 1, logs.FilterMessage("attachment-local: swept 2 crash-orphaned staging files").Len())

	s, _ := attachments.Service.Get(rootCtx)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")
	ref, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: png, MediaType: "image/png"})
	require.NoError(t, err)
	assert.Equal(t, attachments.AttachmentID("sha256:b1ff9c8ea3a780bad09b346c423d2d0e46815926879b18e841d928376a946640"), ref.AttachmentID)
	got, err := s.ReadImage(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, png, got.Data)
}

// Reference: "still opens when the sweep fails to enumerate".
func TestMountSurvivesFailedSweep(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "attachments", "v1")
	require.NoError(t, os.MkdirAll(root, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(root, "tmp"), []byte("not a directory"), 0o600))
	rootCtx, logs := kerneltest.NewObservedRoot(t, zapcore.DebugLevel)
	f := kerneltest.RequireLoad(t, rootCtx, attachmentlocal.Plugin, config(home))
	kerneltest.RequireActive(t, f)
	_, ok := attachments.Service.Get(rootCtx)
	assert.True(t, ok)
	var found bool
	for _, e := range logs.All() {
		if e.Level == zapcore.DebugLevel && strings.HasPrefix(e.Message, "attachment-local: orphaned-staging sweep skipped: ") {
			found = true
		}
	}
	assert.True(t, found, "the skipped sweep is logged at debug")
}

// Cordon's own options are checked by the constructor too (the other
// options only through the loader): a zero budget, wait or store size would
// refuse every image or evict every object.
func TestConstructionValidatesCordonOptions(t *testing.T) {
	for name, edit := range map[string]func(*attachmentlocal.Config){
		"imageTransformMemoryBytes":  func(c *attachmentlocal.Config) { c.ImageTransformMemoryBytes = 0 },
		"imageTransformMemoryWaitMs": func(c *attachmentlocal.Config) { c.ImageTransformMemoryWaitMs = -1 },
		"maxStoreBytes":              func(c *attachmentlocal.Config) { c.MaxStoreBytes = 0 },
	} {
		c := config(t.TempDir())
		edit(&c)
		_, err := attachmentlocal.New(c, nil)
		assert.EqualError(t, err, "attachment-local: "+name+" must be a positive integer")
	}
}
