package hostfs

import (
	"context"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

var _ fs.DirPruner = (*Provider)(nil)

// PruneDirs implements fs.DirPruner (docs/history.md "The undo tool"): dirs must be t's parent,
// then its parent's parent, and so on; each is removed with rmdir(2) (never a file, never a
// directory that holds anything) while it is a directory reached through no symlink, and the walk
// stops at the first that stays. The sandbox policy is ignored.
func (p *Provider) PruneDirs(_ context.Context, t fs.Target, dirs []string) []string {
	return pruneDirs(t, dirs, nil)
}

// PruneDirsBeneath is PruneDirs removing only directories strictly beneath b.Root.
func (p *Provider) PruneDirsBeneath(_ context.Context, t fs.Target, dirs []string, b Beneath) []string {
	return pruneDirs(t, dirs, &b)
}

func pruneDirs(t fs.Target, dirs []string, b *Beneath) []string {
	var removed []string
	next := filepath.Dir(string(t.Key))
	for _, d := range dirs {
		if d != next || !filepath.IsAbs(d) || filepath.Clean(d) != d || filepath.Dir(d) == d {
			break
		}
		if b != nil {
			if rel, ok := relBeneath(b.Root, d); !ok || rel == "." {
				break
			}
		}
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			break
		}
		if real, err := filepath.EvalSymlinks(d); err != nil || real != d {
			break
		}
		if unix.Rmdir(d) != nil {
			break
		}
		removed = append(removed, d)
		next = filepath.Dir(d)
	}
	if len(removed) > 0 {
		syncDir(next)
	}
	return removed
}
