package toolfs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// An image that read_image would accept in this call can still be read first (read_image
// observes it), so write and edit over it keep FS_NOT_OBSERVED: with an attachment store and an
// image model, by its extension or, without one, by its signature. Where read_image cannot read
// it (no store, a text-only model, an extension that is not an image's), FS_NOT_TEXT.
func TestMutationOfAnUnreadImage(t *testing.T) {
	notRead := func(e *imgEnv, name string) string {
		return `Error: cannot modify "` + e.path(name) + `": file has not been read — read the file, then retry`
	}
	binary := func(e *imgEnv, verb, name string) string {
		return `Error: cannot ` + verb + ` "` + e.path(name) + `": binary file`
	}
	mutate := func(e *imgEnv, model, name string) (write, edit string, writeCode, editCode string) {
		s := e.withModel(model)
		w := e.callIn(s, "write", args{"file_path": name, "content": "x"})
		ed := e.callIn(s, "edit", args{"file_path": name, "old_string": "PNG", "new_string": "x"})
		return w.Text(), ed.Text(), w.Code(), ed.Code()
	}

	e := newImgEnv(t, imgOptions{})
	e.writeBytes(t, "a.png", png1x1)
	e.writeBytes(t, "noext", png1x1)
	e.writeBytes(t, "a.dat", png1x1)
	for _, name := range []string{"a.png", "noext"} {
		w, ed, wc, ec := mutate(e, "vision-model", name)
		assertFailure(t, w, wc, notRead(e, name), "FS_NOT_OBSERVED")
		assertFailure(t, ed, ec, notRead(e, name), "FS_NOT_OBSERVED")
		w, ed, wc, ec = mutate(e, "text-model", name)
		assertFailure(t, w, wc, binary(e, "write", name), "FS_NOT_TEXT")
		assertFailure(t, ed, ec, binary(e, "edit", name), "FS_NOT_TEXT")
	}
	w, ed, wc, ec := mutate(e, "vision-model", "a.dat")
	assertFailure(t, w, wc, binary(e, "write", "a.dat"), "FS_NOT_TEXT")
	assertFailure(t, ed, ec, binary(e, "edit", "a.dat"), "FS_NOT_TEXT")

	bare := newImgEnv(t, imgOptions{noStore: true})
	bare.writeBytes(t, "a.png", png1x1)
	w, ed, wc, ec = mutate(bare, "vision-model", "a.png")
	assertFailure(t, w, wc, binary(bare, "write", "a.png"), "FS_NOT_TEXT")
	assertFailure(t, ed, ec, binary(bare, "edit", "a.png"), "FS_NOT_TEXT")
}

func assertFailure(t *testing.T, text, code, wantText, wantCode string) {
	t.Helper()
	if text != wantText || code != wantCode {
		t.Errorf("got %q (%s), want %q (%s)", text, code, wantText, wantCode)
	}
}

// TestMutationOfAnUnreadImageGates pins each gate read_image shares with write and edit's
// refusal of an unread binary file: a file read_image would refuse in this call fails FS_NOT_TEXT,
// one it would accept keeps FS_NOT_OBSERVED. The size of a file that declares its type is left to
// read_image.
func TestMutationOfAnUnreadImageGates(t *testing.T) {
	jpegOnly := defaultLimits()
	jpegOnly.MediaTypes = []attachments.MediaType{attachments.MediaTypeJPEG}
	tiny := defaultLimits()
	tiny.MaxImageBytes = 8
	cases := []struct {
		name     string
		opt      imgOptions
		file     string
		data     []byte
		wantCode string
	}{
		{"an upper-case image extension", imgOptions{}, "A.PNG", png1x1, "FS_NOT_OBSERVED"},
		{"a declared type the deployment refuses", imgOptions{limits: &jpegOnly}, "a.png", png1x1, "FS_NOT_TEXT"},
		{"a sniffed type the deployment refuses", imgOptions{limits: &jpegOnly}, "noext", png1x1, "FS_NOT_TEXT"},
		{"no image signature", imgOptions{}, "blob", []byte{0, 1, 2, 3}, "FS_NOT_TEXT"},
		{"an extension-less file over the read bound", imgOptions{limits: &tiny}, "noext", png1x1, "FS_NOT_TEXT"},
		{"a declared type over the read bound", imgOptions{limits: &tiny}, "a.png", png1x1, "FS_NOT_OBSERVED"},
		{"no model catalog", imgOptions{noCatalog: true}, "a.png", png1x1, "FS_NOT_TEXT"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newImgEnv(t, tc.opt)
			e.writeBytes(t, tc.file, tc.data)
			want := `Error: cannot write "` + e.path(tc.file) + `": binary file`
			if tc.wantCode == "FS_NOT_OBSERVED" {
				want = `Error: cannot modify "` + e.path(tc.file) + `": file has not been read — read the file, then retry`
			}
			res := e.callIn(vision(e), "write", args{"file_path": tc.file, "content": "x"})
			assertFailure(t, res.Text(), res.Code(), want, tc.wantCode)
			assert.Empty(t, e.takeObserved())
		})
	}
}
