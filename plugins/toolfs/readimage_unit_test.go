package toolfs_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// TestExtName pins Node's POSIX path.extname (docs/tool-fs.md "Gates, in order, all before any file
// I/O").
func TestExtName(t *testing.T) {
	cases := map[string]string{
		"a.png": ".png", "a.JPG": ".JPG", "dir/b.jpeg": ".jpeg", "/abs/c.webp": ".webp", "d.Gif": ".Gif",
		"note.txt": ".txt", "png": "", ".png": "", "dir/.png": "", "a.tar.gz": ".gz",
		"a.png/": ".png", "a.png//": ".png", "dir.png/file": "", "foo.": ".", "...": ".", "..": "", ".": "",
		"..png": ".png", "a..": ".", "": "", "/": "", "dir/": "", ".hidden.png": ".png", "a.b/c": "",
		"shot": "", "x/y/z": "",
	}
	for in, want := range cases {
		assert.Equal(t, want, filetool.ExtName(in), "extname(%q)", in)
	}
}

// TestSniffImageType pins the signatures of docs/tool-fs.md "read_image", "Then" step 3.
func TestSniffImageType(t *testing.T) {
	riff := func(tag string) []byte { return append([]byte("RIFF\x00\x00\x00\x00"), tag...) }
	cases := []struct {
		name string
		data []byte
		want attachments.MediaType
	}{
		{"png", png1x1, attachments.MediaTypePNG},
		{"png signature only", []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, attachments.MediaTypePNG},
		{"png signature cut short", []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A}, ""},
		{"png with a wrong byte", []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, 0x0B}, ""},
		{"jpeg", []byte{0xFF, 0xD8, 0xFF, 0xE0}, attachments.MediaTypeJPEG},
		{"jpeg signature only", []byte{0xFF, 0xD8, 0xFF}, attachments.MediaTypeJPEG},
		{"two jpeg bytes", []byte{0xFF, 0xD8}, ""},
		{"gif87a", []byte("GIF87a..."), attachments.MediaTypeGIF},
		{"gif89a", []byte("GIF89a"), attachments.MediaTypeGIF},
		{"gif88a", []byte("GIF88a"), ""},
		{"webp", webp1x1, attachments.MediaTypeWebP},
		{"webp header only", riff("WEBP"), attachments.MediaTypeWebP},
		{"riff wave", riff("WAVE"), ""},
		{"riff cut short", riff("WEB"), ""},
		{"webp without riff", append([]byte("RIFX\x00\x00\x00\x00"), "WEBP"...), ""},
		{"text", []byte("plain text"), ""},
		{"empty", nil, ""},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, filetool.SniffImageType(tc.data), tc.name)
	}
}

// TestToFixed2 pins JavaScript's toFixed(2) on the binary value (docs/tool-fs.md "Result").
func TestToFixed2(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{2, "2.00"}, {2.5, "2.50"}, {4.0 / 2, "2.00"}, {5.0 / 2, "2.50"},
		{2.125, "2.13"},         // an exact binary tie rounds up (strconv gives 2.12)
		{4352.0 / 2048, "2.13"}, // a tie: 4352 px stored at 2048 px
		{0.125, "0.13"},         // a tie below one
		{1.005, "1.00"},         // 1.005 is just below the tie in binary
		{1.255, "1.25"},         // likewise
		{9.0 / 4, "2.25"},       // exact
		{10.0 / 3, "3.33"},      //
		{2.0 / 3, "0.67"},       //
		{0, "0.00"}, {0.004, "0.00"}, {0.005, "0.01"}, {99.995, "100.00"}, {8192, "8192.00"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, toolfs.ToFixed2(tc.v), "%v", tc.v)
	}
}

// TestRenderReadImage pins the text envelope of docs/tool-fs.md "Result".
func TestRenderReadImage(t *testing.T) {
	ref := attachments.ImageRef{AttachmentID: "sha256:feed", MediaType: "image/png", Bytes: 7, Width: 2, Height: 1}
	image := func(mediaType, bytes string) []string {
		return []string{"media_type", mediaType, "width", "2", "height", "1", "bytes", bytes}
	}
	envelope := func(path, body string) string { return golden("read_image.envelope", "path", path, "body", body) }
	assert.Equal(t, envelope("/w/a.png", golden("read_image.image", image("image/png", "7")...)), toolfs.RenderReadImage("/w/a.png", ref))

	ref.OriginalDimensions = &attachments.Dimensions{Width: 4, Height: 2}
	assert.Equal(t, envelope("/w/a.png", golden("read_image.image.downscaled", append(image("image/png", "7"),
		"original_width", "4", "original_height", "2", "advice", golden("read_image.advice", "x", "2.00"))...)),
		toolfs.RenderReadImage("/w/a.png", ref))

	jpeg := attachments.ImageRef{AttachmentID: "sha256:feed", MediaType: "image/jpeg", Bytes: 9, Width: 2, Height: 1,
		OriginalDimensions: &attachments.Dimensions{Width: 5, Height: 2}}
	assert.Equal(t, envelope("/img/photo.jpg", golden("read_image.image.downscaled", append(image("image/jpeg", "9"),
		"original_width", "5", "original_height", "2", "advice", golden("read_image.advice.xy", "x", "2.50", "y", "2.00"))...)),
		toolfs.RenderReadImage("/img/photo.jpg", jpeg))

	// Integer rounding: both ratios print the same, so one multiplier is named.
	near := attachments.ImageRef{MediaType: "image/png", Bytes: 1, Width: 2048, Height: 1365,
		OriginalDimensions: &attachments.Dimensions{Width: 4000, Height: 2666}}
	assert.Contains(t, toolfs.RenderReadImage("/p", near), golden("read_image.advice", "x", "1.95"))
}

func TestReadImageValueJSON(t *testing.T) {
	v := toolfs.ReadImageValue{Path: "/w/a.png", Image: attachments.ImageRef{AttachmentID: "sha256:00", MediaType: "image/png", Bytes: 1, Width: 1, Height: 1}}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, `{"path":"/w/a.png","image":{"attachmentId":"sha256:00","mediaType":"image/png","bytes":1,"width":1,"height":1}}`, string(b),
		"optional keys are omitted when absent")
	v.Image.Name = "a.png"
	v.Image.OriginalDimensions = &attachments.Dimensions{Width: 4, Height: 2}
	b, err = json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, `{"path":"/w/a.png","image":{"attachmentId":"sha256:00","mediaType":"image/png","bytes":1,"width":1,"height":1,"name":"a.png","originalDimensions":{"width":4,"height":2}}}`, string(b))
}

func TestPresentReadImageCall(t *testing.T) {
	got := toolfs.PresentReadImageCall(json.RawMessage(`{"file_path":"shot.png"}`))
	require.NotNil(t, got)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, `{"card":"generic","title":"Read image shot.png","kind":"read","locations":[{"path":"shot.png"}]}`, string(b))
	assert.Nil(t, toolfs.PresentReadImageCall(json.RawMessage(`{"file_path":3}`)))
	assert.Nil(t, toolfs.PresentReadImageCall(json.RawMessage(`{}`)))
}
