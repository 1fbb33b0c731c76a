package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/editmodel"
)

// modelCodes maps the model's failures to the provider's codes.
var modelCodes = map[string]fs.Code{
	editmodel.Binary: fs.CodeNotText, editmodel.InvalidUTF8: fs.CodeNotText, editmodel.EmptyOld: fs.CodeEditNotFound,
	editmodel.NotFound: fs.CodeEditNotFound, editmodel.Ambiguous: fs.CodeAmbiguousEdit,
}

// FuzzEditText runs EditText on real files and compares the bytes on disk
// (line endings and BOM included) and the error code with the independent
// model (editmodel), checks that the bytes outside the replaced spans are
// unchanged, and that Before and After are the LF-normalized texts of the old
// and new file.
func FuzzEditText(f *testing.F) {
	f.Add("a\r\nOLD\r\nb\r\n", "OLD", "NEW", false)
	f.Add("\uFEFFx\r\ny\r\nx\r\n", "x", "z\n", true)
	f.Add("\uFEFFkeep\nme\n", "me", "you", false)
	f.Add("aaa", "aa", "b", false)
	f.Add("a\rb\r\nc\r\n", "b", "$&", false)
	f.Add("x\r\r\ny\r\n", "y", "Y", false)
	f.Add("dup dup", "dup", "one", false)
	f.Add("text\x00", "text", "t", false)
	f.Add("bad\xff", "bad", "good", false)
	f.Add("a\r\nb\n", "b", "B", false)
	f.Add("a1\na2\na3\r\na4\n", "a1", "A1", false)
	f.Add("x\r\r\ny\n", "y", "Y\nZ", false)
	f.Add("p\r\nq\nr\r\n", "q", "Q\r\nR", true)
	dir, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, "fuzz.txt")
	tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, file, old, new string, replaceAll bool) {
		if !utf8.ValidString(old) || !utf8.ValidString(new) {
			return // the tool's JSON arguments are always valid UTF-8
		}
		if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: old, NewString: new, ReplaceAll: replaceAll}, nil)
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if strings.HasPrefix(file, "\xFE\xFF") || strings.HasPrefix(file, "\xFF\xFE") {
			// A UTF-16 BOM: the file is edited in UTF-16 (docs/encodings.md), which the model,
			// a UTF-8 one, does not know; TestUTF16EditKeepsItsEncoding holds that.
			// Here only what holds for every edit: a failure leaves the file as it was.
			if err != nil && string(got) != file {
				t.Fatalf("a failed edit (%v) changed the file: disk %q, was %q", err, got, file)
			}
			return
		}
		want := editmodel.Edit(file, old, new, replaceAll)
		if want.Failure != "" {
			if fs.CodeOf(err) != modelCodes[want.Failure] || string(got) != file {
				t.Fatalf("got %v (disk %q), want %s and the file untouched", err, got, want.Failure)
			}
			return
		}
		if err != nil {
			t.Fatalf("EditText: %v (want disk %q)", err, want.Disk)
		}
		bom := strings.HasPrefix(file, "\uFEFF")
		if !want.KeepsGaps(string(got), bom) {
			t.Fatalf("bytes outside the replaced spans changed: disk %q, gaps %q", got, want.Gaps)
		}
		if string(got) != want.Disk {
			t.Fatalf("disk %q, want %q", got, want.Disk)
		}
		lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
		newBody := string(got)
		if bom {
			newBody = newBody[len("\uFEFF"):]
		}
		if out.Before != lf(strings.TrimPrefix(file, "\uFEFF")) || out.After != lf(newBody) {
			t.Fatalf("before %q, after %q: not the normalized old and new file", out.Before, out.After)
		}
		if hostfs.LockCount(p) != 0 {
			t.Fatal("lock left")
		}
	})
}
