package staging

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

const (
	// compactEvery is how many records a registry file takes before it is rewritten with only
	// its live entries.
	compactEvery = 256
	// maxLeft bounds the staging directories a registry keeps after their removal failed (so
	// that a sweep retries them once the process is gone); beyond it they are forgotten.
	maxLeft = 1024
	// fileSuffix ends a registry file name "<pid>.<uuid>.staging".
	fileSuffix = ".staging"
)

// Record operations.
const (
	opHost    = 'h'
	opAdd     = '+'
	opAbandon = '-'
)

// Registry is this process's registry of staging directories in one registry directory. The
// zero of a *Registry (nil) records nothing. Its methods are safe for concurrent use.
type Registry struct {
	dir string
	log *zap.Logger

	mu      sync.Mutex
	f       *os.File // the registry file, held under flock; nil until the first Begin
	path    string
	records int
	live    map[string]bool // recorded staging directories; true: left behind by a failed removal
	left    int
	failed  bool // the registry file could not be created: record nothing
	warned  bool // a failed append was logged
}

// registries holds the process's registry of each registry directory.
var registries sync.Map

// For returns this process's registry in dir; the first call for dir sweeps it (Sweep). An empty
// dir gives the nil registry. log (nil: no logging) is the one the first call passes.
func For(dir string, log *zap.Logger) *Registry {
	if dir == "" {
		return nil
	}
	if r, ok := registries.Load(dir); ok {
		return r.(*Registry)
	}
	if log == nil {
		log = zap.NewNop()
	}
	r, loaded := registries.LoadOrStore(dir, &Registry{dir: dir, log: log, live: map[string]bool{}})
	if !loaded {
		Sweep(dir, log)
	}
	return r.(*Registry)
}

// Begin records the staging directory path before it is created.
func (r *Registry) Begin(path string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open() && r.append(opAdd, path) {
		r.live[path] = false
	}
}

// Abandon strikes off path, whose creation failed (whatever holds that name is not ours).
func (r *Registry) Abandon(path string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.live[path]; ok {
		delete(r.live, path)
		r.append(opAbandon, path)
	}
}

// End forgets path once its removal was attempted: removed, or left behind (kept, up to maxLeft,
// for the sweep after this process is gone).
func (r *Registry) End(path string, removed bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if left, ok := r.live[path]; !ok || left {
		return
	}
	if removed || r.left >= maxLeft {
		delete(r.live, path)
	} else {
		r.live[path] = true
		r.left++
	}
	if r.records >= compactEvery {
		r.compact()
	}
}

// open creates the registry file on first use; false when there is none.
func (r *Registry) open() bool {
	if r.f != nil {
		return true
	}
	if r.failed {
		return false
	}
	f, path, err := create(r.dir)
	if err != nil {
		r.failed = true
		r.log.Warn("no staging registry: the residue of a killed write will not be swept", zap.String("dir", r.dir), zap.Error(err))
		return false
	}
	r.f, r.path, r.records = f, path, 1
	return true
}

// append writes one record; false (logged once) when it could not.
func (r *Registry) append(op byte, path string) bool {
	if _, err := r.f.Write(record(nil, op, path)); err != nil {
		if !r.warned {
			r.warned = true
			r.log.Warn("cannot record a staging directory: the residue of a killed write may not be swept", zap.String("registry", r.path), zap.Error(err))
		}
		return false
	}
	r.records++
	return true
}

// compact replaces the registry file with a new one holding only the live entries. The new
// file is locked and complete before the old one is removed, so a sweeper never sees a live
// entry unprotected.
func (r *Registry) compact() {
	f, path, err := create(r.dir)
	if err == nil {
		var buf []byte
		for p := range r.live {
			buf = record(buf, opAdd, p)
		}
		if _, err = f.Write(buf); err == nil {
			// The old file stays locked until it is gone: a file that outlived its lock
			// would list live entries to a sweeper of another pid namespace.
			err = os.Remove(r.path)
		}
		if err != nil {
			_ = os.Remove(path)
			_ = f.Close()
		}
	}
	if err != nil {
		r.records = 1 // try again after another compactEvery records
		r.log.Warn("cannot compact the staging registry", zap.String("registry", r.path), zap.Error(err))
		return
	}
	_ = r.f.Close()
	r.f, r.path, r.records = f, path, 1+len(r.live)
}

// create makes a registry file of this process in dir, locked and holding the host record.
func create(dir string) (*os.File, string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", err
	}
	var err error
	for range 4 {
		path := filepath.Join(dir, strconv.Itoa(os.Getpid())+"."+RandomUUID()+fileSuffix)
		var f *os.File
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
		if err != nil {
			return nil, "", err
		}
		// A sweeper of another pid namespace may have taken the lock or removed the name
		// between the create and the lock: start over with a new name.
		if err = flock(f); err == nil && linked(f, path) {
			if _, err = f.Write(record(nil, opHost, hostname)); err == nil {
				return f, path, nil
			}
		}
		_ = f.Close()
		if err == nil {
			err = errors.New("registry file was removed while it was created")
		}
	}
	return nil, "", err
}

func record(buf []byte, op byte, s string) []byte {
	buf = append(buf, op)
	buf = append(buf, s...)
	return append(buf, 0)
}

// flock takes f's exclusive lock without waiting.
func flock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// linked reports whether path still names the file f.
func linked(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// hostname is this host's name ("" when unknown).
var hostname = func() string {
	h, _ := os.Hostname()
	return h
}()
