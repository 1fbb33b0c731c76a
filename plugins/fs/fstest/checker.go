package fstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// checker is what a check runs with: the provider, the root, a directory of its own and the
// violations found so far.
type checker struct {
	ctx        context.Context
	fsys       fs.FileSystem
	root, dir  string
	name       string
	violations []Violation
	skipped    string
}

// stop ends a check early (fatalf, skip); run recovers it.
type stop struct{}

func (c *checker) errorf(format string, args ...any) {
	c.violations = append(c.violations, Violation{Check: c.name, Message: fmt.Sprintf(format, args...)})
}

// fatalf reports and ends the check: what follows depends on what failed.
func (c *checker) fatalf(format string, args ...any) {
	c.errorf(format, args...)
	panic(stop{})
}

// skip ends the check without a violation.
func (c *checker) skip(why string) {
	c.skipped = why
	panic(stop{})
}

// path is the absolute path of rel in the check's directory.
func (c *checker) path(rel string) string { return filepath.Join(c.dir, rel) }

// Fixtures are made with the os package, byte for byte, so that the provider is judged on files
// it did not write.

func (c *checker) mkdir(rel string) {
	if err := os.MkdirAll(c.path(rel), 0o755); err != nil {
		c.fatalf("fixture: %v", err)
	}
}

func (c *checker) put(rel, data string) {
	p := c.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		c.fatalf("fixture: %v", err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		c.fatalf("fixture: %v", err)
	}
}

func (c *checker) symlink(target, rel string) {
	if err := os.Symlink(target, c.path(rel)); err != nil {
		c.fatalf("fixture: %v", err)
	}
}

// disk returns the bytes of rel, or ok false when it does not exist.
func (c *checker) disk(rel string) (string, bool) {
	b, err := os.ReadFile(c.path(rel))
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		c.fatalf("reading %s back: %v", rel, err)
	}
	return string(b), true
}

// wantDisk reports unless rel holds exactly want.
func (c *checker) wantDisk(after, rel, want string) {
	got, ok := c.disk(rel)
	switch {
	case !ok:
		c.errorf("after %s, %s does not exist; want it to hold %q", after, rel, want)
	case got != want:
		c.errorf("after %s, %s holds %q; want %q", after, rel, got, want)
	}
}

// resolve resolves rel (in the check's directory, as an absolute path) or ends the check.
func (c *checker) resolve(rel string) fs.Target {
	t, err := c.fsys.Resolve(c.ctx, c.path(rel), fs.ResolveOptions{})
	if err != nil {
		c.fatalf("Resolve(%q): %s", rel, describe(err))
	}
	return t
}

// version returns the version Stat reports for t, or ends the check.
func (c *checker) version(rel string, t fs.Target) fs.Version {
	info, err := c.fsys.Stat(c.ctx, t)
	if err != nil || info == nil || info.Version == "" {
		c.fatalf("Stat(%s) = %+v, %s; want a present entry with a version", rel, info, describe(err))
	}
	return info.Version
}

// unchanged reports unless a failed op left rel with its bytes and its version.
func (c *checker) unchanged(op, rel string, t fs.Target, data string, v fs.Version) {
	c.wantDisk("a failed "+op, rel, data)
	if got := c.version(rel, t); got != v {
		c.errorf("a failed %s changed the version of %s (%q -> %q)", op, rel, v, got)
	}
}

// wantErr reports unless err carries an *fs.Error (errors.As) of want's code (errors.Is with the
// code sentinel) and message.
func (c *checker) wantErr(op string, err error, want *fs.Error) bool {
	var fe *fs.Error
	ok := errors.As(err, &fe) && fe.Kind == want.Kind && fe.Message == want.Message &&
		errors.Is(err, &fs.Error{Kind: want.Kind})
	if !ok {
		c.errorf("%s: got %s; want %s %q", op, describe(err), want.Kind, want.Message)
	}
	return ok
}

// wantCode is wantErr on the code alone, for outcomes whose message the contract leaves open.
func (c *checker) wantCode(op string, err error, code fs.Code) bool {
	if !errors.Is(err, &fs.Error{Kind: code}) || fs.CodeOf(err) != code {
		c.errorf("%s: got %s; want an *fs.Error with code %s", op, describe(err), code)
		return false
	}
	return true
}

// noErr reports a failure of an op that must succeed.
func (c *checker) noErr(op string, err error) bool {
	if err != nil {
		c.errorf("%s: got %s; want success", op, describe(err))
	}
	return err == nil
}

// describe names an error as the checks compare it: the code and message of its *fs.Error, or
// what it is instead.
func describe(err error) string {
	if err == nil {
		return "no error"
	}
	var fe *fs.Error
	if !errors.As(err, &fe) {
		return fmt.Sprintf("an error that is not an *fs.Error (%T %q)", err, err.Error())
	}
	s := fmt.Sprintf("%s %q", fe.Kind, fe.Message)
	if fe != err {
		s += fmt.Sprintf(" (inside a %T)", err)
	}
	return s
}

// collectText concatenates a text stream; the error is the call's or the first one the sequence
// yields. Every chunk must be valid UTF-8 when the stream ends without error (reported, once).
func collectText[T string | []byte](c *checker, op string, open func() (iter.Seq2[T, error], error)) (string, error) {
	seq, err := open()
	if err != nil {
		return "", err
	}
	if seq == nil {
		c.fatalf("%s returned a nil sequence and no error", op)
	}
	var out bytes.Buffer
	split := false
	for chunk, err := range seq {
		if err != nil {
			return out.String(), err
		}
		if !validUTF8(chunk) {
			split = true
		}
		out.WriteString(string(chunk))
	}
	if split && validUTF8(out.String()) {
		c.errorf("%s split a UTF-8 sequence between chunks", op)
	}
	return out.String(), nil
}

func validUTF8[T string | []byte](s T) bool { return utf8.ValidString(string(s)) }

// sorted ranges over m in key order, so that a report lists its violations in the same order on
// every run.
func sorted[V any](m map[string]V) iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
