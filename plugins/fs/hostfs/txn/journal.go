package txn

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/statedir"
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
// MadeFrom is the existing ancestor below which the set creates Target's missing parents ("":
// none); a rolled-back set removes what it created there while it is empty.
type Op struct {
	Kind      string  `json:"op"`
	Target    string  `json:"target"`
	Staged    string  `json:"staged,omitempty"`
	Dir       string  `json:"dir,omitempty"` // the staging directory holding Staged
	NoReplace bool    `json:"noReplace,omitempty"`
	Pre       *FileID `json:"pre,omitempty"`
	MadeFrom  string  `json:"madeFrom,omitempty"`
}

const (
	suffix        = ".journal"
	refusedSuffix = ".refused"
	keyName       = "journal.key"
	keyBytes      = 32
	publishRecord = `"publish"`
	maxJournal    = 64 << 20
)

// Dir is a journal directory as one workspace uses it: the directory (private to this user), its
// secret key, and the workspace whose journals this process writes and recovers.
type Dir struct {
	path string
	ws   string
	key  []byte
}

// Open returns the journal directory path for the workspace ws: the directory is created 0700
// and refused unless it is this user's and no other user can write it; its key (journal.key,
// created 0600 with O_EXCL the first time) is read and refused unless it is a regular file of
// this user that no other user can read (docs/journal-threat-model.md).
func Open(path, ws string) (*Dir, error) {
	if err := statedir.EnsurePrivate(path); err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	key, err := loadKey(filepath.Join(path, keyName))
	if err != nil {
		return nil, err
	}
	return &Dir{path: path, ws: filepath.Clean(ws), key: key}, nil
}

// Path is the directory's path.
func (d *Dir) Path() string {
	if d == nil {
		return ""
	}
	return d.path
}

func loadKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if !errors.Is(err, os.ErrNotExist) {
		return key, err
	}
	// Made whole under a private name, then linked into place: a process never reads a key
	// another is still writing, and the first link wins.
	tmp := path + "." + staging.RandomUUID() + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	buf := make([]byte, keyBytes)
	_, _ = rand.Read(buf)
	_, err = f.Write(buf)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	syncDir(filepath.Dir(path))
	return readKey(path)
}

func readKey(path string) ([]byte, error) {
	f, err := statedir.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return nil, err
	}
	if err := statedir.CheckOwnFile(path, &st, 0o077); err != nil {
		return nil, err
	}
	key := make([]byte, keyBytes+1)
	n, _ := io.ReadFull(f, key)
	if n != keyBytes {
		return nil, fmt.Errorf("%s: %w: not a journal key (%d bytes)", path, statedir.ErrRefused, n)
	}
	return key[:keyBytes], nil
}

// Journal is one change set's journal, held by this process.
type Journal struct {
	f    *os.File
	path string
	dir  *Dir
	mac  string // the plan record's MAC
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

// plan is the first record of a journal: the workspace the set belongs to and its operations.
type plan struct {
	Workspace string `json:"ws"`
	Ops       []Op   `json:"ops"`
}

// mac authenticates a record of the journal named name: HMAC-SHA256 under the directory's key of
// the record's kind, the journal's name and its body.
func (d *Dir) mac(kind, name string, body []byte) string {
	h := hmac.New(sha256.New, d.key)
	h.Write([]byte(kind + "\x00" + name + "\x00"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// Begin creates a journal in d holding ops, locked and durable (the file and dir fsynced). A nil
// d journals nothing: the returned nil *Journal accepts every call.
func (d *Dir) Begin(ops []Op) (*Journal, error) {
	if d == nil {
		return nil, nil
	}
	name := strconv.Itoa(os.Getpid()) + "." + staging.RandomUUID() + suffix
	path := filepath.Join(d.path, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	j := &Journal{f: f, path: path, dir: d}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		j.Done()
		return nil, err
	}
	body, err := json.Marshal(plan{Workspace: d.ws, Ops: ops})
	if err != nil {
		j.Done()
		return nil, err
	}
	j.mac = d.mac("plan", name, body)
	if err := j.append(j.mac, body); err != nil {
		j.Done()
		return nil, err
	}
	syncDir(d.path)
	return j, nil
}

// Publishing records that publication starts; once it returns, a crash is rolled forward.
func (j *Journal) Publishing() error {
	if j == nil {
		return nil
	}
	return j.append(j.dir.mac("publish", filepath.Base(j.path), []byte(j.mac)), []byte(publishRecord))
}

func (j *Journal) append(mac string, body []byte) error {
	rec := append([]byte(mac+" "), body...)
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

// recovered remembers the journal directories and workspaces this process has recovered.
var recovered sync.Map

// RecoverOnce runs d.Recover the first time this process asks for it for d's directory and
// workspace.
func RecoverOnce(d *Dir, log *zap.Logger) {
	if d == nil {
		return
	}
	if _, done := recovered.LoadOrStore(d.path+"\x00"+d.ws, true); !done {
		d.Recover(log)
	}
}

// Recover finishes or undoes every change set of d's workspace whose process is gone, and
// reports how many it rolled forward and back. A journal of another workspace is left to it; a
// journal Cordon did not write for this directory is set aside, never run
// (docs/journal-threat-model.md). Failures are logged, never returned: recovery must not keep a
// provider from starting.
func (d *Dir) Recover(log *zap.Logger) (forward, back int) {
	if d == nil {
		return 0, 0
	}
	if log == nil {
		log = zap.NewNop()
	}
	entries, err := os.ReadDir(d.path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			log.Warn("cannot read the change-set journals", zap.String("dir", d.path), zap.Error(err))
		}
		return 0, 0
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		switch d.recoverFile(e.Name(), log) {
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

// refuse sets a journal aside under a name recovery never reads again, and logs why.
func (d *Dir) refuse(name string, why error, log *zap.Logger) outcome {
	path := filepath.Join(d.path, name)
	aside := path + "." + staging.RandomUUID() + refusedSuffix
	if err := os.Rename(path, aside); err != nil {
		log.Warn("refused a change-set journal Cordon did not write; it could not be set aside", zap.String("journal", path), zap.NamedError("reason", why), zap.Error(err))
		return skipped
	}
	syncDir(d.path)
	log.Warn("refused a change-set journal Cordon did not write: set aside, not run", zap.String("journal", path), zap.String("asideAs", aside), zap.NamedError("reason", why))
	return skipped
}

// recoverFile recovers one journal whose lock it can take.
func (d *Dir) recoverFile(name string, log *zap.Logger) outcome {
	path := filepath.Join(d.path, name)
	f, err := statedir.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, statedir.ErrRefused) {
			return d.refuse(name, err, log)
		}
		return skipped
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return skipped
	}
	if err := statedir.CheckOwnFile(path, &st, 0o077); err != nil {
		return d.refuse(name, err, log)
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return skipped // its process is alive
	}
	data, err := io.ReadAll(io.LimitReader(f, maxJournal))
	if err != nil {
		return skipped
	}
	p, publish, complete, err := d.parse(name, data)
	if err != nil {
		return d.refuse(name, err, log)
	}
	if complete && p.Workspace != d.ws {
		return skipped // another workspace's: its next start recovers it
	}
	result := rolledBack
	switch {
	case !complete:
		// The plan record is incomplete: nothing was staged yet.
	case publish:
		for _, op := range p.Ops {
			redo(op, log)
		}
		result = rolledForward
	}
	for _, op := range p.Ops {
		if op.Dir != "" && ownDir(op.Dir) {
			_ = os.RemoveAll(op.Dir)
			syncDir(filepath.Dir(op.Dir))
		}
	}
	if result == rolledBack {
		for _, op := range p.Ops {
			removeMadeDirs(filepath.Dir(op.Target), op.MadeFrom)
		}
	}
	_ = os.Remove(path)
	syncDir(d.path)
	log.Info("recovered an interrupted change set", zap.String("journal", path), zap.Bool("rolledForward", result == rolledForward), zap.Int("files", len(p.Ops)))
	return result
}

// parse authenticates and reads a journal named name: its plan, whether an authentic publish
// record follows it, and whether the plan record is complete (a torn last line is what a crash
// while writing it leaves). An error means Cordon did not write it for this workspace's use.
func (d *Dir) parse(name string, data []byte) (p plan, publish, complete bool, err error) {
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found {
		return p, false, false, nil // torn: nothing is run from it, it is only removed
	}
	mac, body, _ := bytes.Cut(first, []byte(" "))
	if !d.authentic("plan", name, first) {
		return p, false, false, errors.New("its plan record is not authentic")
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return p, false, false, err
	}
	if p.Workspace == d.ws {
		if err := confine(p, pidOf(name)); err != nil {
			return p, false, false, err
		}
	}
	second, _, found := bytes.Cut(rest, []byte("\n"))
	if found {
		smac, sbody, _ := bytes.Cut(second, []byte(" "))
		publish = string(sbody) == publishRecord && hmac.Equal(smac, []byte(d.mac("publish", name, mac)))
	}
	return p, publish, true, nil
}

// authentic reports whether rec ("<mac> <body>") carries the MAC of its body.
func (d *Dir) authentic(kind, name string, rec []byte) bool {
	mac, body, ok := bytes.Cut(rec, []byte(" "))
	return ok && hmac.Equal(mac, []byte(d.mac(kind, name, body)))
}

func pidOf(name string) int {
	pid, _ := strconv.Atoi(strings.SplitN(name, ".", 2)[0])
	return pid
}

// confine refuses a plan any of whose paths is not where a set of this workspace, written by
// process pid, puts it: every target beneath the workspace; every staging directory one of
// pid's, beside its target and named after it, holding the staged file under its own name; every
// MadeFrom the workspace or beneath it, and above the target.
func confine(p plan, pid int) error {
	ws := p.Workspace
	if !filepath.IsAbs(ws) || filepath.Clean(ws) != ws {
		return fmt.Errorf("workspace %q is not a clean absolute path", ws)
	}
	for _, op := range p.Ops {
		t := op.Target
		if filepath.Clean(t) != t || !beneath(ws, t) {
			return fmt.Errorf("target %q is not beneath the workspace %q", t, ws)
		}
		switch op.Kind {
		case OpDelete:
			if op.Dir != "" || op.Staged != "" {
				return fmt.Errorf("delete of %q names a staging path", t)
			}
		case OpPut:
			base := staging.Base(filepath.Base(t))
			name := filepath.Base(op.Dir)
			owner, ok := staging.OwnerPID(name)
			if !ok || owner != pid || filepath.Dir(op.Dir) != filepath.Dir(t) || !strings.HasPrefix(name, "."+base+".") ||
				op.Staged != filepath.Join(op.Dir, base+".tmp") {
				return fmt.Errorf("put of %q names a staging path that is not its own (%q, %q)", t, op.Dir, op.Staged)
			}
		default:
			return fmt.Errorf("unknown operation %q", op.Kind)
		}
		if m := op.MadeFrom; m != "" && (filepath.Clean(m) != m || (m != ws && !beneath(ws, m)) || !beneath(m, filepath.Dir(t)) && m != filepath.Dir(t)) {
			return fmt.Errorf("directories made from %q are not beneath the workspace above %q", m, t)
		}
	}
	return nil
}

// beneath reports whether p is strictly beneath dir.
func beneath(dir, p string) bool {
	if dir == "/" {
		return p != "/" && strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+"/")
}

// ownDir reports whether p is a directory (not a symlink) of this user.
func ownDir(p string) bool {
	var st unix.Stat_t
	return unix.Lstat(p, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR && int(st.Uid) == os.Geteuid()
}

// ownFile reports whether p is a regular file (not a symlink) of this user.
func ownFile(p string) bool {
	var st unix.Stat_t
	return unix.Lstat(p, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG && int(st.Uid) == os.Geteuid()
}

// removeMadeDirs removes dir and its parents up to (not including) from while they are empty.
func removeMadeDirs(dir, from string) {
	if from == "" {
		return
	}
	for d := dir; d != from && beneath(from, d); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
		syncDir(filepath.Dir(d))
	}
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
		if !ownFile(op.Staged) || !ownDir(op.Dir) {
			log.Warn("a staged file of an interrupted change set is not this user's: left as it is", zap.String("path", op.Staged))
			return
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
