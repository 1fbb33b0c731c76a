package local

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// readChunk is the read granularity between cancellation checks.
const readChunk = 1 << 20

// maxObjectRead is the largest object file that is read at all (2 GiB - 1):
// a larger file in an object's place fails as a read error instead of being
// hashed.
const maxObjectRead = 1<<31 - 1

// errNotRegular refuses a non-regular object (directory, FIFO, device).
var errNotRegular = errors.New("not a regular file")

// errObjectTooLarge refuses an object file larger than maxObjectRead.
var errObjectTooLarge = errors.New("object file too large to read")

// readObject reads a regular file, opened without blocking (a FIFO in its
// place cannot hang the call) and checked on the descriptor, in chunks with
// ctx checked between them. It hashes every byte it reads (the digest of
// exactly the returned content, so no later change to the file can slip
// between hash and data) but keeps at most keep bytes: complete is false
// when the file held more, and data is then nil. A file over maxObjectRead
// is not read (errObjectTooLarge); memory stays bounded by keep whatever
// the file's size. A cancelled ctx returns context.Cause(ctx).
func readObject(ctx context.Context, path string, keep int) (data []byte, digest string, complete bool, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, "", false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "", false, err
	}
	if !info.Mode().IsRegular() {
		return nil, "", false, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	if info.Size() > maxObjectRead {
		return nil, "", false, &fs.PathError{Op: "read", Path: path, Err: errObjectTooLarge}
	}
	keep = max(keep, 0)
	complete = info.Size() <= int64(keep)
	if complete {
		data = make([]byte, 0, info.Size())
	}
	h := sha256.New()
	chunk := make([]byte, min(readChunk, max(info.Size(), 511)+1))
	var total int64
	for {
		if ctx.Err() != nil {
			return nil, "", false, context.Cause(ctx)
		}
		n, err := f.Read(chunk)
		h.Write(chunk[:n])
		total += int64(n)
		if complete && total > int64(keep) {
			complete, data = false, nil // the file grew past keep
		}
		if complete {
			data = append(data, chunk[:n]...)
		}
		if total > maxObjectRead {
			return nil, "", false, &fs.PathError{Op: "read", Path: path, Err: errObjectTooLarge}
		}
		if err == io.EOF {
			return data, hex.EncodeToString(h.Sum(nil)), complete, nil
		}
		if err != nil {
			return nil, "", false, err
		}
	}
}

// read is the verified read (docs/attachments.md "Storage"): id shape, object
// read (missing is ATTACHMENT_NOT_FOUND, any other failure
// ATTACHMENT_READ_FAILED), digest (ATTACHMENT_CORRUPT), header-only probe
// (INVALID_IMAGE when it fails) and facts against ref (ATTACHMENT_CORRUPT).
// Admission limits are not re-applied and pixels are never decoded. name and
// originalDimensions are not checked. Cancellation returns context.Cause(ctx)
// at every checkpoint. The object is pinned while the read runs, and a
// verified read marks it used (its mtime and its place in the eviction
// order).
func (s *Store) read(ctx context.Context, ref attachments.ImageRef) (attachments.StoredImage, error) {
	if ctx.Err() != nil {
		return attachments.StoredImage{}, context.Cause(ctx)
	}
	h, err := hashOf(ref.AttachmentID)
	if err != nil {
		return attachments.StoredImage{}, err
	}
	// A read in progress keeps its object from eviction.
	defer s.index.pin(h)()
	if s.duringRead != nil {
		s.duringRead(h)
	}
	// Keep at most the bytes the ref claims: a larger file is corrupt or
	// mis-described either way, and is only hashed to tell which.
	data, digest, complete, err := readObject(ctx, objectPath(s.root, h), ref.Bytes)
	if err != nil {
		if ctx.Err() != nil {
			return attachments.StoredImage{}, context.Cause(ctx)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return attachments.StoredImage{}, attachments.NewError(attachments.CodeNotFound, attachments.MsgNotFound, nil)
		}
		return attachments.StoredImage{}, attachments.ReadFailed(err)
	}
	if ctx.Err() != nil {
		return attachments.StoredImage{}, context.Cause(ctx)
	}
	if digest != h {
		return attachments.StoredImage{}, attachments.NewError(attachments.CodeAttachmentCorrupt, attachments.MsgDigestCorrupt, nil)
	}
	if !complete {
		return attachments.StoredImage{}, attachments.NewError(attachments.CodeAttachmentCorrupt, attachments.MsgFactsCorrupt,
			fmt.Errorf("stored object is larger than the reference's %d bytes", ref.Bytes))
	}
	f, err := inspect(data)
	if err != nil {
		return attachments.StoredImage{}, err
	}
	if ctx.Err() != nil {
		return attachments.StoredImage{}, context.Cause(ctx)
	}
	if f.mediaType != ref.MediaType || len(data) != ref.Bytes || f.width != ref.Width || f.height != ref.Height {
		return attachments.StoredImage{}, attachments.NewError(attachments.CodeAttachmentCorrupt, attachments.MsgFactsCorrupt,
			fmt.Errorf("stored %s %dx%d %d bytes", f.mediaType, f.width, f.height, len(data)))
	}
	s.index.used(h, int64(len(data)))
	return attachments.StoredImage{Ref: ref, Data: data}, nil
}
