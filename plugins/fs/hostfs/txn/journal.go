package txn

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
)

// The operation kinds of a plan.
const (
	OpPut    = "put"    // rename (or link, when NoReplace) Staged onto Target
	OpDelete = "delete" // remove Target
)

// FileID identifies a file as it is: device, inode and status-change time (an inode number is
// reused as soon as a file is removed; the change time tells the new file from the old).
type FileID struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Ctime int64  `json:"ctime"`
}

// Op is one step of a plan. Pre is the identity of Target when the plan was made (nil: absent).
type Op struct {
	Kind      string  `json:"op"`
	Target    string  `json:"target"`
	Staged    string  `json:"staged,omitempty"`
	Dir       string  `json:"dir,omitempty"` // the staging directory holding Staged
	NoReplace bool    `json:"noReplace,omitempty"`
	Pre       *FileID `json:"pre,omitempty"`
}

const (
	suffix        = ".journal"
	publishRecord = `"publish"`
	maxJournal    = 64 << 20
)

// Journal is one change set's journal, held by this process.
type Journal struct {
	f    *os.File
	path string
	dir  string
}

// IDOf returns the identity of path without following a final symlink; nil when absent.
func IDOf(path string) (*FileID, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil, nil
		}
		return nil, err
	}
	return &FileID{Dev: uint64(st.Dev), Ino: st.Ino, Ctime: st.Ctim.Nano()}, nil //nolint:unconvert // Dev is 32-bit on some platforms
}

// Begin creates a journal in dir holding ops, locked and durable (the file and dir fsynced). An
// empty dir journals nothing: the returned nil *Journal accepts every call.
func Begin(dir string, ops []Op) (*Journal, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, strconv.Itoa(os.Getpid())+"."+staging.RandomUUID()+suffix)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	j := &Journal{f: f, path: path, dir: dir}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		j.Done()
		return nil, err
	}
	plan, err := json.Marshal(struct {
		Ops []Op `json:"ops"`
	}{ops})
	if err != nil {
		j.Done()
		return nil, err
	}
	if err := j.append(plan); err != nil {
		j.Done()
		return nil, err
	}
	syncDir(dir)
	return j, nil
}

// Publishing records that publication starts; once it returns, a crash is rolled forward.
func (j *Journal) Publishing() error {
	if j == nil {
		return nil
	}
	return j.append([]byte(publishRecord))
}

func (j *Journal) append(rec []byte) error {
	if _, err := j.f.Write(append(rec, '\n')); err != nil {
		return err
	}
	return j.f.Sync()
}

// Done removes the journal: the set is complete (or nothing of it was published).
func (j *Journal) Done() {
	if j == nil {
		return
	}
	_ = os.Remove(j.path)
	_ = j.f.Close()
}

// Release lets go of the journal without removing it: a publication that failed part way is
// left for the next start to finish.
func (j *Journal) Release() {
	if j != nil {
		_ = j.f.Close()
	}
}

// recovered remembers the journal directories this process has recovered.
var recovered sync.Map

// RecoverOnce runs Recover on dir the first time this process asks for it.
func RecoverOnce(dir string, log *zap.Logger) {
	if dir == "" {
		return
	}
	if _, done := recovered.LoadOrStore(dir, true); !done {
		Recover(dir, log)
	}
}

// Recover finishes or undoes every change set in dir whose process is gone, and reports how many
// it rolled forward and back. Failures are logged, never returned: recovery must not keep a
// provider from starting.
func Recover(dir string, log *zap.Logger) (forward, back int) {
	if log == nil {
		log = zap.NewNop()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			log.Warn("cannot read the change-set journals", zap.String("dir", dir), zap.Error(err))
		}
		return 0, 0
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		switch recoverFile(filepath.Join(dir, e.Name()), log) {
		case rolledForward:
			forward++
		case rolledBack:
			back++
		}
	}
	return forward, back
}

type outcome int

const (
	skipped outcome = iota
	rolledForward
	rolledBack
)

// recoverFile recovers one journal whose lock it can take.
func recoverFile(path string, log *zap.Logger) outcome {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return skipped
	}
	defer f.Close()
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return skipped // its process is alive
	}
	data, err := io.ReadAll(io.LimitReader(f, maxJournal))
	if err != nil {
		return skipped
	}
	ops, publish, ok := parse(data)
	result := rolledBack
	switch {
	case !ok:
		// The plan record is incomplete: nothing was staged yet.
	case publish:
		for _, op := range ops {
			redo(op, log)
		}
		result = rolledForward
	}
	for _, op := range ops {
		if op.Dir != "" {
			_ = os.RemoveAll(op.Dir)
			syncDir(filepath.Dir(op.Dir))
		}
	}
	_ = os.Remove(path)
	syncDir(filepath.Dir(path))
	log.Info("recovered an interrupted change set", zap.String("journal", path), zap.Bool("rolledForward", result == rolledForward), zap.Int("files", len(ops)))
	return result
}

// parse reads the plan and whether the publish record follows it; ok is false when the plan
// record is not complete.
func parse(data []byte) (ops []Op, publish, ok bool) {
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found {
		return nil, false, false
	}
	var plan struct {
		Ops []Op `json:"ops"`
	}
	if json.Unmarshal(first, &plan) != nil {
		return nil, false, false
	}
	second, _, found := bytes.Cut(rest, []byte("\n"))
	return plan.Ops, found && string(second) == publishRecord, true
}

// redo performs op where it has not happened and the file is still as the set left it.
func redo(op Op, log *zap.Logger) {
	cur, err := IDOf(op.Target)
	if err != nil {
		log.Warn("cannot inspect a file of an interrupted change set", zap.String("path", op.Target), zap.Error(err))
		return
	}
	switch op.Kind {
	case OpDelete:
		if cur != nil && op.Pre != nil && *cur == *op.Pre {
			if err := os.Remove(op.Target); err != nil {
				log.Warn("cannot finish a delete of an interrupted change set", zap.String("path", op.Target), zap.Error(err))
			}
			syncDir(filepath.Dir(op.Target))
		}
	case OpPut:
		staged, err := IDOf(op.Staged)
		if err != nil || staged == nil {
			return // published by rename already
		}
		if cur != nil && *cur == *staged {
			return // published by link already
		}
		if !sameID(cur, op.Pre) {
			log.Warn("a file of an interrupted change set changed since: left as it is", zap.String("path", op.Target))
			return
		}
		if err := os.Rename(op.Staged, op.Target); err != nil {
			log.Warn("cannot finish a file of an interrupted change set", zap.String("path", op.Target), zap.Error(err))
		}
		syncDir(filepath.Dir(op.Target))
	}
}

func sameID(a, b *FileID) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// syncDir fsyncs a directory (failures ignored: some filesystems refuse it).
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
