package hostfs

import "os"

// pathDir is the atomicDir of an unconfined mutation: every operation names
// its file by absolute path, so symlinks in the parent's path are followed
// (the target key was checked by nothing; a Provider never confines).
type pathDir struct {
	dir     string
	staging string // full path, once made
	temp    string // full path, once created
	hooks   *atomicHooks
}

func (d *pathDir) makeStaging(_, path string) error {
	d.staging = path
	return os.Mkdir(path, stagingDirPerm)
}

// createTemp gives the staging directory stagingDirPerm, keeping the setgid
// bit it inherited from a setgid parent (so that the temp file takes the
// parent's group, as a file created there would), and creates the temp file.
func (d *pathDir) createTemp(_, path string) (*os.File, error) {
	fi, err := os.Lstat(d.staging)
	if err != nil {
		return nil, err
	}
	if err := d.hooks.doChmod(d.staging, stagingDirPerm|fi.Mode()&os.ModeSetgid); err != nil {
		return nil, err
	}
	d.temp = path
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, newFilePerm)
}

func (d *pathDir) beforePublish(string, string) error { return nil }

func (d *pathDir) publish(_, path string, noReplace bool) error {
	if noReplace {
		return d.hooks.doLink(d.temp, path)
	}
	return d.hooks.doRename(d.temp, path)
}

func (d *pathDir) inspect(_, path string) (os.FileMode, error) {
	fi, err := d.hooks.doLstat(path)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

func (d *pathDir) removeStaging() error { return d.hooks.doRemoveAll(d.staging) }

func (d *pathDir) sync() { syncDir(d.dir) }

func (d *pathDir) close() {}
