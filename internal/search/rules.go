package search

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// level is the ignore state of one directory: its own ignore files and its place in the chain of
// directories above it.
type level struct {
	parent *level
	dir    string // absolute physical path with a trailing '/'
	ignore *ruleList
	git    *ruleList
	// exclude holds .git/info/exclude and global the user's excludes file; both are set on the
	// directory that holds .git.
	exclude, global *ruleList
	repo            bool // the directory holds .git
	inRepo          bool // it or an ancestor holds .git
	skip            bool // no level of the chain has a rule
}

// rules is the shared ignore configuration of one search.
type rules struct {
	global *ruleList // the user's global excludes file, or nil
	// beneath is Options.Beneath: ignore files are opened beneath it, and none above it is read.
	beneath string
	// partial counts the ignore files read that were applied in part (past the caps of parseRules).
	partial atomic.Int32
}

// newLevel builds the level of dir (absolute physical, no trailing '/') below parent; the flags say
// which of .git, .ignore and .gitignore the directory holds.
func (rs *rules) newLevel(parent *level, dir string, hasGit, hasIgnore, hasGitignore bool) *level {
	l := &level{parent: parent, dir: withSlash(dir), repo: hasGit}
	l.inRepo = hasGit || (parent != nil && parent.inRepo)
	if hasIgnore {
		l.ignore = rs.read(filepath.Join(dir, ".ignore"))
	}
	if l.inRepo && hasGitignore {
		l.git = rs.read(filepath.Join(dir, ".gitignore"))
	}
	if hasGit {
		l.exclude = rs.read(filepath.Join(dir, ".git", "info", "exclude"))
		l.global = rs.global
	}
	return l
}

// read is readRules, counting a file applied in part.
func (rs *rules) read(path string) *ruleList {
	l := readRules(rs.beneath, path)
	if l != nil && l.partial {
		rs.partial.Add(1)
	}
	return l
}

func withSlash(dir string) string {
	if strings.HasSuffix(dir, "/") {
		return dir
	}
	return dir + "/"
}

// readRules reads and parses one ignore file (opened beneath the directory beneath when it is
// set); a missing or unreadable file has no rules.
func readRules(beneath, path string) *ruleList {
	fd, err := openRegularFD(beneath, path)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	data := make([]byte, min(st.Size(), maxIgnoreBytes+1))
	n, _ := readAll(f, data)
	return parseRules(data[:n])
}

// ignored reports whether the entry at abs (absolute physical path) is excluded by the rules of l
// and its ancestors.
func (l *level) ignored(abs string, isDir bool) bool {
	var fromIgnore, fromGit, fromExclude, fromGlobal decision
	for lv := l; lv != nil; lv = lv.parent {
		rel, ok := strings.CutPrefix(abs, lv.dir)
		if !ok {
			continue
		}
		if fromIgnore == undecided {
			fromIgnore = lv.ignore.match(rel, isDir)
		}
		if fromGit == undecided {
			fromGit = lv.git.match(rel, isDir)
		}
		if lv.repo {
			if fromExclude == undecided {
				fromExclude = lv.exclude.match(rel, isDir)
			}
			if fromGlobal == undecided {
				fromGlobal = lv.global.match(rel, isDir)
			}
		}
	}
	for _, d := range [...]decision{fromIgnore, fromGit, fromExclude, fromGlobal} {
		if d != undecided {
			return d == excluded
		}
	}
	return false
}

// hasAnyRules reports whether some level of the chain carries rules (a walk with none skips the
// matching altogether).
func (l *level) hasAnyRules() bool {
	for lv := l; lv != nil; lv = lv.parent {
		if lv.ignore != nil || lv.git != nil || lv.exclude != nil || lv.global != nil {
			return true
		}
	}
	return false
}

// ancestorLevels builds the chain of levels for the directories above root (absolute physical),
// from the filesystem root down to root's parent, and returns the deepest. .ignore files are read
// in every ancestor; .gitignore files only from the top of the enclosing git work tree down. Under
// a confinement (beneath set) the chain starts at beneath: nothing above it is opened or stat'ed.
func (rs *rules) ancestorLevels(root string) *level {
	var dirs []string
	for d := root; d != filepath.Dir(d) && d != rs.beneath; {
		d = filepath.Dir(d)
		dirs = append(dirs, d)
	}
	var l *level
	if rs.beneath != "" && repoAbove(rs.beneath) {
		// No rule above beneath is read, but .gitignore files beneath it apply as in any work tree.
		l = &level{dir: withSlash(filepath.Dir(rs.beneath)), inRepo: true}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		if rs.beneath != "" && !beneath.Within(rs.beneath, d) {
			continue
		}
		has := rs.holds(d, ".git", ".ignore", ".gitignore")
		l = rs.newLevel(l, d, has[0], has[1], has[2])
	}
	return l
}

// holds reports which of the names dir holds as entries (dir opened once, beneath rs.beneath,
// when that is set).
func (rs *rules) holds(dir string, names ...string) []bool {
	has := make([]bool, len(names))
	if rs.beneath == "" {
		for i, name := range names {
			_, err := os.Lstat(filepath.Join(dir, name))
			has[i] = err == nil
		}
		return has
	}
	fd, err := OpenBeneath(rs.beneath, dir, dirFlags)
	if err != nil {
		return has
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	for i, name := range names {
		has[i] = fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil
	}
	return has
}

// repoAbove reports whether a directory above dir holds .git (an lstat of each, nothing opened).
func repoAbove(dir string) bool {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}
