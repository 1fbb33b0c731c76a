package fssandbox

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// ErrNoPolicy is returned by New without a policy service.
var ErrNoPolicy = errors.New("fs-sandbox: the sandbox policy service is missing")

// Provider is the confining filesystem provider. It implements fs.FileSystem
// (and fs.TextByteStreamer) with fs-local's mechanics (package hostfs) and
// fences WriteText and EditText by the per-call sandbox policy; reads are
// never fenced.
type Provider struct {
	local       *hostfs.Provider
	policy      sandbox.Policy
	defaultMode sandbox.Mode
	protected   []string
	// repositories: the ".git" entry is protected, and with it every nested
	// repository (see repository.go).
	repositories bool
	configs      configCache // git config files of protected repositories
	warned       sync.Map    // sandbox.IgnoredRoot already logged
	// readRoots remembers the readable roots of policies without temp roots (readableRoots).
	readRoots  sync.Map
	readRootsN atomic.Int64
	log        *zap.Logger
}

// New returns a Provider. cfg follows hostfs.New (a zero DiffBasisMaxBytes
// or MaxFileBytes means the default) and a nil ProtectedPaths means DefaultProtectedPaths.
// The policy service resolves agentless calls; its DefaultMode, read now, is
// the SandboxMode of the provider. A nil logger means zap.NewNop().
func New(cfg Config, policy sandbox.Policy, log *zap.Logger) (*Provider, error) {
	if policy == nil {
		return nil, ErrNoPolicy
	}
	if cfg.DiffBasisMaxBytes == 0 {
		cfg.DiffBasisMaxBytes = hostfs.DefaultDiffBasisMaxBytes
	}
	if cfg.MaxFileBytes == 0 {
		cfg.MaxFileBytes = hostfs.DefaultMaxFileBytes
	}
	if cfg.ProtectedPaths == nil {
		cfg.ProtectedPaths = DefaultProtectedPaths
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = zap.NewNop()
	}
	local, err := hostfs.New(cfg.local(), log)
	if err != nil {
		return nil, err
	}
	return &Provider{
		local:        local,
		policy:       policy,
		defaultMode:  policy.DefaultMode(),
		protected:    append([]string(nil), cfg.ProtectedPaths...),
		repositories: slices.ContainsFunc(cfg.ProtectedPaths, func(e string) bool { return sameName(e, ".git") }),
		log:          log,
	}, nil
}

var _ sandbox.Confiner = (*Provider)(nil)

// SandboxMode implements sandbox.Confiner: the deployment default mode captured
// from the policy service when the provider was built, the capability fact the
// tool layer advertises escalation against, not the mode of any call.
func (p *Provider) SandboxMode() sandbox.Mode { return p.defaultMode }

// Cwd returns the default base directory for relative paths.
func (p *Provider) Cwd() string { return p.local.Cwd() }

// ProtectedPaths returns the protected paths in force.
func (p *Provider) ProtectedPaths() []string { return append([]string(nil), p.protected...) }

// WriteText implements fs.FileSystem: the fence (see fence) decides with the
// call's policy (sandbox.PolicyFrom(ctx); none: the policy service's agentless
// resolution), then the
// fs-local write runs on the target the fence returned, confined beneath the
// writable root that contains it under workspace-write.
func (p *Provider) WriteText(ctx context.Context, t fs.Target, content string, intent *fs.WriteIntent) (fs.WriteOutcome, error) {
	d, err := p.fence(ctx, t)
	if err != nil {
		return fs.WriteOutcome{}, fs.FromOS(fs.VerbWrite, t.DisplayPath, err)
	}
	if d.beneath == nil {
		return p.local.WriteText(ctx, d.target, content, intent)
	}
	return p.local.WriteTextBeneath(d.reading(ctx), d.target, content, intent, *d.beneath)
}

// EditText implements fs.FileSystem with the same fence as WriteText (the
// denial text says "write" for edits too).
func (p *Provider) EditText(ctx context.Context, t fs.Target, req fs.EditRequest, guard *fs.EditGuard) (fs.EditOutcome, error) {
	d, err := p.fence(ctx, t)
	if err != nil {
		return fs.EditOutcome{}, fs.FromOS(fs.VerbEdit, t.DisplayPath, err)
	}
	if d.beneath == nil {
		return p.local.EditText(ctx, d.target, req, guard)
	}
	return p.local.EditTextBeneath(d.reading(ctx), d.target, req, guard, *d.beneath)
}

var (
	_ fs.FileSystem       = (*Provider)(nil)
	_ fs.TextByteStreamer = (*Provider)(nil)
	_ fs.StatReader       = (*Provider)(nil)
	_ fs.Searcher         = (*Provider)(nil)
)

var _ fs.DiffBasisBounder = (*Provider)(nil)

// DiffBasisMaxBytes is the host provider's (the texts are its own).
func (p *Provider) DiffBasisMaxBytes() int64 { return p.local.DiffBasisMaxBytes() }
