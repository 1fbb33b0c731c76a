package fslocal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// modelEdit is an independent model of EditText on the file bytes: it returns
// the expected disk bytes, or the expected error code.
func modelEdit(file, old, new string, replaceAll bool) (string, fs.Code) {
	if strings.IndexByte(file, 0) >= 0 {
		return "", fs.CodeNotText
	}
	bom := strings.HasPrefix(file, "\uFEFF")
	body := strings.TrimPrefix(file, "\uFEFF")
	if !utf8.ValidString(body) {
		return "", fs.CodeNotText
	}
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	// dominant style on the first 4096 characters
	sample := []rune(body)
	if len(sample) > 4096 {
		sample = sample[:4096]
	}
	crlf, bare := 0, 0
	for i, r := range sample {
		if r == '\n' {
			if i > 0 && sample[i-1] == '\r' {
				crlf++
			} else {
				bare++
			}
		}
	}
	content, old, new := lf(body), lf(old), lf(new)
	if old == "" {
		return "", fs.CodeEditNotFound
	}
	// non-overlapping, left to right
	var out strings.Builder
	n, rest := 0, content
	for {
		i := strings.Index(rest, old)
		if i < 0 {
			out.WriteString(rest)
			break
		}
		n++
		out.WriteString(rest[:i] + new)
		rest = rest[i+len(old):]
	}
	switch {
	case n == 0:
		return "", fs.CodeEditNotFound
	case n > 1 && !replaceAll:
		return "", fs.CodeAmbiguousEdit
	}
	disk := out.String()
	if crlf > bare {
		disk = strings.ReplaceAll(disk, "\n", "\r\n")
	}
	if bom {
		disk = "\uFEFF" + disk
	}
	return disk, ""
}

// FuzzEditText runs EditText on real files and compares the bytes on disk
// (line endings and BOM included) and the error code with modelEdit.
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
	dir, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	p, err := fslocal.New(fslocal.Config{Cwd: dir}, nil)
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
		want, wantCode := modelEdit(file, old, new, replaceAll)
		out, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: old, NewString: new, ReplaceAll: replaceAll}, nil, nil)
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if wantCode != "" {
			if fs.CodeOf(err) != wantCode || string(got) != file {
				t.Fatalf("got %v (disk %q), want %s and the file untouched", err, got, wantCode)
			}
			return
		}
		if err != nil {
			t.Fatalf("EditText: %v (want disk %q)", err, want)
		}
		if string(got) != want {
			t.Fatalf("disk %q, want %q", got, want)
		}
		if strings.HasPrefix(out.Before, "\uFEFF") && !strings.HasPrefix(file, "\uFEFF\uFEFF") ||
			strings.Contains(out.Before, "\r\n") && !strings.Contains(file, "\r\r\n") {
			t.Fatalf("before not normalized: %q", out.Before)
		}
		if fslocal.LockCount(p) != 0 {
			t.Fatal("lock left")
		}
	})
}
