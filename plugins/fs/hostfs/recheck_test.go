package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// recorder is an fs.Recheck that records its calls and answers err.
type recorder struct {
	p       *Provider
	err     error
	calls   []string
	touched [][]fs.LineRange
	version []fs.Version
	locked  []int
	back    []fs.LineRange
}

func (r *recorder) Write(v fs.Version, text string) error {
	r.calls, r.version, r.locked = append(r.calls, text), append(r.version, v), append(r.locked, r.p.locks.len())
	return r.err
}

func (r *recorder) Edit(v fs.Version, text string, touched []fs.LineRange) ([]fs.LineRange, error) {
	r.calls, r.version, r.locked = append(r.calls, text), append(r.version, v), append(r.locked, r.p.locks.len())
	r.touched = append(r.touched, touched)
	return r.back, r.err
}

func recheckFixture(t *testing.T, content string) (*Provider, fs.Target, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := New(Config{Cwd: dir, DiffBasisMaxBytes: 1 << 20}, nil)
	require.NoError(t, err)
	path := filepath.Join(dir, "f.txt")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
	require.NoError(t, err)
	return p, tg, path
}

func TestEditRecheckDecidesAMovedVersionUnderTheLock(t *testing.T) {
	p, tg, path := recheckFixture(t, "\uFEFFa\r\nb\r\nb\r\n")
	r := &recorder{p: p, back: []fs.LineRange{{First: 9, Last: 9}}}
	info, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)

	out, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: "a", NewString: "A"}, &fs.EditGuard{Version: "old", Recheck: r})
	require.NoError(t, err)
	assert.Equal(t, []string{"a\r\nb\r\nb\r\n"}, r.calls, "the decoded text: BOM set aside, line breaks as on disk")
	assert.Equal(t, []fs.Version{info.Version}, r.version, "the version the provider found")
	assert.Equal(t, []int{1}, r.locked, "called while the target's lock is held")
	assert.Equal(t, [][]fs.LineRange{{{First: 1, Last: 1}}}, r.touched)
	assert.Equal(t, []fs.LineRange{{First: 9, Last: 9}}, out.Elsewhere, "the Recheck's answer reaches the outcome")
	assert.True(t, out.HasText)
	assert.Equal(t, "A\r\nb\r\nb\r\n", out.Text)
	b, _ := os.ReadFile(path)
	assert.Equal(t, "\uFEFFA\r\nb\r\nb\r\n", string(b))

	// More than one match without replace_all: nothing touched; with it, every match.
	_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "b", NewString: "B"}, &fs.EditGuard{Version: "old", Recheck: r})
	require.ErrorIs(t, err, fs.ErrAmbiguousEdit)
	assert.Nil(t, r.touched[1])
	_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "b", NewString: "B", ReplaceAll: true}, &fs.EditGuard{Version: "old", Recheck: r})
	require.NoError(t, err)
	assert.Equal(t, []fs.LineRange{{First: 2, Last: 2}, {First: 3, Last: 3}}, r.touched[2])

	// The guard's own version: no Recheck.
	info, _ = p.Stat(context.Background(), tg)
	_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "A", NewString: "a"}, &fs.EditGuard{Version: info.Version, Recheck: r})
	require.NoError(t, err)
	assert.Len(t, r.calls, 3)
	assert.Zero(t, p.lockCount())
}

func TestRecheckRefusalWritesNothing(t *testing.T) {
	p, tg, path := recheckFixture(t, "one\n")
	refusal := fs.NewError(fs.CodeStaleVersion, fs.EditChanged(tg.DisplayPath).Message, &fs.Guidance{Text: "what changed"})
	r := &recorder{p: p, err: refusal}
	_, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: "one", NewString: "two"}, &fs.EditGuard{Version: "old", Recheck: r})
	require.ErrorIs(t, err, fs.ErrStaleVersion)
	g, ok := errors.AsType[*fs.Guidance](err)
	require.True(t, ok, "the Recheck's error reaches the caller with its guidance")
	assert.Equal(t, "what changed", g.Text)
	_, err = p.WriteText(context.Background(), tg, "three\n", &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "old", Recheck: r})
	require.ErrorIs(t, err, fs.ErrStaleVersion)
	assert.Equal(t, []string{"one\n", "one\n"}, r.calls)
	b, _ := os.ReadFile(path)
	assert.Equal(t, "one\n", string(b))
	assert.Zero(t, p.lockCount())
}

func TestWriteRecheck(t *testing.T) {
	p, tg, path := recheckFixture(t, "one\n")
	r := &recorder{p: p}
	_, err := p.WriteText(context.Background(), tg, "two\n", &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "old", Recheck: r})
	require.NoError(t, err)
	assert.Equal(t, []int{1}, r.locked)
	b, _ := os.ReadFile(path)
	assert.Equal(t, "two\n", string(b))

	// At or over the diff-basis bound the file is not read for a Recheck: stale.
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("x", 1<<20)), 0o644))
	_, err = p.WriteText(context.Background(), tg, "three\n", &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "old", Recheck: r})
	requireStale(t, err, `cannot write "`+tg.DisplayPath+`": file changed since it was read`)
	assert.Len(t, r.calls, 1)

	// A file that is no longer text cannot be what was seen.
	require.NoError(t, os.WriteFile(path, []byte("bin\x00"), 0o644))
	_, err = p.WriteText(context.Background(), tg, "three\n", &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "old", Recheck: r})
	requireStale(t, err, `cannot write "`+tg.DisplayPath+`": file changed since it was read`)
	assert.Len(t, r.calls, 1)
}

func requireStale(t *testing.T, err error, msg string) {
	t.Helper()
	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fs.CodeStaleVersion, fe.Kind)
	assert.Equal(t, msg, fe.Message)
}

// A write's Recheck is handed the text of a file in another charset decoded, as read and an edit's
// Recheck see it (docs/encodings.md), never its bytes: windows-1252 by a rule, UTF-16LE by its mark.
func TestWriteRecheckSeesTheDecodedTextOfAnotherCharset(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := New(Config{Cwd: dir, DiffBasisMaxBytes: 1 << 20, Encodings: []charset.Rule{{Glob: "*.cp1252", Charset: "windows-1252"}}}, nil)
	require.NoError(t, err)
	for name, stored := range map[string]string{
		"a.cp1252": "caf\xe9\r\n",
		"u16.txt":  "\xFF\xFEc\x00a\x00f\x00\xe9\x00\r\x00\n\x00",
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(stored), 0o644))
		tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
		require.NoError(t, err)
		r := &recorder{p: p}
		_, err = p.WriteText(context.Background(), tg, "x\n", &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "old", Recheck: r})
		require.NoError(t, err, name)
		assert.Equal(t, []string{"café\r\n"}, r.calls, name)
	}
}

// rewriter is an fs.Recheck that lets the write land and, as a writer outside Cordon could,
// rewrites the file right after the recheck read it.
type rewriter struct {
	path, data string
	seen       []string
}

func (r *rewriter) Write(_ fs.Version, text string) error {
	r.seen = append(r.seen, text)
	return os.WriteFile(r.path, []byte(r.data), 0o644)
}

func (r *rewriter) Edit(fs.Version, string, []fs.LineRange) ([]fs.LineRange, error) {
	return nil, errors.New("not an edit")
}

// A write (WriteText, a change set's write or delete) whose version moved reads the file once:
// the text its Recheck approved is its diff basis, decoded in the file's charset, and the file's
// BOM and charset are the ones that text was read in.
func TestWriteRecheckReadsTheFileOnce(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := New(Config{Cwd: dir, DiffBasisMaxBytes: 1 << 20, Encodings: []charset.Rule{{Glob: "*.cp1252", Charset: "windows-1252"}}}, nil)
	require.NoError(t, err)
	cases := []struct{ name, stored, seen, written string }{
		{"a.txt", "one\r\n", "one\r\n", "new\n"},
		{"bom.txt", "\ufeffone\n", "one\n", "\ufeffnew\n"},
		{"a.cp1252", "caf\xe9\r\n", "café\r\n", "new\n"},
	}
	apply := map[string]func(tg fs.Target, intent *fs.WriteIntent) (*string, error){
		"write": func(tg fs.Target, intent *fs.WriteIntent) (*string, error) {
			out, err := p.WriteText(context.Background(), tg, "new\n", intent)
			return out.Before, err
		},
		"change set write": func(tg fs.Target, intent *fs.WriteIntent) (*string, error) {
			outs, err := p.ApplyChanges(context.Background(), []fs.Change{{Kind: fs.ChangeWrite, Target: tg, Intent: intent, Content: "new\n"}})
			if err != nil {
				return nil, err
			}
			return outs[0].Before, nil
		},
		"change set delete": func(tg fs.Target, intent *fs.WriteIntent) (*string, error) {
			outs, err := p.ApplyChanges(context.Background(), []fs.Change{{Kind: fs.ChangeDelete, Target: tg, Guard: &fs.EditGuard{Version: intent.Version, Recheck: intent.Recheck}}})
			if err != nil {
				return nil, err
			}
			return outs[0].Before, nil
		},
	}
	for how, run := range apply {
		for _, c := range cases {
			path := filepath.Join(dir, c.name)
			require.NoError(t, os.WriteFile(path, []byte(c.stored), 0o644))
			tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
			require.NoError(t, err)
			r := &rewriter{path: path, data: "rewritten\n"}
			before, err := run(tg, &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "old", Recheck: r})
			require.NoError(t, err, how+" "+c.name)
			assert.Equal(t, []string{c.seen}, r.seen, how+" "+c.name)
			require.NotNil(t, before, how+" "+c.name)
			assert.Equal(t, strings.ReplaceAll(c.seen, "\r\n", "\n"), *before, "%s %s: the basis is the text the recheck approved", how, c.name)
			if how != "change set delete" {
				b, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, c.written, string(b), how+" "+c.name)
			}
		}
	}
}
