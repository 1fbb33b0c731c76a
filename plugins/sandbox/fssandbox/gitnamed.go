package fssandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/gitconfig"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// What a repository's git config names (docs/sandbox.md "Paths a repository's config names"). git
// runs the hooks in core.hooksPath, reads the files include.path and includeIf.*.path name, and
// runs the commands of command-valued settings; a sandboxed model that could write those files
// would have git run its code as the user. So, while ".git" is protected, the fence also refuses a
// write to a path that the config of a protected repository names:
//
//   - core.hooksPath and init.templateDir, directories, and the program paths *.path of
//     difftool, mergetool, browser, man and guitool: the value is a path, relative to the work
//     tree root (to the git directory for core.worktree), "~/" expanded;
//   - include.path and includeIf.<condition>.path: a config file, relative to the directory of
//     the file that includes it, "~/" expanded, followed (every condition taken as true) to a
//     depth of maxIncludeDepth;
//   - the command-valued settings of commandSetting: every word of the command (shell quoting
//     removed, a leading "!" dropped) that contains a "/", and the part after "=" of a word that
//     has one, is a path, relative to the work tree root.
//
// The repositories are those whose ".git" entry is at a protected base (a writable root, the
// anchor, an ancestor of the workspace root inside it), at a directory between the anchor and the
// target, and the first one git finds from the workspace root upwards. Their configs are the
// common directory's config, the git directory's config.worktree, and the system and global
// files (which apply to every repository). A file is parsed again only when its stat (device,
// inode, size, modification and change times) changed.

// maxConfigBytes bounds what is read of one config file; maxIncludeDepth is git's include depth.
const (
	maxConfigBytes  = 1 << 20
	maxIncludeDepth = 10
	maxConfigFiles  = 64 // files read for one repository, and for the global files, includes counted
	maxCachedFiles  = 256
)

// namedPath is a path a config names, and which setting of which file names it.
type namedPath struct {
	path, setting, file string
	include             bool // the path is a config file to follow
}

// configNames returns the paths the configs of repos name.
func (p *Provider) configNames(repos []gitRepo) []namedPath {
	if len(repos) == 0 {
		return nil
	}
	home, _ := os.UserHomeDir()
	var out []namedPath
	var globals []fileEntry
	budget := maxConfigFiles
	for _, f := range globalConfigs(home) {
		globals = p.configs.collect(globals, f, home, 0, &budget, &out)
	}
	for _, r := range repos {
		entries := globals[:len(globals):len(globals)]
		budget := maxConfigFiles
		for _, f := range []string{filepath.Join(r.common, "config"), filepath.Join(r.gitdir, "config.worktree")} {
			entries = p.configs.collect(entries, f, home, 0, &budget, &out)
		}
		worktrees := []string{r.worktree}
		for _, fe := range entries {
			if fe.e.Section == "core" && !fe.e.HasSub && fe.e.Key == "worktree" && fe.e.HasValue {
				if w, ok := expandPath(fe.e.Value, r.gitdir, home); ok {
					worktrees = append(worktrees, w)
				}
			}
		}
		for _, fe := range entries {
			out = appendNamed(out, fe, worktrees, home)
		}
	}
	return out
}

// fileEntry is a config variable and the file it was read from.
type fileEntry struct {
	e    gitconfig.Entry
	file string
}

// appendNamed adds the paths fe names, relative ones resolved against each work tree root.
func appendNamed(out []namedPath, fe fileEntry, worktrees []string, home string) []namedPath {
	e := fe.e
	if !e.HasValue {
		return out
	}
	var values []string
	switch {
	case pathSetting(e):
		values = []string{e.Value}
		if e.Key == "hookspath" && strings.HasSuffix(e.Value, "/_") {
			// husky's layout: the hooks in .husky/_ run the scripts in .husky.
			values = append(values, strings.TrimSuffix(e.Value, "_")+".")
		}
	case commandSetting(e):
		values = commandPaths(e.Value) // a boolean core.fsmonitor has no "/"
	}
	for _, v := range values {
		for _, w := range worktrees {
			if p, ok := expandPath(v, w, home); ok {
				out = append(out, namedPath{path: p, setting: e.Name(), file: fe.file})
			}
		}
	}
	return out
}

// namedBy returns the named path that covers key (it or a directory above it, by its resolved
// and its physical spelling, components compared case folded, or by device and inode for one
// that exists), or nil.
func (p *Provider) namedBy(key, anchor string, named []namedPath) *namedPath {
	ancestors := lazyAncestors{key: key, anchor: anchor}
	for i := range named {
		n := &named[i]
		if t, err := p.local.Resolve(context.Background(), n.path, fs.ResolveOptions{}); err == nil && withinFolded(key, string(t.Key)) {
			return n
		}
		if withinFolded(key, physical(n.path)) {
			return n
		}
		if ni, err := os.Stat(n.path); err == nil && ancestors.include(ni) {
			return n
		}
	}
	return nil
}

// withinFolded reports whether the clean absolute path is dir or lies beneath it, components
// compared as git compares ".git" (sameName: case folded, HFS+-ignorable code points dropped), as
// a case-insensitive file system finds them.
func withinFolded(path, dir string) bool {
	root := string(filepath.Separator)
	if dir == root {
		return true
	}
	return coveredByName(path, root, strings.TrimPrefix(dir, root))
}

// namedDirs returns the named directories that exist now (the publication check's forbidden
// directories).
func namedDirs(named []namedPath) []os.FileInfo {
	var out []os.FileInfo
	for _, n := range named {
		if fi, err := os.Stat(n.path); err == nil && fi.IsDir() {
			out = append(out, fi)
		}
	}
	return out
}

// physical returns p with its deepest existing ancestor in canonical form ("dir/link/../x"
// resolved as the kernel does), the rest appended lexically.
func physical(p string) string {
	rest := ""
	for d := p; ; {
		if c, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(c, rest)
		}
		i := strings.LastIndexByte(d, filepath.Separator)
		if i <= 0 {
			return filepath.Clean(p)
		}
		rest = filepath.Join(d[i+1:], rest)
		d = d[:i]
	}
}
