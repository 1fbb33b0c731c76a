package toolfs_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/tools"
)

var readImageDescriptionText = golden("read_image.description")

const (
	readImageSchema = `{"type":"object","properties":{"file_path":{"type":"string","description":"The image file. Absolute, or relative to the session's working directory."}},"required":["file_path"]}`
)

func toolNames(rt *tools.Runtime) []string {
	var names []string
	for _, s := range rt.Schemas() {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return names
}

func TestReadImageSchema(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	def, ok := e.rt.Get("read_image")
	require.True(t, ok)
	assert.Equal(t, readImageDescriptionText, def.Description)
	for _, s := range e.rt.Schemas() {
		if s.Name == "read_image" {
			assert.Equal(t, readImageSchema, string(s.Parameters), "byte-for-byte")
		}
	}
	assert.True(t, e.rt.ConcurrencySafe("read_image", json.RawMessage(`{"file_path":"a.png"}`)), "always parallel-safe")
	assert.Len(t, e.rt.GuidanceSections(), 3, "read_image has no guidance section")
}

// TestReadImageVisibility pins docs/tool-fs.md "The plugin": read_image exists exactly while an
// attachment service is mounted; the other tools do not depend on it.
func TestReadImageVisibility(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	all := []string{"edit", "read", "read_image", "write"}
	require.Equal(t, all, toolNames(e.rt))

	kerneltest.RequireDispose(t, e.storeF)
	assert.Equal(t, []string{"edit", "read", "write"}, toolNames(e.rt), "disposing the store withdraws read_image only")
	e.writeBytes(t, "red.png", png1x1)
	res := e.readImage(e.withModel("vision-model"), "red.png")
	require.True(t, res.IsError)
	assert.Contains(t, res.Text(), `unknown tool "read_image"`)

	again := kerneltest.RequireLoad(t, e.root, storeModule(e.store), nil)
	kerneltest.RequireActive(t, again)
	assert.Equal(t, all, toolNames(e.rt), "remounting a store restores it")
	requireOK(t, e.readImage(e.withModel("vision-model"), "red.png"))

	kerneltest.RequireDispose(t, e.toolFs)
	assert.Empty(t, e.rt.Schemas(), "disposing tool-fs withdraws every tool, read_image included")
}

func TestReadImageAbsentWithoutStore(t *testing.T) {
	e := newImgEnv(t, imgOptions{noStore: true})
	assert.Equal(t, []string{"edit", "read", "write"}, toolNames(e.rt))
	_, ok := e.rt.Get("read_image")
	assert.False(t, ok)
	e.writeBytes(t, "red.png", png1x1)
	res := e.readImage(e.withModel("vision-model"), "red.png")
	require.True(t, res.IsError)
	assert.Contains(t, res.Text(), `unknown tool "read_image"`)

	// A store that arrives later makes the tool appear.
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, storeModule(e.store), nil))
	assert.Equal(t, []string{"edit", "read", "read_image", "write"}, toolNames(e.rt))
}

// TestReadImageDefensiveWithoutStore registers the definition directly (as a direct caller could)
// with no store mounted: the body refuses before any I/O.
func TestReadImageDefensiveWithoutStore(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	def, ok := e.rt.Get("read_image")
	require.True(t, ok)
	kerneltest.RequireDispose(t, e.storeF)
	probe := kernel.Module{ID: "direct-read-image", Inject: []kernel.Dep{tools.Service.Dep()}, Apply: func(kc *kernel.Context, _ any) error {
		_, err := tools.Service.Must(kc).Register(kc, def)
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, probe, nil))
	e.writeBytes(t, "red.png", png1x1)
	e.fsys.take()
	requireFailure(t, e.readImage(e.withModel("vision-model"), "red.png"), `Error: cannot read "red.png" as an image: no attachment service is mounted`, "")
	requireFailure(t, e.readImage(e.withModel("vision-model"), "a.txt"),
		`Error: cannot read "a.txt": the .txt extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`,
		"") // the extension check precedes the store check
	assert.Empty(t, e.fsys.take(), "no filesystem I/O")
}

// TestReadImageHappyPath: the bytes are committed, the envelope and the image block are rendered,
// the value and the meta are docs/tool-fs.md's, and the present observation is emitted.
func TestReadImageHappyPath(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	res := e.readImage(e.withModel("vision-model"), "red.png")
	requireOK(t, res)

	dp := e.path("red.png")
	require.Len(t, res.Content, 2)
	v := valueJSON(t, res)
	var got struct {
		Path  string               `json:"path"`
		Image attachments.ImageRef `json:"image"`
	}
	require.NoError(t, json.Unmarshal([]byte(v), &got))
	assert.Equal(t, dp, got.Path)
	assert.Equal(t, attachments.MediaTypePNG, got.Image.MediaType)
	assert.Equal(t, 1, got.Image.Width)
	assert.Equal(t, 1, got.Image.Height)
	assert.Equal(t, len(png1x1), got.Image.Bytes)
	assert.Equal(t, "red.png", got.Image.Name, "the display name is the display path's basename")
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, string(got.Image.AttachmentID))
	assert.Nil(t, got.Image.OriginalDimensions)

	assert.Equal(t, tools.TextContent(imageText(dp, got.Image)), res.Content[0])
	assert.Equal(t, "<path>"+dp+"</path>\n<type>image</type>\n<content>\nimage/png image, 1x1 px, "+
		itoa(len(png1x1))+" bytes\n</content>", res.Content[0].Text)
	stored, err := e.store.ReadImage(context.Background(), got.Image)
	require.NoError(t, err)
	assert.Equal(t, tools.ImageContent("image/png", base64.StdEncoding.EncodeToString(stored.Data)), res.Content[1],
		"the image block carries the committed bytes")
	assert.Equal(t, png1x1, stored.Data, "the committed object reads back verbatim")

	assert.Equal(t, `{"path":`+jsonString(dp)+`}`, metaJSON(t, res), "presentation meta {path}")
	assert.Equal(t, []string{"present " + dp}, e.takeObserved())
	assert.Equal(t, []string{"resolve", "stat"}, e.fsys.take(), "one resolve, one stat (then one bounded byte read)")
}

// TestReadImageFormats reads every accepted format, by extension and without one.
func TestReadImageFormats(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	files := []struct {
		name string
		data []byte
		want attachments.MediaType
		w, h int
	}{
		{"a.png", encodeImage(t, "png", 3, 2), "image/png", 3, 2},
		{"b.JPG", encodeImage(t, "jpeg", 4, 3), "image/jpeg", 4, 3},
		{"c.jpeg", encodeImage(t, "jpeg", 2, 2), "image/jpeg", 2, 2},
		{"d.Gif", encodeImage(t, "gif", 5, 1), "image/gif", 5, 1},
		{"e.webp", webp1x1, "image/webp", 1, 1},
		{"png-noext", encodeImage(t, "png", 2, 5), "image/png", 2, 5},
		{"jpeg-noext", encodeImage(t, "jpeg", 6, 2), "image/jpeg", 6, 2},
		{"gif-noext", encodeImage(t, "gif", 1, 1), "image/gif", 1, 1},
		{"webp-noext", webp1x1, "image/webp", 1, 1},
		{".hidden", encodeImage(t, "png", 1, 2), "image/png", 1, 2}, // a leading-dot name has no extension
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			e.writeBytes(t, f.name, f.data)
			res := e.readImage(e.withModel("vision-model"), f.name)
			requireOK(t, res)
			assert.Equal(t, string(f.want), res.Content[1].MediaType)
			assert.Contains(t, res.Content[0].Text, string(f.want)+" image, "+itoa(f.w)+"x"+itoa(f.h)+" px, "+itoa(len(f.data))+" bytes")
			assert.Equal(t, []string{"present " + e.path(f.name)}, e.takeObserved())
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestReadImageGatesBeforeIO pins the gates of docs/tool-fs.md "read_image" (the extension refusal
// included): each one happens before any filesystem call, records nothing and saves
// nothing; the raw argument is named.
func TestReadImageGatesBeforeIO(t *testing.T) {
	jpegOnly := defaultLimits()
	jpegOnly.MediaTypes = []attachments.MediaType{attachments.MediaTypeJPEG}
	textDefault := testCatalog()
	textDefault.DefaultModel = "text-model"
	cases := []struct {
		name    string
		opt     imgOptions
		session func(e *imgEnv) *tools.Session
		path    string
		want    string
	}{
		{"blank path", imgOptions{}, vision, "  \t", argError("read.error.blank_path")},
		{"non-image extension", imgOptions{}, vision, "notes.txt",
			`Error: cannot read "notes.txt": the .txt extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`},
		{"upper-case non-image extension is lower-cased", imgOptions{}, vision, "Notes.TXT",
			`Error: cannot read "Notes.TXT": the .txt extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`},
		{"a bare dot is an extension", imgOptions{}, vision, "foo.",
			`Error: cannot read "foo.": the . extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`},
		{"svg", imgOptions{}, vision, "icon.svg",
			`Error: cannot read "icon.svg": the .svg extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`},
		{"declared type not accepted", imgOptions{limits: &jpegOnly}, vision, "red.png",
			`Error: cannot read "red.png": image/png images are not accepted by this deployment`},
		{"text-only model", imgOptions{}, func(e *imgEnv) *tools.Session { return e.withModel("text-model") }, "red.png",
			`Error: cannot read "red.png" as an image: model "text-model" does not declare image input; switch to an image-capable model to read images`},
		{"model without declared modalities", imgOptions{}, func(e *imgEnv) *tools.Session { return e.withModel("legacy-model") }, "red.png",
			`Error: cannot read "red.png" as an image: model "legacy-model" does not declare image input; switch to an image-capable model to read images`},
		{"model absent from the catalog", imgOptions{}, func(e *imgEnv) *tools.Session { return e.withModel("unknown-model") }, "red.png",
			`Error: cannot read "red.png" as an image: model "unknown-model" does not declare image input; switch to an image-capable model to read images`},
		{"a text-only default model", imgOptions{catalog: &textDefault}, func(e *imgEnv) *tools.Session { return tools.NewSession("plain") }, "red.png",
			`Error: cannot read "red.png" as an image: model "text-model" does not declare image input; switch to an image-capable model to read images`},
		{"no session: the route cannot be resolved", imgOptions{}, func(*imgEnv) *tools.Session { return nil }, "red.png",
			`Error: cannot read "red.png" as an image: the current model route could not be resolved`},
		{"no model catalog", imgOptions{noCatalog: true}, vision, "red.png",
			`Error: cannot read "red.png" as an image: the current model route could not be resolved`},
		{"the route gate precedes the stat of a missing file", imgOptions{}, func(e *imgEnv) *tools.Session { return e.withModel("text-model") }, "absent.png",
			`Error: cannot read "absent.png" as an image: model "text-model" does not declare image input; switch to an image-capable model to read images`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newImgEnv(t, tc.opt)
			e.writeBytes(t, "red.png", png1x1)
			e.fsys.take()
			res := e.readImage(tc.session(e), tc.path)
			requireFailure(t, res, tc.want, "")
			assert.Empty(t, e.fsys.take(), "no filesystem call")
			assert.Empty(t, e.takeObserved(), "no observation")
			assert.Zero(t, e.store.saveCount(), "no attachment write")
		})
	}
}

func vision(e *imgEnv) *tools.Session { return e.withModel("vision-model") }

// TestReadImageDefaultModel: a session that names no model uses the catalog's default model.
func TestReadImageDefaultModel(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	requireOK(t, e.readImage(e.session, "red.png"))
	requireOK(t, e.readImage(e.withModel("VISION-MODEL"), "red.png")) // model ids match case-insensitively
}

// failingCatalog resolves every model with an error.
type failingCatalog struct{ err error }

func (c failingCatalog) DefaultModel() string { return "m" }
func (c failingCatalog) ResolveModel(context.Context, string) (tools.ModelInfo, error) {
	return tools.ModelInfo{}, c.err
}

// TestReadImageResolveErrorPropagates: an error of the model seam propagates unchanged.
func TestReadImageResolveErrorPropagates(t *testing.T) {
	e := newImgEnv(t, imgOptions{noCatalog: true})
	boom := errors.New("model registry unavailable")
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, kernel.Module{ID: "failing-catalog", Apply: func(kc *kernel.Context, _ any) error {
		_, err := tools.Models.Provide(kc, tools.ModelCatalog(failingCatalog{boom}))
		return err
	}}, nil))
	e.writeBytes(t, "red.png", png1x1)
	requireFailure(t, e.readImage(e.session, "red.png"), "Error: model registry unavailable", "")
}

// TestReadImageFilesystemStep pins docs/tool-fs.md "read_image", "Then" steps 1 and 2: a missing
// file records absent before failing; a directory fails without an observation; the cap is the
// smaller of the two limits.
func TestReadImageFilesystemStep(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	requireFailure(t, e.readImage(vision(e), "absent.png"), `Error: cannot read "`+e.path("absent.png")+`": not found`, "FS_NOT_FOUND")
	assert.Equal(t, []string{"absent " + e.path("absent.png")}, e.takeObserved())

	requireFailure(t, e.readImage(vision(e), "shot"), `Error: cannot read "`+e.path("shot")+`": not found`, "FS_NOT_FOUND")
	assert.Equal(t, []string{"absent " + e.path("shot")}, e.takeObserved(), "an extension-less path is resolved the same way")

	require.NoError(t, os.Mkdir(e.path("folder.png"), 0o755))
	requireFailure(t, e.readImage(vision(e), "folder.png"), `Error: cannot read "`+e.path("folder.png")+`": not a regular file`, "FS_NOT_REGULAR_FILE")
	assert.Empty(t, e.takeObserved())
	assert.Zero(t, e.store.saveCount())

	n := len(png1x1)
	for _, tc := range []struct {
		name   string
		limits func(l *attachments.ImageLimits)
	}{
		{"maxImageBytes", func(l *attachments.ImageLimits) { l.MaxImageBytes = n - 1 }},
		{"maxMessageImageBytes", func(l *attachments.ImageLimits) { l.MaxMessageImageBytes = n - 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limits := defaultLimits()
			tc.limits(&limits)
			e := newImgEnv(t, imgOptions{limits: &limits})
			e.writeBytes(t, "red.png", png1x1)
			requireFailure(t, e.readImage(vision(e), "red.png"),
				`Error: cannot read "`+e.path("red.png")+`": `+itoa(n)+" bytes exceeds the "+itoa(n-1)+"-byte limit", "FS_TOO_LARGE")
			assert.Empty(t, e.takeObserved(), "no observation after a failure past the stat")
			assert.Zero(t, e.store.saveCount())
		})
	}
	limits := defaultLimits()
	limits.MaxImageBytes = n
	exact := newImgEnv(t, imgOptions{limits: &limits})
	exact.writeBytes(t, "red.png", png1x1)
	requireOK(t, exact.readImage(vision(exact), "red.png"))
}

// TestReadImageUsesSessionCwd: a relative path resolves against the session's cwd and the display
// path is what the messages and the value name.
func TestReadImageUsesSessionCwd(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	require.NoError(t, os.Mkdir(e.path("sub"), 0o755))
	e.writeBytes(t, "sub/red.png", png1x1)
	s := tools.NewSession("sub")
	s.SetHeader(tools.Header{Cwd: e.path("sub"), Model: "vision-model"})
	res := e.readImage(s, "red.png")
	requireOK(t, res)
	assert.Contains(t, res.Content[0].Text, "<path>"+e.path("sub/red.png")+"</path>")
	res = e.readImage(s, "../sub/red.png")
	requireOK(t, res)
	assert.Contains(t, res.Content[0].Text, "<path>"+e.path("sub/red.png")+"</path>")
}
