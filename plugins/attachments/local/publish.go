package local

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// idPattern is the only accepted local id shape (lowercase hex only).
var idPattern = regexp.MustCompile(`^sha256:([a-f0-9]{64})$`)

// hashOf returns the 64-hex digest of a valid id, or INVALID_ATTACHMENT_REF.
func hashOf(id attachments.AttachmentID) (string, error) {
	m := idPattern.FindStringSubmatch(string(id))
	if m == nil {
		return "", attachments.InvalidRef()
	}
	return m[1], nil
}

// Layout names below the root (docs/attachments.md "Storage").
const (
	objectsDir  = "objects"
	stagingDir  = "tmp"
	requestsDir = "request-images"
)

// objectPath is objects/<h[0:2]>/<h> below root.
func objectPath(root, h string) string { return filepath.Join(root, objectsDir, h[:2], h) }

// newUUID returns a random lowercase version-4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// durableHomes memoizes, process-wide, the homes proven durable up to the
// filesystem root (docs/attachments.md "Storage").
var durableHomes struct {
	mu   sync.Mutex
	done map[string]bool
}

// syncDir makes a directory's entries durable: open read-only (without
// following a final symlink, never blocking on a FIFO) and fsync.
func (s *Store) syncDir(path string) error {
	if s.onSyncDir != nil {
		s.onSyncDir(path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ensureDurableDir creates dir (0700, recursively), chmods it 0700 and
// fsyncs every parent from dir's parent up to and including boundary. Levels
// that already existed are synced too: existence is not durability.
func (s *Store) ensureDurableDir(dir, boundary string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	for level := dir; level != boundary; {
		parent := filepath.Dir(level)
		if err := s.syncDir(parent); err != nil {
			return err
		}
		if parent == level {
			return nil
		}
		level = parent
	}
	return nil
}

// ensureDurableHome proves the home durable once per process: create it
// 0700, chmod 0700 and fsync every ancestor up to "/".
func (s *Store) ensureDurableHome() error {
	durableHomes.mu.Lock()
	defer durableHomes.mu.Unlock()
	if durableHomes.done[s.home] {
		return nil
	}
	if err := s.ensureDurableDir(s.home, string(filepath.Separator)); err != nil {
		return err
	}
	if durableHomes.done == nil {
		durableHomes.done = map[string]bool{}
	}
	durableHomes.done[s.home] = true
	return nil
}

// commit is the publication protocol (docs/attachments.md "Storage"): the
// prepared bytes are written to tmp/<uuid> (exclusive create, 0600, fsync),
// hard-linked to objects/<h[0:2]>/<h> (an existing object must hash to h: a
// dedup hit), the bucket and objects directories are fsynced, and the staging
// file is removed. No partial object is ever visible under its final name.
// Every failure that is not an *attachments.Error is ATTACHMENT_WRITE_FAILED
// "Unable to persist image attachment." with the cause chained (mkdir/chmod
// failures of the directory walk too, so no host path leaks).
//
// The object stays pinned (never evicted) until the returned unpin runs;
// after publication the size budget is enforced (index.go).
func (s *Store) commit(p prepared) (attachments.ImageRef, func(), error) {
	h, err := hashOf(p.ref.AttachmentID)
	if err != nil {
		return attachments.ImageRef{}, nil, err
	}
	if digestHex(p.data) != h || len(p.data) != p.ref.Bytes {
		return attachments.ImageRef{}, nil, attachments.NewError(attachments.CodeAttachmentCorrupt, attachments.MsgPreparedCorrupt, nil)
	}
	unpin := s.index.pin(h)
	ref, err := s.publishPinned(p, h)
	if err != nil {
		unpin()
		return attachments.ImageRef{}, nil, err
	}
	return ref, unpin, nil
}

// publishPinned is the publication of commit, h pinned.
func (s *Store) publishPinned(p prepared, h string) (attachments.ImageRef, error) {
	objects := filepath.Join(s.root, objectsDir)
	bucket := filepath.Join(objects, h[:2])
	staging := filepath.Join(s.root, stagingDir)
	if err := s.ensureDurableHome(); err != nil {
		return attachments.ImageRef{}, attachments.WriteFailed(err)
	}
	if err := s.ensureDurableDir(bucket, s.home); err != nil {
		return attachments.ImageRef{}, attachments.WriteFailed(err)
	}
	if err := s.ensureDurableDir(staging, s.home); err != nil {
		return attachments.ImageRef{}, attachments.WriteFailed(err)
	}
	tmp := filepath.Join(staging, newUUID())
	dedup, err := s.publish(tmp, objectPath(s.root, h), h, p.data)
	if err != nil {
		if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		var ae *attachments.Error
		if errors.As(err, &ae) {
			return attachments.ImageRef{}, ae
		}
		return attachments.ImageRef{}, attachments.WriteFailed(err)
	}
	s.index.committed(h, int64(len(p.data)), dedup)
	return p.ref, nil
}

// publish links the staged file to its object name and fsyncs the
// directories; dedup reports that the object already existed.
func (s *Store) publish(tmp, target, h string, data []byte) (dedup bool, err error) {
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false, err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return false, err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	if s.beforeLink != nil {
		s.beforeLink(tmp)
	}
	if err := os.Link(tmp, target); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return false, err
		}
		_, existing, _, rerr := readObject(context.Background(), target, 0)
		if rerr != nil {
			return false, rerr
		}
		if existing != h {
			return false, attachments.NewError(attachments.CodeAttachmentCorrupt, attachments.MsgDigestCorrupt, nil)
		}
		dedup = true
	}
	if err := s.syncDir(filepath.Dir(target)); err != nil {
		return false, err
	}
	if err := s.syncDir(filepath.Dir(filepath.Dir(target))); err != nil {
		return false, err
	}
	return dedup, os.Remove(tmp)
}
