package fslocal

import (
	"os"
	"path/filepath"

	"go.uber.org/zap"
)

// pathDir is the atomicDir of an unconfined mutation: every operation names
// its file by absolute path, so symlinks in the parent's path are followed
// (the target key was checked by nothing; fs-local never confines).
type pathDir struct {
	dir     string
	staging string // full path, once made
	temp    string // full path, once created
	hooks   *atomicHooks
}

func (d *pathDir) makeStaging(name string) error {
	d.staging = filepath.Join(d.dir, name)
	return os.Mkdir(d.staging, stagingDirPerm)
}

func (d *pathDir) createTemp(name string) (*os.File, error) {
	if err := os.Chmod(d.staging, stagingDirPerm); err != nil {
		return nil, err
	}
	d.temp = filepath.Join(d.staging, name)
	return os.OpenFile(d.temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, newFilePerm)
}

func (d *pathDir) publish(base string, noReplace bool) error {
	if noReplace {
		return d.hooks.doLink(d.temp, filepath.Join(d.dir, base))
	}
	return d.hooks.doRename(d.temp, filepath.Join(d.dir, base))
}

func (d *pathDir) inspect(base string) (os.FileMode, error) {
	fi, err := d.hooks.doLstat(filepath.Join(d.dir, base))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

func (d *pathDir) removeStaging() error { return d.hooks.doRemoveAll(d.staging) }

func (d *pathDir) commit(path string, log *zap.Logger) {
	syncDir(d.dir)
	sweepResidue(path, log)
}

func (d *pathDir) close() {}
