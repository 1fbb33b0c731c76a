package toolfs_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// TestReadImageAdmissionRemedies pins docs/attachments.md "What read_image tells the model" with
// the real admission checks of the test store: the limits are named, the remedies use the display
// path, the remedy carries no {name, code} (a plain error with the store's error as
// cause) and nothing is observed.
func TestReadImageAdmissionRemedies(t *testing.T) {
	cases := []struct {
		name   string
		file   string
		data   []byte
		limits func(l *attachments.ImageLimits)
		want   string // after `cannot read "<dp>": `
	}{
		{"pixel limit", "big.png", png3x3, func(l *attachments.ImageLimits) { l.MaxImagePixels = 4 },
			golden("read_image.error.pixels", "max", "4")},
		{"per-side limit", "wide.png", png3x3, func(l *attachments.ImageLimits) { l.MaxImageDimension = 2 },
			golden("read_image.error.dimension", "max", "2")},
		{"default pixel limit printed as a plain integer", "big.png", png3x3, func(l *attachments.ImageLimits) { l.MaxImagePixels = 8; l.MaxImageDimension = 64000000 },
			golden("read_image.error.pixels", "max", "8")},
		{"declared/actual mismatch", "wrong.jpg", png1x1, nil,
			golden("read_image.error.extension_mismatch", "ext", ".jpg", "media_type", "image/jpeg")},
		{"mismatch names the lower-cased extension", "WRONG.JPEG", png1x1, nil,
			golden("read_image.error.extension_mismatch", "ext", ".jpeg", "media_type", "image/jpeg")},
		{"a GIF named .webp", "anim.webp", encodeImage(t, "gif", 2, 2), nil,
			golden("read_image.error.extension_mismatch", "ext", ".webp", "media_type", "image/webp")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			limits := defaultLimits()
			if tc.limits != nil {
				tc.limits(&limits)
			}
			e := newImgEnv(t, imgOptions{limits: &limits})
			e.writeBytes(t, tc.file, tc.data)
			res := e.readImage(vision(e), tc.file)
			requireRemedy(t, res, `Error: cannot read "`+e.path(tc.file)+`": `+tc.want)
			assert.Empty(t, e.takeObserved(), "no observation after an admission failure")
		})
	}
}

// requireFailureCode fails unless r failed with exactly text and carries the attachment code (a
// store error that reaches the model unchanged).
func requireFailureCode(t *testing.T, r tools.Result, text string, code attachments.Code) {
	t.Helper()
	require.True(t, r.IsError, "expected a failure, got %s", r.Text())
	require.Equal(t, text, r.Text())
	require.Len(t, r.Content, 1)
	require.Equal(t, string(code), r.Code())
	require.Equal(t, attachments.ErrorName, r.Error.Name)
}

// requireRemedy fails unless r failed with exactly text and no {name, code}: a remedy is a plain
// error with the store's error as its cause.
func requireRemedy(t *testing.T, r tools.Result, text string) {
	t.Helper()
	require.True(t, r.IsError, "expected a failure, got %s", r.Text())
	require.Equal(t, text, r.Text())
	require.Len(t, r.Content, 1)
	require.False(t, r.Error.HasCode(), "a remedy carries no code: %+v", r.Error)
}

// TestReadImageStoreFailures scripts the store's SaveImage failures: the remedies
// (docs/attachments.md "What read_image tells the model"); INVALID_IMAGE (declared type too),
// IMAGE_OVER_MEMORY_BUDGET and ATTACHMENT_BUSY naming the file with their code kept; everything
// else (storage faults, foreign errors) unchanged.
func TestReadImageStoreFailures(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	dp := e.path("red.png")
	cases := []struct {
		name string
		err  error
		want string
		code string
	}{
		{"storage fault", attachments.WriteFailed(errors.New("disk full")), "Error: Unable to persist image attachment.", "ATTACHMENT_WRITE_FAILED"},
		{"16-bit PNG", attachments.ConversionFailed("16-bit PNG", nil),
			`Error: cannot read "` + dp + `": ` + golden("read_image.error.sixteen_bit"), ""},
		{"16-bit match is case-insensitive", attachments.NewError(attachments.CodeWriteFailed, "the 16-BIT png failed", nil),
			`Error: cannot read "` + dp + `": ` + golden("read_image.error.sixteen_bit"), ""},
		{"other conversion failure", attachments.ConversionFailed("uchar JPEG", nil),
			"Error: The uchar JPEG could not be converted to the normalized 8-bit sRGB form.", "ATTACHMENT_WRITE_FAILED"},
		{"normalized byte cap", attachments.NewError(attachments.CodeImageTooLarge, attachments.MsgNormalizedTooLarge, nil),
			`Error: cannot read "` + dp + `": ` + golden("read_image.error.bytes"), ""},
		{"invalid image with a declared type", attachments.InvalidImage(nil),
			`Error: cannot read "` + dp + `": ` + golden("read_image.error.invalid"), "INVALID_IMAGE"},
		{"invalid image with the store's finding", attachments.InvalidImage(&attachments.ImageFault{
			Format: attachments.MediaTypeJPEG, Kind: attachments.FaultUnsupported, Detail: "arithmetic-coded JPEG"}),
			`Error: cannot read "` + dp + `": the bytes do not decode as a supported PNG/JPEG/WebP/GIF image; the file may be truncated or corrupt — ` +
				`the file is an arithmetic-coded JPEG, a variant the decoder does not support; convert it to an 8-bit baseline JPEG or a PNG and retry`, "INVALID_IMAGE"},
		{"over the memory budget", attachments.NewError(attachments.CodeImageOverMemoryBudget, "Image is too large to normalize in memory: details.", nil),
			`Error: cannot read "` + dp + `": Image is too large to normalize in memory: details.`, "IMAGE_OVER_MEMORY_BUDGET"},
		{"busy", attachments.NewError(attachments.CodeBusy, "Image normalization is busy: details.", nil),
			`Error: cannot read "` + dp + `": Image normalization is busy: details.`, "ATTACHMENT_BUSY"},
		{"a foreign error", errors.New("unrelated infrastructure failure"), "Error: unrelated infrastructure failure", ""},
		{"a foreign coded error is not an AttachmentError", tools.NewError("X", "IMAGE_TOO_LARGE", "foreign", nil), "Error: foreign", "IMAGE_TOO_LARGE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.store.mu.Lock()
			e.store.saveErr = tc.err
			e.store.mu.Unlock()
			res := e.readImage(vision(e), "red.png")
			require.True(t, res.IsError)
			assert.Equal(t, tc.want, res.Text())
			assert.Equal(t, tc.code, res.Code())
			assert.Empty(t, e.takeObserved())
		})
	}
}

// TestReadImageExtensionless pins extension-less paths (docs/tool-fs.md "read_image").
func TestReadImageExtensionless(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "notes", []byte("plain text"))
	requireFailure(t, e.readImage(vision(e), "notes"),
		`Error: cannot read "`+e.path("notes")+`": the file content is not a supported image format; read_image accepts PNG/JPEG/WebP/GIF`, "")
	assert.Empty(t, e.takeObserved())
	assert.Zero(t, e.store.saveCount(), "an unrecognized signature never reaches the store")

	e.writeBytes(t, "empty", nil)
	requireFailure(t, e.readImage(vision(e), "empty"),
		`Error: cannot read "`+e.path("empty")+`": the file content is not a supported image format; read_image accepts PNG/JPEG/WebP/GIF`, "")

	truncated := append([]byte(nil), png1x1[:20]...)
	e.writeBytes(t, "cut", truncated)
	requireFailureCode(t, e.readImage(vision(e), "cut"),
		`Error: cannot read "`+e.path("cut")+`": `+golden("read_image.error.invalid"),
		attachments.CodeInvalidImage)
	assert.Empty(t, e.takeObserved())

	e.writeBytes(t, "shot", png1x1)
	e.store.mu.Lock()
	e.store.saveErr = attachments.NewError(attachments.CodeImageTypeMismatch, attachments.MsgImageTypeMismatch, nil)
	e.store.mu.Unlock()
	requireRemedy(t, e.readImage(vision(e), "shot"),
		`Error: cannot read "`+e.path("shot")+`": `+golden("read_image.error.signature_mismatch", "media_type", "image/png"))
	e.store.mu.Lock()
	e.store.saveErr = nil
	saved := e.store.saves[len(e.store.saves)-1]
	e.store.mu.Unlock()
	assert.Equal(t, attachments.MediaTypePNG, saved.MediaType, "the sniffed type is declared to the store")
	assert.Equal(t, "shot", saved.Name)

	// The deployment check of a sniffed type runs after the read and names the display path.
	jpegOnly := defaultLimits()
	jpegOnly.MediaTypes = []attachments.MediaType{attachments.MediaTypeJPEG}
	j := newImgEnv(t, imgOptions{limits: &jpegOnly})
	j.writeBytes(t, "shot", png1x1)
	requireFailure(t, j.readImage(vision(j), "shot"), `Error: cannot read "`+j.path("shot")+`": image/png images are not accepted by this deployment`, "")
	assert.Zero(t, j.store.saveCount())
	assert.Empty(t, j.takeObserved())
	j.writeBytes(t, "photo", encodeImage(t, "jpeg", 2, 2))
	requireOK(t, j.readImage(vision(j), "photo"))
}

// TestReadImageReferenceShapes: the value copies the store's reference, omitting absent optional
// keys, and a downscaled reference names the multiplier.
func TestReadImageReferenceShapes(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	dp := e.path("red.png")

	e.store.refHook = func(r attachments.ImageRef) attachments.ImageRef { r.Name = ""; return r }
	res := e.readImage(vision(e), "red.png")
	requireOK(t, res)
	assert.NotContains(t, valueJSON(t, res), `"name"`, "a nameless reference has no name key")

	e.store.refHook = func(r attachments.ImageRef) attachments.ImageRef {
		r.Bytes, r.Width, r.Height = 7, 2, 1
		r.OriginalDimensions = &attachments.Dimensions{Width: 4, Height: 2}
		return r
	}
	res = e.readImage(vision(e), "red.png")
	requireOK(t, res)
	assert.Equal(t, "<path>"+dp+"</path>\n<type>image</type>\n<content>\n"+
		"image/png image, 2x1 px, 7 bytes (downscaled from 4x2 px; multiply coordinates by 2.00 to locate features in the original file)\n</content>",
		res.Content[0].Text)
	var v struct {
		Image map[string]any `json:"image"`
	}
	require.NoError(t, json.Unmarshal([]byte(valueJSON(t, res)), &v))
	assert.Equal(t, map[string]any{"width": 4.0, "height": 2.0}, v.Image["originalDimensions"])
	assert.Equal(t, "red.png", v.Image["name"])
}

// TestReadImageStoredBytesUnreadable: when the committed object cannot be read back, the call
// fails with the store's error and observes nothing.
func TestReadImageStoredBytesUnreadable(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	kerneltest.RequireDispose(t, e.storeF)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, storeModule(&vanishingStore{fakeStore: e.store}), nil))
	requireFailureCode(t, e.readImage(vision(e), "red.png"), "Error: Attachment object is missing.", attachments.CodeNotFound)
	assert.Equal(t, 1, e.store.saveCount())
	assert.Empty(t, e.takeObserved())
}

// vanishingStore saves normally but never finds an object again.
type vanishingStore struct{ *fakeStore }

func (s *vanishingStore) ReadImage(context.Context, attachments.ImageRef) (attachments.StoredImage, error) {
	return attachments.StoredImage{}, attachments.NewError(attachments.CodeNotFound, attachments.MsgNotFound, nil)
}

// TestReadImageReplacedValueRendersFromStore: a post-execute policy that replaces the value (with
// a copy made from its reference, which carries no bytes) still gets an image block, read back from
// the store.
func TestReadImageReplacedValueRendersFromStore(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	_, err := tools.PostExecute.On(e.root, func(_ context.Context, p tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		if p.Exec.Name != "read_image" || p.Result.IsError {
			return next()
		}
		copied := toolfs.ReadImageValue{Path: "/elsewhere/red.png", Image: p.Result.Value.(toolfs.ReadImageValue).Image}
		return tools.PostDecision{Kind: tools.Accept, Value: copied, ReplaceValue: true}, nil
	})
	require.NoError(t, err)
	res := e.readImage(vision(e), "red.png")
	requireOK(t, res)
	require.Len(t, res.Content, 2)
	assert.Contains(t, res.Content[0].Text, "<path>/elsewhere/red.png</path>")
	assert.Equal(t, base64.StdEncoding.EncodeToString(png1x1), res.Content[1].Data)
}

// TestReadKeepsItsTextContract: read still refuses a PNG as a binary file.
func TestReadKeepsItsTextContract(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	requireFailure(t, e.call("read", args{"file_path": "red.png"}), `Error: cannot read "`+e.path("red.png")+`": binary file`+
		"\nIt is an image (69 bytes, image/png): call read_image with this file_path to see it.", "FS_NOT_TEXT")
}

// TestReadImageCancelled: a call whose context is cancelled while the body runs is aborted and
// commits nothing visible.
func TestReadImageCancelled(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	ctx, cancel := context.WithCancel(context.Background())
	e.store.refHook = func(r attachments.ImageRef) attachments.ImageRef { cancel(); return r }
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "read_image", Args: args{"file_path": "red.png"}, Session: vision(e)})
	require.True(t, res.IsError)
	assert.Equal(t, "Error: "+context.Canceled.Error(), res.Text(), "the store fails with the context's cause, unwrapped")
	assert.Empty(t, e.takeObserved(), "the verified read fails on the cancelled context before the observation")
}

// TestReadImageObservationFeedsThePolicy: the present observation of read_image is the policy's
// record, so a later write over the image is authorized, while an unread existing file is not.
func TestReadImageObservationFeedsThePolicy(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	e.writeBytes(t, "other.png", png1x1)
	s := vision(e)
	requireFailure(t, e.callIn(s, "write", args{"file_path": "other.png", "content": "x"}),
		`Error: cannot modify "`+e.path("other.png")+`": file has not been read — read the file, then retry`, "FS_NOT_OBSERVED")
	requireOK(t, e.readImage(s, "red.png"))
	requireOK(t, e.callIn(s, "write", args{"file_path": "red.png", "content": "replaced"}))
	assert.Equal(t, "replaced", e.readFile(t, "red.png"))
}

// TestReadImageObserverFailure: the present observation is a plain emit, so a failing listener
// fails the call.
func TestReadImageObserverFailure(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "red.png", png1x1)
	_, err := fs.ObservedEvent.On(e.root, func(context.Context, fs.ObservedArgs) error { return errors.New("recorder broke") })
	require.NoError(t, err)
	res := e.readImage(vision(e), "red.png")
	require.True(t, res.IsError)
	assert.Equal(t, "Error: recorder broke", res.Text())
}
