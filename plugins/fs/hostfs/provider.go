package hostfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/txn"
)

// Provider is the host filesystem provider. It implements fs.FileSystem.
// It never confines: it is no sandbox.Confiner, and a sandbox policy on a
// call's context is ignored.
type Provider struct {
	cwd               string
	diffBasisMaxBytes int64
	maxFileBytes      int64 // Config.MaxFileBytes
	log               *zap.Logger
	locks             lockTable
	dirLocks          lockTable
	registry          *staging.Registry // where mutations record their staging directories
	charsets          *charset.Resolver // Config.Encodings, then .editorconfig (charset.go)
	txnDir            *txn.Dir          // where change sets keep their journals (nil = none)
	publish           *PublishHook      // SetPublishHook; nil: nothing reported

	afterPreflight func(fs.Target) // test hook: runs after the stat preflight of ReadBytes and StatText
	hooks          *atomicHooks    // test hooks of the mutations' atomic publication
}

// New returns a Provider. A zero Cwd means the process working directory (a
// relative Cwd is made absolute against it); a zero DiffBasisMaxBytes or
// MaxFileBytes means the default. A nil logger means zap.NewNop(). The first provider of a process
// sweeps the staging residue that killed processes left (stagingRegistry) and finishes
// or undoes the change sets they were publishing (journalDir).
func New(cfg Config, log *zap.Logger) (*Provider, error) {
	if cfg.DiffBasisMaxBytes == 0 {
		cfg.DiffBasisMaxBytes = DefaultDiffBasisMaxBytes
	}
	if cfg.MaxFileBytes == 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cwd := cfg.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("fs-local: cannot determine the working directory: %w", err)
		}
		cwd = filepath.Join(wd, cwd)
	}
	if log == nil {
		log = zap.NewNop()
	}
	cwd = filepath.Clean(cwd)
	// A cwd that is not a directory would fail every call with "not found": refuse it at start,
	// naming it (docs/fs.md).
	if st, err := os.Stat(cwd); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("fs-local: cwd %s does not exist", cwd)
	} else if err != nil {
		return nil, fmt.Errorf("fs-local: cwd: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("fs-local: cwd %s is not a directory", cwd)
	}
	charsets, err := charset.NewResolver(cwd, cfg.Encodings)
	if err != nil {
		return nil, fmt.Errorf("fs-local: %w", err)
	}
	charsets.SetLogger(log)
	return &Provider{cwd: cwd, diffBasisMaxBytes: cfg.DiffBasisMaxBytes, maxFileBytes: cfg.MaxFileBytes, log: log, registry: stagingRegistry(log), charsets: charsets,
		txnDir: journalDir(cwd, log)}, nil
}

// Cwd returns the provider's default base directory for relative paths.
func (p *Provider) Cwd() string { return p.cwd }

var _ fs.FileSystem = (*Provider)(nil)

var _ fs.DiffBasisBounder = (*Provider)(nil)

var _ fs.StatReader = (*Provider)(nil)

// DiffBasisMaxBytes is Config.DiffBasisMaxBytes.
func (p *Provider) DiffBasisMaxBytes() int64 { return p.diffBasisMaxBytes }

// checkAbort returns FS_ABORTED "<verb> aborted" when ctx is done.
func checkAbort(ctx context.Context, verb string) error {
	if err := ctx.Err(); err != nil {
		return fs.Aborted(verb, context.Cause(ctx))
	}
	return nil
}

// ignoringEINTR retries fn while it fails with EINTR.
func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
