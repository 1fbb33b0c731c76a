package toolfs_test

import (
	"testing"
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
