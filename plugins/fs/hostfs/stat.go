package hostfs

import (
	"context"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Stat implements fs.FileSystem: metadata of the key following symlinks, or
// (nil, nil) when absent. Other failures are coded (fs.FromOS).
func (p *Provider) Stat(ctx context.Context, t fs.Target) (*fs.Info, error) {
	if err := checkAbort(ctx, fs.VerbStat); err != nil {
		return nil, err
	}
	info, ok, err := probe(string(t.Key))
	if err != nil {
		return nil, fs.FromOS(fs.VerbStat, t.DisplayPath, err)
	}
	if err := checkAbort(ctx, fs.VerbStat); err != nil {
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	return &fs.Info{Version: info.Version, Type: info.Type, Size: info.Size, HasSize: true}, nil
}

// Lstat implements fs.FileSystem: path is joined lexically to the base
// (opts.Cwd, else the configured cwd) and probed without following its final
// component or resolving any ancestor.
func (p *Provider) Lstat(ctx context.Context, path string, opts fs.LstatOptions) (*fs.PathInfo, error) {
	if err := checkAbort(ctx, fs.VerbLstat); err != nil {
		return nil, err
	}
	if texts.IsBlank(path) {
		return nil, fs.BlankPath()
	}
	base := p.base(opts.Cwd)
	if hasNUL(base, path) {
		return nil, nulPath(base, path)
	}
	display := displayPathOf(base, path)
	probed := display
	if fs.NamesDirectory(path) && probed != "/" {
		probed += "/" // lstat(2) follows a final symlink then, and fails ENOTDIR on a non-directory
	}
	info, ok, err := probeNoFollow(probed)
	if err != nil {
		return nil, fs.FromOS(fs.VerbLstat, display, err)
	}
	if err := checkAbort(ctx, fs.VerbLstat); err != nil {
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	return &fs.PathInfo{Version: info.Version, Type: info.Type, Size: info.Size, HasSize: true}, nil
}

// probeInfo is the metadata of one probe.
type probeInfo struct {
	Version fs.Version
	Mode    os.FileMode // permission bits with setuid, setgid and sticky
	Type    fs.FileType // file, directory, other; symlink only from probeNoFollow
	Size    int64
	Uid     int
	Gid     int
	Nlink   uint64
}

// probe stats path following symlinks. ENOENT and ENOTDIR mean absent
// (ok == false, err == nil); any other error is returned as an *os.PathError.
func probe(path string) (probeInfo, bool, error) {
	return doProbe("stat", path, unix.Stat)
}

// probeNoFollow is probe without following a final symlink component.
func probeNoFollow(path string) (probeInfo, bool, error) {
	return doProbe("lstat", path, unix.Lstat)
}

func doProbe(op, path string, fn func(string, *unix.Stat_t) error) (probeInfo, bool, error) {
	var st unix.Stat_t
	var err error
	for {
		err = fn(path, &st)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return probeInfo{}, false, nil
		}
		return probeInfo{}, false, &os.PathError{Op: op, Path: path, Err: err}
	}
	return infoOf(&st), true, nil
}

func infoOf(st *unix.Stat_t) probeInfo {
	return probeInfo{
		Version: versionOf(st),
		Mode:    modeOf(uint32(st.Mode)),
		Type:    typeOf(uint32(st.Mode)),
		Size:    st.Size,
		Uid:     int(st.Uid),
		Gid:     int(st.Gid),
		Nlink:   uint64(st.Nlink),
	}
}

// modeOf is the permission bits of a st_mode with its setuid, setgid and
// sticky bits, as an os.FileMode (what (*os.File).Chmod applies).
func modeOf(mode uint32) os.FileMode {
	m := os.FileMode(mode & 0o777)
	if mode&unix.S_ISUID != 0 {
		m |= os.ModeSetuid
	}
	if mode&unix.S_ISGID != 0 {
		m |= os.ModeSetgid
	}
	if mode&unix.S_ISVTX != 0 {
		m |= os.ModeSticky
	}
	return m
}

func typeOf(mode uint32) fs.FileType {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return fs.TypeFile
	case unix.S_IFDIR:
		return fs.TypeDirectory
	case unix.S_IFLNK:
		return fs.TypeSymlink
	}
	return fs.TypeOther
}

// versionOf formats the version token "<dev>:<ino>:<size>:<mtimeNs>:<ctimeNs>".
func versionOf(st *unix.Stat_t) fs.Version {
	b := make([]byte, 0, 96)
	b = strconv.AppendUint(b, uint64(st.Dev), 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, uint64(st.Ino), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, st.Size, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, timespecNs(st.Mtim), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, timespecNs(st.Ctim), 10)
	return fs.Version(b)
}

func timespecNs(ts unix.Timespec) int64 {
	return int64(ts.Sec)*1e9 + int64(ts.Nsec)
}

// missingVersion is the sentinel version returned when the post-write probe
// finds the file missing (concurrent unlink).
func missingVersion(key fs.TargetKey) fs.Version {
	return fs.Version("missing:" + string(key))
}
