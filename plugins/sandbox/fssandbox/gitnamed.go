package fssandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
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

// pathSetting reports the settings whose value is one path.
func pathSetting(e configEntry) bool {
	sub := e.hasSub
	switch e.section {
	case "core":
		return !sub && e.key == "hookspath"
	case "init":
		return !sub && e.key == "templatedir"
	case "difftool", "mergetool", "browser", "man", "guitool":
		return sub && e.key == "path"
	}
	return false
}

// commandSetting reports the settings whose value is a shell command git runs (git-config(1)).
func commandSetting(e configEntry) bool {
	sub := e.hasSub
	k := e.key
	switch e.section {
	case "core":
		return !sub && oneOf(k, "fsmonitor", "sshcommand", "editor", "pager", "askpass", "gitproxy", "alternaterefscommand")
	case "sequence":
		return !sub && k == "editor"
	case "diff":
		return (!sub && k == "external") || (sub && oneOf(k, "command", "textconv"))
	case "difftool", "mergetool", "browser", "man", "guitool":
		return sub && k == "cmd"
	case "merge":
		return sub && k == "driver"
	case "filter":
		return sub && oneOf(k, "clean", "smudge", "process")
	case "credential":
		return k == "helper"
	case "gpg":
		return k == "program" || (e.subsection == "ssh" && k == "defaultkeycommand")
	case "pager", "alias":
		return !sub
	case "interactive":
		return !sub && k == "difffilter"
	case "remote":
		return sub && oneOf(k, "uploadpack", "receivepack")
	case "uploadpack":
		return !sub && k == "packobjectshook"
	case "sendemail":
		return oneOf(k, "smtpserver", "sendmailcmd", "tocmd", "cccmd", "headercmd")
	case "imap":
		return !sub && k == "tunnel"
	case "trailer":
		return sub && oneOf(k, "command", "cmd")
	case "submodule":
		return sub && k == "update"
	}
	return false
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// settingName spells e's name for a log or a cause: section[.subsection].key.
func settingName(e configEntry) string {
	if e.section == "" {
		return e.key
	}
	if e.hasSub {
		return e.section + "." + e.subsection + "." + e.key
	}
	return e.section + "." + e.key
}

// gitRepo is a repository whose config the fence reads.
type gitRepo struct {
	worktree, gitdir, common string
}

// repoAt returns the repository whose ".git" entry (a directory, or a gitlink file) is in dir.
func repoAt(dir string) (gitRepo, bool) {
	q := filepath.Join(dir, ".git")
	fi, err := os.Stat(q)
	if err != nil {
		return gitRepo{}, false
	}
	r := gitRepo{worktree: dir}
	switch {
	case fi.IsDir():
		r.gitdir = filepath.Clean(sandbox.CanonicalPath(q))
		r.common = r.gitdir
		if c, ok := readPointer(filepath.Join(r.gitdir, "commondir"), "", r.gitdir); ok {
			r.common = c
		}
	default:
		dirs := gitPointerDirs(q, ".git", fi)
		if len(dirs) == 0 {
			return gitRepo{}, false
		}
		r.gitdir, r.common = dirs[0], dirs[len(dirs)-1]
	}
	return r, true
}

// repositories returns the repositories whose configs govern a write to key (see above).
func repositories(key, anchor string, bases []string, workspaceRoot string) []gitRepo {
	var out []gitRepo
	found := map[string]bool{} // by directory: whether it holds a repository
	add := func(dir string) bool {
		if ok, seen := found[dir]; seen {
			return ok
		}
		r, ok := repoAt(dir)
		if found[dir] = ok; ok {
			out = append(out, r)
		}
		return ok
	}
	for _, b := range bases {
		add(b)
	}
	for a := filepath.Dir(key); a != anchor; a = filepath.Dir(a) {
		if _, ok := relUnder(a, anchor); !ok {
			break
		}
		add(a)
	}
	if workspaceRoot != "" {
		for d := filepath.Clean(sandbox.CanonicalPath(workspaceRoot)); ; d = filepath.Dir(d) {
			if add(d) || d == filepath.Dir(d) {
				break
			}
		}
	}
	return out
}

// globalConfigs are the system and global config files, which apply to every repository.
func globalConfigs(home string) []string {
	files := []string{"/etc/gitconfig"}
	for _, v := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL"} {
		if f := os.Getenv(v); f != "" {
			files = append(files, f)
		}
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".config", "git", "config"), filepath.Join(home, ".gitconfig"))
	}
	return files
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
			if fe.e.section == "core" && !fe.e.hasSub && fe.e.key == "worktree" && fe.e.hasValue {
				if w, ok := expandPath(fe.e.value, r.gitdir, home); ok {
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
	e    configEntry
	file string
}

// appendNamed adds the paths fe names, relative ones resolved against each work tree root.
func appendNamed(out []namedPath, fe fileEntry, worktrees []string, home string) []namedPath {
	e := fe.e
	if !e.hasValue {
		return out
	}
	var values []string
	switch {
	case pathSetting(e):
		values = []string{e.value}
		if e.key == "hookspath" && strings.HasSuffix(e.value, "/_") {
			// husky's layout: the hooks in .husky/_ run the scripts in .husky.
			values = append(values, strings.TrimSuffix(e.value, "_")+".")
		}
	case commandSetting(e):
		values = commandPaths(e.value) // a boolean core.fsmonitor has no "/"
	}
	for _, v := range values {
		for _, w := range worktrees {
			if p, ok := expandPath(v, w, home); ok {
				out = append(out, namedPath{path: p, setting: settingName(e), file: fe.file})
			}
		}
	}
	return out
}

// commandPaths returns the words of the shell command v that contain a "/" (after quote removal),
// the part after the first "=" of a word when that part contains one, and the same of a word
// that is itself a command (one with white space: sh -c '...'), one level down.
func commandPaths(v string) []string { return appendCommandPaths(nil, v, 1) }

func appendCommandPaths(out []string, v string, nested int) []string {
	for _, w := range shellWords(strings.TrimPrefix(strings.TrimSpace(v), "!")) {
		if strings.Contains(w, "/") {
			out = append(out, w)
		}
		if _, after, ok := strings.Cut(w, "="); ok && strings.Contains(after, "/") {
			out = append(out, after)
		}
		if nested > 0 && strings.ContainsAny(w, " \t\n") {
			out = appendCommandPaths(out, w, nested-1)
		}
	}
	return out
}

// shellWords splits s into words as a POSIX shell does for the purpose of naming files: white
// space and the operators ; | & ( ) < > ` separate words, '...' is literal, "..." keeps its
// content with \\ \" \$ \` escapes, and a backslash outside quotes takes the next byte literally.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			in = true
			i++
			cur.WriteByte(s[i])
		case strings.IndexByte(" \t\n;|&()<>`", c) >= 0:
			flush()
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// expandPath makes a config path absolute: "~" and "~/x" (and "$HOME/x") from home, an absolute
// path as it is, a relative one beneath base. "~user/x" is not expanded (false).
func expandPath(v, base, home string) (string, bool) {
	switch {
	case v == "" || strings.IndexByte(v, 0) >= 0:
		return "", false
	case v == "~" || strings.HasPrefix(v, "~/"):
		if home == "" {
			return "", false
		}
		return home + v[1:], true
	case strings.HasPrefix(v, "~"):
		return "", false
	case strings.HasPrefix(v, "$HOME/"), strings.HasPrefix(v, "${HOME}/"):
		if home == "" {
			return "", false
		}
		return home + v[strings.IndexByte(v, '/'):], true
	case filepath.IsAbs(v):
		return v, true
	}
	return base + string(filepath.Separator) + v, true
}

// configCache holds parsed config files keyed by path, each valid while its stat is unchanged.
type configCache struct {
	mu    sync.Mutex
	files map[string]cachedConfig
}

type cachedConfig struct {
	sig     fileSig
	entries []configEntry
}

// fileSig is what identifies one version of a file.
type fileSig struct {
	dev, ino     uint64
	size         int64
	mtime, ctime unix.Timespec
}

// load returns the variables of the config file path (nil when it is missing or not a regular
// file), parsed again only when its stat changed.
func (c *configCache) load(path string) []configEntry {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil
	}
	c.mu.Lock()
	f, ok := c.files[path]
	c.mu.Unlock()
	if ok && f.sig == sigOf(&st) {
		return f.entries
	}
	sig, entries, ok := readConfig(path)
	if !ok {
		return nil
	}
	c.mu.Lock()
	if c.files == nil || len(c.files) >= maxCachedFiles {
		c.files = map[string]cachedConfig{}
	}
	c.files[path] = cachedConfig{sig: sig, entries: entries}
	c.mu.Unlock()
	return entries
}

func sigOf(st *unix.Stat_t) fileSig {
	return fileSig{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: st.Mtim, ctime: st.Ctim}
}

// readConfig reads and parses at most maxConfigBytes of the regular file path, with the stat of
// what it read. It never blocks on a FIFO put there, and a syntax error keeps what came before it
// (git refuses such a file; the fence protects what it names up to there).
func readConfig(path string) (fileSig, []configEntry, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return fileSig{}, nil, false
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileSig{}, nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes))
	if err != nil {
		return fileSig{}, nil, false
	}
	entries, _ := parseGitConfig(data)
	return sigOf(&st), entries, true
}

// collect appends the variables of path and of the files it includes (depth-first, in file
// order, to maxIncludeDepth, reading at most *budget files) to entries, and each include target
// to named.
func (c *configCache) collect(entries []fileEntry, path, home string, depth int, budget *int, named *[]namedPath) []fileEntry {
	if *budget <= 0 {
		return entries
	}
	*budget--
	for _, e := range c.load(path) {
		entries = append(entries, fileEntry{e: e, file: path})
		if !e.hasValue || e.key != "path" || !(e.section == "include" && !e.hasSub || e.section == "includeif" && e.hasSub) {
			continue
		}
		inc, ok := expandPath(e.value, filepath.Dir(path), home)
		if !ok {
			continue
		}
		*named = append(*named, namedPath{path: inc, setting: settingName(e), file: path, include: true})
		if depth+1 < maxIncludeDepth {
			entries = c.collect(entries, inc, home, depth+1, budget, named)
		}
	}
	return entries
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
