package fssandbox

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// protectedBases are the directories whose protected entries a mutation
// beneath anchor must respect: the anchor, every writable root, and the
// ancestors of the workspace root that lie strictly beneath the anchor (a
// workspace that is a subdirectory of a repository inside a temp root keeps
// the repository's .git protected, though it is not at a root).
func protectedBases(anchor string, roots []string, workspaceRoot string) []string {
	bases := []string{anchor}
	add := func(b string) {
		for _, x := range bases {
			if x == b {
				return
			}
		}
		bases = append(bases, b)
	}
	for _, r := range roots {
		add(r)
	}
	if workspaceRoot == "" {
		return bases
	}
	ws := filepath.Clean(sandbox.CanonicalPath(workspaceRoot))
	for a := filepath.Dir(ws); a != anchor; a = filepath.Dir(a) {
		if _, ok := beneath.Rel(anchor, a); !ok {
			break
		}
		add(a)
	}
	return bases
}

// protectedBy returns the protected path that covers key, or "". key lies
// beneath anchor, the writable root that contains it as key spells it. A
// protected entry e covers, under every base r (see protectedBases):
//
//   - r/e and everything beneath it, whether or not it exists, matching each
//     component as git matches ".git" (sameName: case folded, the code
//     points HFS+ ignores dropped), so ".GIT/config" is covered on a
//     case-insensitive file system and cannot be planted on a sensitive one;
//   - when r/e exists: its canonical form and everything beneath it (an
//     entry that is, or passes through, a symlink), and every directory with
//     its device and inode (a bind mount, or an alias spelling the lexical
//     test does not know) with everything beneath it.
func (p *Provider) protectedBy(key, anchor string, bases []string) string {
	ancestors := lazyAncestors{key: key, anchor: anchor}
	for _, r := range bases {
		for _, e := range p.protected {
			q := filepath.Join(r, e)
			if coveredByName(key, r, e) {
				return q
			}
			qi, err := os.Lstat(q)
			if err != nil {
				continue
			}
			for _, g := range gitPointerDirs(q, e, qi) {
				if beneath.Within(g, key) {
					return g
				}
			}
			// Bases are canonical: only a symlinked entry, or a nested one, can
			// have a canonical form other than its spelling.
			if qi.Mode()&os.ModeSymlink != 0 || strings.ContainsRune(e, filepath.Separator) {
				if c := sandbox.CanonicalPath(q); c != q && beneath.Within(c, key) {
					return q
				}
				if qi, err = os.Stat(q); err != nil {
					continue
				}
			}
			if ancestors.include(qi) {
				return q
			}
		}
	}
	return ""
}

// coveredByName reports whether key is root/entry or lies beneath it, each
// component of entry compared with sameName.
func coveredByName(key, root, entry string) bool {
	rel, ok := beneath.Rel(root, key)
	if !ok {
		return false
	}
	got := strings.Split(rel, string(filepath.Separator))
	want := strings.Split(entry, string(filepath.Separator))
	if len(got) < len(want) {
		return false
	}
	for i, w := range want {
		if !sameName(got[i], w) {
			return false
		}
	}
	return true
}

// sameName compares two file names as git compares a path component with
// ".git" (core.protectHFS and its case-insensitive dot-file check): Unicode
// case is folded and the code points HFS+ ignores are dropped.
func sameName(a, b string) bool {
	return strings.EqualFold(stripIgnorable(a), stripIgnorable(b))
}

// stripIgnorable drops the code points HFS+ ignores in file names (git's
// is_hfs_dotgit list): U+200C..U+200F, U+202A..U+202E, U+206A..U+206F and
// U+FEFF.
func stripIgnorable(s string) string {
	if !strings.ContainsFunc(s, hfsIgnorable) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, s)
}

func hfsIgnorable(r rune) bool {
	return (r >= 0x200C && r <= 0x200F) || (r >= 0x202A && r <= 0x202E) ||
		(r >= 0x206A && r <= 0x206F) || r == 0xFEFF
}

// lazyAncestors are key and its ancestors strictly beneath anchor, stat'ed on first use.
type lazyAncestors struct {
	key, anchor string
	infos       []os.FileInfo
	done        bool
}

// include reports whether fi is the file of key or of one of its ancestors beneath the anchor.
func (a *lazyAncestors) include(fi os.FileInfo) bool {
	if !a.done {
		a.infos, a.done = ancestorInfos(a.key, a.anchor), true
	}
	for _, ai := range a.infos {
		if os.SameFile(ai, fi) {
			return true
		}
	}
	return false
}

// ancestorInfos stats key and each of its ancestors strictly beneath anchor,
// following symlinks; missing ones are skipped.
func ancestorInfos(key, anchor string) []os.FileInfo {
	var out []os.FileInfo
	for a := key; a != anchor; {
		if _, ok := beneath.Rel(anchor, a); !ok {
			break
		}
		if fi, err := os.Stat(a); err == nil {
			out = append(out, fi)
		}
		a = filepath.Dir(a)
	}
	return out
}

// protectedEntries returns the protected entries that exist now under bases
// (symlinks followed): the directories a confined publication is refused in
// when its held parent became one of them after the check.
func (p *Provider) protectedEntries(bases []string) []os.FileInfo {
	var out []os.FileInfo
	for _, r := range bases {
		for _, e := range p.protected {
			q := filepath.Join(r, e)
			if fi, err := os.Stat(q); err == nil && fi.IsDir() {
				out = append(out, fi)
			}
			if li, err := os.Lstat(q); err == nil {
				for _, g := range gitPointerDirs(q, e, li) {
					if fi, err := os.Stat(g); err == nil && fi.IsDir() {
						out = append(out, fi)
					}
				}
			}
		}
	}
	return out
}

// maxGitPointer bounds what gitPointerDirs reads of a pointer file.
const maxGitPointer = 4096

// gitPointerDirs returns, for a protected entry q named like ".git" that is
// a git pointer file ("gitdir: <dir>", a worktree or a submodule), the
// canonical git directory it names (relative to q's directory when not
// absolute) and, when that directory has a "commondir" file, the common git
// directory (relative to the git directory), where the repository's hooks
// and config live. Anything else yields nothing.
func gitPointerDirs(q, entry string, info os.FileInfo) []string {
	if !info.Mode().IsRegular() || info.Size() > maxGitPointer || !sameName(filepath.Base(entry), ".git") {
		return nil
	}
	gitdir, ok := readPointer(q, "gitdir:", filepath.Dir(q))
	if !ok {
		return nil
	}
	dirs := []string{gitdir}
	if common, ok := readPointer(filepath.Join(gitdir, "commondir"), "", gitdir); ok && common != gitdir {
		dirs = append(dirs, common)
	}
	return dirs
}

// readPointer reads the small file path, strips prefix (which must be there)
// and surrounding white space, and returns the canonical path it names,
// relative to base when not absolute.
func readPointer(path, prefix, base string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, maxGitPointer)
	n, _ := io.ReadFull(f, buf)
	text, ok := strings.CutPrefix(string(buf[:n]), prefix)
	text = strings.TrimSpace(text)
	if !ok || text == "" || strings.ContainsRune(text, 0) {
		return "", false
	}
	if !filepath.IsAbs(text) {
		text = base + string(filepath.Separator) + text // not Join: ".." is resolved physically
	}
	return filepath.Clean(sandbox.CanonicalPath(text)), true
}
