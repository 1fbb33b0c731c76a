package fs_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

func TestMessageCatalogue(t *testing.T) {
	const p = "/w/a.txt"
	osErr := errors.New("EACCES-ish")
	cases := []struct {
		err  *fs.Error
		code fs.Code
		msg  string
	}{
		{fs.BlankPath(), fs.CodeNotFound, `file_path must be a non-empty string`},
		{fs.ParentNotDirectory(p, nil), fs.CodeNotFound, `cannot resolve "/w/a.txt": a parent path segment is not a directory`},
		{fs.ReadNotFound(p, nil), fs.CodeNotFound, `cannot read "/w/a.txt": not found`},
		{fs.ListNotFound(p, nil), fs.CodeNotFound, `cannot list "/w/a.txt": not found`},
		{fs.OffsetOutOfRange(7, p, 3), fs.CodeNotFound, `offset 7 is out of range for "/w/a.txt" (3 lines)`},
		{fs.EditNotFound(p), fs.CodeNotFound, `cannot edit "/w/a.txt": not found`},
		{fs.WriteCleanupFailed(errors.New("orig"), errors.New("rm")), fs.CodeNotFound, `write failed (orig) and temp cleanup failed (rm)`},
		{fs.WriteCloseFailed(errors.New("orig"), errors.New("close")), fs.CodeNotFound, `write failed (orig) and temp close failed (close)`},
		{fs.ListNotDirectory(p), fs.CodeNotDirectory, `cannot list "/w/a.txt": not a directory`},
		{fs.ResolveNotDirectory(p, nil), fs.CodeNotDirectory, `cannot resolve "/w/a.txt": not a directory, but the path ends in "/" or in a "." or ".." segment`},
		{fs.WriteDirectoryPath(p), fs.CodeNotRegularFile, `cannot write "/w/a.txt": the path ends in "/" or in a "." or ".." segment, so it names a directory`},
		{fs.ListPermissionDenied(p, osErr), fs.CodePermissionDenied, `cannot list "/w/a.txt": permission denied`},
		{fs.ListIOError(p, osErr), fs.CodeIOError, `cannot list "/w/a.txt": EACCES-ish`},
		{fs.WriteIOError(p, osErr), fs.CodeIOError, `cannot write "/w/a.txt": EACCES-ish`},
		{fs.WriteHardLinked(p, 2), fs.CodeIOError, `cannot write "/w/a.txt": it has 2 hard links, and replacing it would split them (the other names would keep the old content)`},
		{fs.EditHardLinked(p, 3), fs.CodeIOError, `cannot edit "/w/a.txt": it has 3 hard links, and replacing it would split them (the other names would keep the old content)`},
		{fs.ReadBinary(p), fs.CodeNotText, `cannot read "/w/a.txt": binary file`},
		{fs.ReadInvalidUTF8(p), fs.CodeNotText, `cannot read "/w/a.txt": invalid UTF-8 text`},
		{fs.EditBinary(p), fs.CodeNotText, `cannot edit "/w/a.txt": binary file`},
		{fs.EditInvalidUTF8(p), fs.CodeNotText, `cannot edit "/w/a.txt": invalid UTF-8 text`},
		{fs.ReadNotRegular(p), fs.CodeNotRegularFile, `cannot read "/w/a.txt": not a regular file`},
		{fs.WriteNotRegular(p, nil), fs.CodeNotRegularFile, `cannot write "/w/a.txt": not a regular file`},
		{fs.EditNotRegular(p), fs.CodeNotRegularFile, `cannot edit "/w/a.txt": not a regular file`},
		{fs.ReadTooLarge(p, 11, 10), fs.CodeTooLarge, `cannot read "/w/a.txt": 11 bytes exceeds the 10-byte limit`},
		{fs.ReadContentTooLarge(p, 10), fs.CodeTooLarge, `cannot read "/w/a.txt": content exceeds the 10-byte limit`},
		{fs.WriteNoLongerExists(p), fs.CodeStaleVersion, `cannot write "/w/a.txt": file no longer exists`},
		{fs.WriteChanged(p), fs.CodeStaleVersion, `cannot write "/w/a.txt": file changed since it was read`},
		{fs.EditChanged(p), fs.CodeStaleVersion, `cannot edit "/w/a.txt": file changed since it was read`},
		{fs.OverwriteNotObserved(p, nil), fs.CodeNotObserved, `cannot overwrite existing "/w/a.txt" without reading it first`},
		{fs.EditNotObserved(p), fs.CodeNotObserved, `edit requires reading "/w/a.txt" first`},
		{fs.OldStringEmpty(), fs.CodeEditNotFound, `old_string must be a non-empty string`},
		{fs.OldStringNotFound(p), fs.CodeEditNotFound, `old_string was not found in "/w/a.txt"`},
		{fs.AmbiguousEdit(3, p), fs.CodeAmbiguousEdit, `old_string matched 3 times in "/w/a.txt"; provide a more specific old_string or set replace_all to true`},
		{fs.Aborted(fs.VerbResolve, nil), fs.CodeAborted, `resolve aborted`},
		{fs.Aborted(fs.VerbStat, nil), fs.CodeAborted, `stat aborted`},
		{fs.Aborted(fs.VerbLstat, nil), fs.CodeAborted, `lstat aborted`},
		{fs.Aborted(fs.VerbRead, nil), fs.CodeAborted, `read aborted`},
		{fs.Aborted(fs.VerbList, nil), fs.CodeAborted, `list aborted`},
		{fs.Aborted(fs.VerbWrite, nil), fs.CodeAborted, `write aborted`},
		{fs.Aborted(fs.VerbEdit, nil), fs.CodeAborted, `edit aborted`},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			assert.Equal(t, c.msg, c.err.Error())
			assert.Equal(t, c.code, c.err.Kind)
			assert.Equal(t, string(c.code), c.err.Code())
			assert.Equal(t, "FsError", c.err.Name())
		})
	}
}

func TestErrorMatching(t *testing.T) {
	cause := io.ErrUnexpectedEOF
	err := fmt.Errorf("wrapped: %w", fs.ListIOError("/x", cause))

	assert.ErrorIs(t, err, fs.ErrIOError, "code sentinel matches any message")
	assert.NotErrorIs(t, err, fs.ErrNotFound)
	assert.ErrorIs(t, err, cause, "the cause is reachable")
	assert.ErrorIs(t, err, fs.ListIOError("/x", cause), "same code and message match")
	assert.NotErrorIs(t, err, fs.ListIOError("/y", cause))
	assert.True(t, fs.HasCode(err, fs.CodeIOError))
	assert.Equal(t, fs.CodeIOError, fs.CodeOf(err))
	assert.Equal(t, fs.Code(""), fs.CodeOf(cause))

	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, `cannot list "/x": unexpected EOF`, fe.Message)

	var coded interface {
		Name() string
		Code() string
	}
	require.ErrorAs(t, err, &coded)
	assert.Equal(t, "FS_IO_ERROR", coded.Code())

	double := fs.WriteCleanupFailed(io.EOF, io.ErrClosedPipe)
	assert.ErrorIs(t, double, io.EOF)
	assert.ErrorIs(t, double, io.ErrClosedPipe)
}

func TestCodesClosedSet(t *testing.T) {
	want := []string{"FS_NOT_FOUND", "FS_NOT_DIRECTORY", "FS_NOT_TEXT", "FS_NOT_REGULAR_FILE",
		"FS_TOO_LARGE", "FS_PERMISSION_DENIED", "FS_SANDBOX_DENIED", "FS_IO_ERROR", "FS_STALE_VERSION",
		"FS_NOT_OBSERVED", "FS_AMBIGUOUS_EDIT", "FS_EDIT_NOT_FOUND", "FS_ABORTED"}
	got := make([]string, len(fs.Codes))
	for i, c := range fs.Codes {
		got[i] = string(c)
	}
	assert.Equal(t, want, got)
}

func TestVocabularyConstructors(t *testing.T) {
	assert.Equal(t, fs.Observation{Kind: "present", Version: "v1"}, fs.Present("v1"))
	assert.Equal(t, fs.Observation{Kind: "absent"}, fs.Absent())
	assert.Equal(t, &fs.WriteIntent{Kind: "createIfAbsent"}, fs.CreateIfAbsent())
	assert.Equal(t, &fs.WriteIntent{Kind: "replaceIfVersion", Version: "v2"}, fs.ReplaceIfVersion("v2"))
}

func TestKeys(t *testing.T) {
	assert.Equal(t, "fs", fs.Service.Name())
}
