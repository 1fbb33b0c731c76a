package fssandbox

import (
	"os"
	"path/filepath"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

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
		if _, ok := beneath.Rel(anchor, a); !ok {
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
