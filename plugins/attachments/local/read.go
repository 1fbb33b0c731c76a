package attachmentlocal

import (
	"context"
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

// errNotRegular refuses a non-regular object (directory, FIFO, device).
var errNotRegular = errors.New("not a regular file")

// readRegular reads a whole regular file, opened without blocking (a FIFO
// in its place cannot hang the call) and checked on the descriptor, in
// chunks with ctx checked between them. A cancelled ctx returns
// context.Cause(ctx).
func readRegular(ctx context.Context, path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	size := info.Size()
	buf := make([]byte, 0, size+1)
	for {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), len(buf)+readChunk)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// read is the verified read of spec 1.10: id shape, object read (missing is
// ATTACHMENT_NOT_FOUND, any other failure ATTACHMENT_READ_FAILED), digest
// (ATTACHMENT_CORRUPT), header-only probe (INVALID_IMAGE when it fails) and
// facts against ref (ATTACHMENT_CORRUPT). Admission limits are not
// re-applied and pixels are never decoded. name and originalDimensions are
// not checked. Cancellation returns context.Cause(ctx) at every checkpoint.
func (s *Store) read(ctx context.Context, ref attachments.ImageRef) (attachments.StoredImage, error) {
	if ctx.Err() != nil {
		return attachments.StoredImage{}, context.Cause(ctx)
	}
	h, err := hashOf(ref.AttachmentID)
	if err != nil {
		return attachments.StoredImage{}, err
	}
	data, err := readRegular(ctx, objectPath(s.root, h))
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
	if digestHex(data) != h {
		return attachments.StoredImage{}, attachments.NewError(attachments.CodeAttachmentCorrupt, attachments.MsgDigestCorrupt, nil)
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
	return attachments.StoredImage{Ref: ref, Data: data}, nil
}
