package fssandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// Nested repositories. git opens a directory as a repository (setup.c,
// is_git_directory) when it has a valid HEAD and its common directory (itself,
// or the one its commondir file names) has objects and refs; it finds one at
// the ".git" entry of the working directory or an ancestor (a directory, or a
// gitlink file naming the git directory) and at the directories themselves (a
// bare repository), and then runs the commands its config and hooks name. So,
// while the ".git" entry is protected, a confined mutation may neither add to
// nor change a repository, nor make one:
//
//   - no component of the target path is named like ".git" (sameName);
//   - no directory on the way from the writable root to the target has the
//     repository layout (hasLayout), counting the entry the mutation adds to
//     it: a HEAD with a commondir, or a HEAD with objects and refs.
//
// The layout is judged by the presence of the names only (any file type, no
// content check), so a half-made layout whose HEAD is not valid is refused too.
// gitMarkers are compared with sameName on the side of the entry added (a
// case-insensitive file system finds "head" as HEAD) and looked up under their
// exact names in the directory (the file system folds when it folds).
var gitMarkers = [...]string{"HEAD", "commondir", "objects", "refs"}

// errRepository is the cause of a refusal on the held directories.
var errRepository = errors.New("it would add to or make a git repository")

// hasLayout reports whether a directory whose entries has reports, with the
// marker added (or "") added to it, has the repository layout.
func hasLayout(has func(name string) bool, added string) bool {
	h := func(n string) bool { return n == added || has(n) }
	return h("HEAD") && (h("commondir") || (h("objects") && h("refs")))
}

// markerOf returns the marker that name spells (sameName), or "".
func markerOf(name string) string {
	for _, m := range gitMarkers {
		if sameName(name, m) {
			return m
		}
	}
	return ""
}

// repositoryBy returns the ".git" component of key, or the repository
// directory that key lies in or would complete, beneath anchor; "" when none.
// This is the fence's check, by path, before any I/O.
func repositoryBy(key, anchor string) string {
	for rest, end := key, 0; rest != ""; {
		c, after, _ := strings.Cut(rest, string(filepath.Separator))
		end += len(c)
		if sameName(c, ".git") {
			return key[:end]
		}
		end++
		rest = after
	}
	rel, ok := beneath.Rel(anchor, key)
	if !ok {
		return ""
	}
	dir := anchor
	has := func(n string) bool { return lstatMode(dir+string(filepath.Separator)+n) != 0 }
	for rest := rel; rest != ""; {
		c, after, _ := strings.Cut(rest, string(filepath.Separator))
		if hasLayout(has, markerOf(c)) {
			return dir
		}
		next := dir + string(filepath.Separator) + c
		if lstatMode(next)&unix.S_IFMT != unix.S_IFDIR {
			break // nothing deeper exists yet
		}
		dir, rest = next, after
	}
	return ""
}

// lstatMode returns the mode of path (not followed), 0 when it cannot be
// stat'ed.
func lstatMode(path string) uint32 {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return 0
	}
	return uint32(st.Mode)
}

// markerMu serialises, in the process, every addition of a marker with the
// check that it does not complete a layout, so two concurrent mutations
// cannot each add the piece the other's check did not see.
var markerMu sync.Mutex

// addingRepository is the Beneath.Adding of a confined mutation: on the held
// directory, an entry named like ".git" is refused, and a marker is added
// only when it does not give the directory the repository layout (markerMu
// held from the check until the entry exists).
func addingRepository(dir hostfs.Dir, name string) (func(), error) {
	if sameName(name, ".git") {
		return nil, fmt.Errorf("%w: %s", ErrProtectedPath, name)
	}
	m := markerOf(name)
	if m == "" {
		return nil, nil
	}
	markerMu.Lock()
	if hasLayout(dir.Has, m) {
		markerMu.Unlock()
		return nil, fmt.Errorf("%w: adding %s: %w", ErrProtectedPath, name, errRepository)
	}
	return markerMu.Unlock, nil
}

// holdingRepository is the Beneath.Holding of a confined mutation: right
// before publication, no held directory may be a ".git" of its parent or have
// the repository layout (a directory renamed or exchanged there after the
// fence).
func holdingRepository(dir, parent hostfs.Dir) error {
	if parent.Names(".git", dir) || hasLayout(dir.Has, "") {
		return fmt.Errorf("%w: %w", ErrProtectedPath, errRepository)
	}
	return nil
}
