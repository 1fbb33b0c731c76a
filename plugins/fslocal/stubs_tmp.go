package fslocal

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Temporary stubs until write.go / edit.go land; the write helper deletes this
// file.

var errNotYet = errors.New("fs-local: not implemented yet")

// WriteText is a temporary stub.
func (p *Provider) WriteText(ctx context.Context, t fs.Target, content string, intent *fs.WriteIntent, sandbox *fs.SandboxPolicy) (fs.WriteOutcome, error) {
	return fs.WriteOutcome{}, errNotYet
}

// EditText is a temporary stub.
func (p *Provider) EditText(ctx context.Context, t fs.Target, edit fs.EditRequest, guard *fs.EditGuard, sandbox *fs.SandboxPolicy) (fs.EditOutcome, error) {
	return fs.EditOutcome{}, errNotYet
}
