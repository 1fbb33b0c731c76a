package hostfs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// providerWithMax is newProvider with Config.MaxFileBytes set.
func providerWithMax(t *testing.T, maxBytes int64) (*hostfs.Provider, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := hostfs.New(hostfs.Config{Cwd: dir, MaxFileBytes: maxBytes}, nil)
	require.NoError(t, err)
	return p, dir
}

// editors runs an edit unconfined and beneath the provider's directory.
var editors = map[string]func(p *hostfs.Provider, tg fs.Target, req fs.EditRequest, dir string) error{
	"edit": func(p *hostfs.Provider, tg fs.Target, req fs.EditRequest, _ string) error {
		_, err := p.EditText(context.Background(), tg, req, nil)
		return err
	},
	"edit beneath": func(p *hostfs.Provider, tg fs.Target, req fs.EditRequest, dir string) error {
		_, err := p.EditTextBeneath(context.Background(), tg, req, nil, hostfs.Beneath{Root: dir})
		return err
	},
}

// One replace_all used to turn a 256 KiB file into 1 GiB in one call (and 1
// GiB of memory). The result's size is computed from the matches before it is
// built and refused over maxFileBytes (default 64 MiB): FS_TOO_LARGE, the file
// unchanged, nothing staged.
func TestEditResultOverTheLimitIsRefused(t *testing.T) {
	for name, run := range editors {
		t.Run(name, func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f.txt")
			old := strings.Repeat("a", 256<<10)
			writeFile(t, path, old)
			tg := resolve(t, p, "f.txt")
			before := versionOf(t, p, tg)
			req := fs.EditRequest{OldString: "a", NewString: strings.Repeat("b", 4096), ReplaceAll: true}
			requireFsError(t, run(p, tg, req, dir), fs.CodeTooLarge,
				`cannot edit "`+tg.DisplayPath+`": the result would be 1073741824 bytes, over the 67108864-byte limit`)
			assert.Equal(t, before, versionOf(t, p, tg))
			assert.Equal(t, old, readDisk(t, path))
			requireClean(t, p, dir)
		})
	}
}

// The bound is inclusive and counts the bytes written: the BOM kept, and the
// CRLF line breaks the new text takes in a CRLF file.
func TestEditResultAtTheLimit(t *testing.T) {
	for name, run := range editors {
		t.Run(name, func(t *testing.T) {
			// "\uFEFFx\r\ny\r\n" is 9 bytes; x -> "1\n2" lands in a CRLF line:
			// "\uFEFF1\r\n2\r\ny\r\n" is 12.
			const file, want = "\uFEFFx\r\ny\r\n", "\uFEFF1\r\n2\r\ny\r\n"
			req := fs.EditRequest{OldString: "x", NewString: "1\n2"}
			p, dir := providerWithMax(t, 11)
			path := filepath.Join(dir, "f.txt")
			writeFile(t, path, file)
			tg := resolve(t, p, "f.txt")
			requireFsError(t, run(p, tg, req, dir), fs.CodeTooLarge,
				`cannot edit "`+tg.DisplayPath+`": the result would be 12 bytes, over the 11-byte limit`)
			assert.Equal(t, file, readDisk(t, path))
			requireClean(t, p, dir)

			p, dir = providerWithMax(t, 12)
			path = filepath.Join(dir, "f.txt")
			writeFile(t, path, file)
			require.NoError(t, run(p, resolve(t, p, "f.txt"), req, dir))
			assert.Equal(t, want, readDisk(t, path))
			requireClean(t, p, dir)
		})
	}
}

// A file over the bound is not read for an edit at all, whatever the edit
// would make of it.
func TestEditOfAFileOverTheLimitIsRefused(t *testing.T) {
	for name, run := range editors {
		t.Run(name, func(t *testing.T) {
			p, dir := providerWithMax(t, 1024)
			path := filepath.Join(dir, "f.txt")
			writeFile(t, path, strings.Repeat("a", 1025))
			tg := resolve(t, p, "f.txt")
			requireFsError(t, run(p, tg, fs.EditRequest{OldString: "aa", NewString: "", ReplaceAll: true}, dir), fs.CodeTooLarge,
				`cannot edit "`+tg.DisplayPath+`": 1025 bytes exceeds the 1024-byte limit`)
			assert.Equal(t, strings.Repeat("a", 1025), readDisk(t, path))
			requireClean(t, p, dir)
		})
	}
}

// write is bounded the same way: the content, with the BOM a write over a
// BOM file keeps, is refused over maxFileBytes before anything is staged; a
// new file is not created.
func TestWriteOverTheLimitIsRefused(t *testing.T) {
	for name, beneath := range map[string]bool{"write": false, "write beneath": true} {
		t.Run(name, func(t *testing.T) {
			p, dir := providerWithMax(t, 1024)
			write := func(tg fs.Target, content string) error {
				var err error
				if beneath {
					_, err = p.WriteTextBeneath(context.Background(), tg, content, nil, hostfs.Beneath{Root: dir})
				} else {
					_, err = p.WriteText(context.Background(), tg, content, nil)
				}
				return err
			}
			tg := resolve(t, p, "new.txt")
			requireFsError(t, write(tg, strings.Repeat("x", 1025)), fs.CodeTooLarge,
				`cannot write "`+tg.DisplayPath+`": 1025 bytes exceeds the 1024-byte limit`)
			_, err := os.Lstat(filepath.Join(dir, "new.txt"))
			require.ErrorIs(t, err, os.ErrNotExist)
			require.NoError(t, write(tg, strings.Repeat("x", 1024)), "exactly the limit is written")

			path := filepath.Join(dir, "bom.txt")
			writeFile(t, path, "\uFEFFold")
			tg = resolve(t, p, "bom.txt")
			requireFsError(t, write(tg, strings.Repeat("x", 1022)), fs.CodeTooLarge,
				`cannot write "`+tg.DisplayPath+`": 1025 bytes exceeds the 1024-byte limit`)
			assert.Equal(t, "\uFEFFold", readDisk(t, path))
			requireClean(t, p, dir)
		})
	}
}

func TestMaxFileBytesConfig(t *testing.T) {
	var c hostfs.Config
	c.Defaults()
	assert.Equal(t, int64(64<<20), c.MaxFileBytes)
	require.NoError(t, c.Validate())
	for _, v := range []int64{-1, hostfs.MaxDiffBasisBytes + 1} {
		c.MaxFileBytes = v
		require.EqualError(t, c.Validate(), "fs-local: maxFileBytes must be a positive safe integer no greater than 9007199254740991", "value %d", v)
	}
	c.MaxFileBytes = 0
	require.NoError(t, c.Validate(), "zero is the default")
}

// A change set holds at most 16 times maxFileBytes of files (each old text it reads and each new
// text it makes): each file is bounded by maxFileBytes, and a set that names many large files is
// refused once the files it has checked pass the bound, before it reads more and with nothing
// written; one within the bound publishes.
func TestChangeSetIsBoundedInTotal(t *testing.T) {
	p, dir := providerWithMax(t, 64)
	var changes []fs.Change
	for i := range 12 {
		name := fmt.Sprintf("f%02d.txt", i)
		writeFile(t, filepath.Join(dir, name), strings.Repeat("x", 59)+"\n")
		changes = append(changes, fs.Change{Kind: fs.ChangeUpdate, Target: resolve(t, p, name), Update: upper})
	}
	_, err := p.ApplyChanges(context.Background(), changes)
	requireFsError(t, err, fs.CodeTooLarge, `cannot patch "`+filepath.Join(dir, "f08.txt")+`": with it the patch holds 1080 bytes of files, over the 1024-byte limit of one patch; split the patch`)
	for i := range 12 {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)))
		require.NoError(t, err)
		assert.Equal(t, strings.Repeat("x", 59)+"\n", string(b), "nothing is written")
	}
	requireClean(t, p, dir)

	_, err = p.ApplyChanges(context.Background(), changes[:8]) // 960 bytes
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "f07.txt"))
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("X", 59)+"\n", string(b))

	// A delete holds the text it removes (for its diff): deletes count too.
	var deletes []fs.Change
	for i := range 20 {
		name := fmt.Sprintf("d%02d.txt", i)
		writeFile(t, filepath.Join(dir, name), strings.Repeat("y", 59)+"\n")
		deletes = append(deletes, fs.Change{Kind: fs.ChangeDelete, Target: resolve(t, p, name)})
	}
	_, err = p.ApplyChanges(context.Background(), deletes)
	requireFsError(t, err, fs.CodeTooLarge, `cannot patch "`+filepath.Join(dir, "d17.txt")+`": with it the patch holds 1080 bytes of files, over the 1024-byte limit of one patch; split the patch`)
	assert.FileExists(t, filepath.Join(dir, "d00.txt"), "nothing is removed")
	requireClean(t, p, dir)
}
