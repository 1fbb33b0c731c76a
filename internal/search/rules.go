package search

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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
	l := readRules(path)
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

// readRules reads and parses one ignore file; a missing or unreadable file has no rules.
func readRules(path string) *ruleList {
	f, err := openRegular(path)
	if err != nil {
		return nil
	}
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
// in every ancestor; .gitignore files only from the top of the enclosing git work tree down.
func (rs *rules) ancestorLevels(root string) *level {
	var dirs []string
	for d := root; d != filepath.Dir(d); {
		d = filepath.Dir(d)
		dirs = append(dirs, d)
	}
	var l *level
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		l = rs.newLevel(l, d, exists(d, ".git"), exists(d, ".ignore"), exists(d, ".gitignore"))
	}
	return l
}

// exists reports whether dir holds an entry called name.
func exists(dir, name string) bool {
	_, err := os.Lstat(filepath.Join(dir, name))
	return err == nil
}
