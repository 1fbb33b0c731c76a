package history

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// pendingBlob is prior content staged for a record: hashed, and written and fsynced to a temp
// file unless it is over the content cap (path "").
type pendingBlob struct {
	s      *boltStore
	digest string
	size   int64
	path   string // the temp file; "" when only the digest is kept, or once published
	data   []byte // the content, when it is small enough to keep in the database
}

const tempPrefix = "tmp-"

// inMemory is prior content the caller already holds (Known): read as any reader, but stage
// takes its bytes without a copy, and its digest when the caller knows it.
type inMemory struct {
	*bytes.Reader
	data   []byte
	digest string // "" when unknown
}

// Known returns data as content for Add, digest (sha256, hex) being its digest when the caller
// already computed it over these very bytes ("": unknown, Add hashes them). data must not change
// afterwards: the store keeps it without a copy (a journaled record's content until its fold).
func Known(data []byte, digest string) io.Reader {
	return &inMemory{Reader: bytes.NewReader(data), data: data, digest: digest}
}

// stage reads content whole: into a temp file under blobs/ (fsynced) when it fits the cap,
// otherwise into the hash only.
func (s *boltStore) stage(content io.Reader, hint int64) (*pendingBlob, error) {
	h := sha256.New()
	b := &pendingBlob{s: s}
	if s.limits.MaxContentBytes > 0 && hint > s.limits.MaxContentBytes {
		n, err := io.Copy(h, content)
		if err != nil {
			return nil, fmt.Errorf("history: reading the prior content: %w", err)
		}
		b.size, b.digest = n, hex.EncodeToString(h.Sum(nil))
		return b, nil
	}
	if m, ok := content.(*inMemory); ok && len(m.data) <= InlineMaxBytes {
		b.size, b.digest, b.data = int64(len(m.data)), m.digest, m.data
		if b.digest == "" {
			sum := sha256.Sum256(m.data)
			b.digest = hex.EncodeToString(sum[:])
		}
		if s.limits.MaxContentBytes > 0 && b.size > s.limits.MaxContentBytes {
			b.data = nil // by reference only
		}
		return b, nil
	}
	if hint <= InlineMaxBytes {
		data, err := io.ReadAll(io.LimitReader(content, InlineMaxBytes+1))
		if err != nil {
			return nil, fmt.Errorf("history: reading the prior content: %w", err)
		}
		if len(data) <= InlineMaxBytes {
			sum := sha256.Sum256(data)
			b.size, b.digest, b.data = int64(len(data)), hex.EncodeToString(sum[:]), data
			if s.limits.MaxContentBytes > 0 && b.size > s.limits.MaxContentBytes {
				b.data = nil // by reference only
			}
			return b, nil
		}
		content = io.MultiReader(bytes.NewReader(data), content) // grew: a file after all
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, "blobs"), tempPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	b.path = f.Name()
	n, err := copyCapped(f, h, content, s.limits.MaxContentBytes)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.discard()
		return nil, fmt.Errorf("history: staging the prior content: %w", err)
	}
	b.size, b.digest = n, hex.EncodeToString(h.Sum(nil))
	if s.limits.MaxContentBytes > 0 && n > s.limits.MaxContentBytes {
		b.discard() // grew past the cap: by reference only
	}
	return b, nil
}

// copyCapped copies src to f and h; past limit bytes (limit > 0) only to h.
func copyCapped(f *os.File, h hash.Hash, src io.Reader, limit int64) (int64, error) {
	if limit <= 0 {
		return io.Copy(io.MultiWriter(f, h), src)
	}
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(src, limit+1))
	if err != nil || n <= limit {
		return n, err
	}
	m, err := io.Copy(h, src)
	return n + m, err
}

// publish moves the staged file to its content address and makes the rename durable.
func (b *pendingBlob) publish() error {
	dst := b.s.blobPath(b.digest)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	if err := os.Rename(b.path, dst); err != nil {
		return err
	}
	b.path = ""
	return syncDir(filepath.Dir(dst))
}

func (b *pendingBlob) discard() {
	if b.path != "" {
		os.Remove(b.path)
		b.path = ""
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func (s *boltStore) blobPath(digest string) string {
	return filepath.Join(s.dir, "blobs", digest[:2], digest)
}

func (s *boltStore) Content(r Record) ([]byte, error) {
	if !r.Kept || len(r.Digest) < 2 {
		return nil, fmt.Errorf("%w: change %s kept no content", ErrContentLost, r.ID)
	}
	data, err := s.inline(r.Digest)
	if err == nil && data == nil {
		data, err = readRegular(s.blobPath(r.Digest))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrContentLost, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != r.Digest {
		return nil, fmt.Errorf("%w: content of change %s does not match its digest", ErrContentLost, r.ID)
	}
	return data, nil
}

// sweepFiles removes the temp files and the content files no entry names; it runs with the
// database held, so no write is in flight.
func (s *boltStore) sweepFiles(known map[string]bool) error {
	root := filepath.Join(s.dir, "blobs")
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, tempPrefix) || !known[name] {
			os.Remove(path)
		}
		return nil
	})
}

// diskBytes is the size of the store's files.
func diskBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// readRegular reads a content file, refusing (without blocking) anything but a regular file of
// this user.
func readRegular(path string) ([]byte, error) {
	f, err := statedir.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
