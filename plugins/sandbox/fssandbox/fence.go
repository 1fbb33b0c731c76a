package fssandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// ErrProtectedPath is wrapped by the cause of a denial of a path inside a
// writable root that a protected path covers.
var ErrProtectedPath = errors.New("fs-sandbox: protected path")

// Denied is the provider's refusal (docs/sandbox.md "Protected paths"), FS_SANDBOX_DENIED
// `cannot write "<p>": file access denied under <mode> mode`; the verb is
// "write" for edits too.
func Denied(displayPath string, mode sandbox.Mode, cause error) *fs.Error {
	return fs.NewError(fs.CodeSandboxDenied,
		`cannot write "`+displayPath+`": file access denied under `+string(mode)+" mode", cause)
}

// decision is what the fence lets a mutation do: the target to mutate and,
// under workspace-write, the root its directory operations stay beneath.
type decision struct {
	target  fs.Target
	beneath *hostfs.Beneath
	// confineReads: the policy confines reads, so the mutation's own reads
	// (the probe's open, the diff basis, the content of an edit) happen
	// beneath the same root (reading).
	confineReads bool
}

// reading returns ctx confining the mutation's own reads beneath its root
// when the policy confines reads.
func (d decision) reading(ctx context.Context) context.Context {
	if !d.confineReads || d.beneath == nil {
		return ctx
	}
	return hostfs.WithReadBeneath(ctx, hostfs.ReadBeneath{Root: d.beneath.Root, Deny: d.beneath.Deny})
}

// fence decides one mutation (docs/sandbox.md "Modes and the policy"):
//
//  1. the policy is the call's (sandbox.PolicyFrom its context), else the policy service's agentless
//     resolution (deployment default mode, configured root), taken now;
//  2. danger-full-access: the caller's target, unchanged and unconfined;
//  3. read-only: denied before any I/O;
//  4. workspace-write: the display path is resolved again now (the caller's
//     key is ignored) and the fresh key must be a writable root or lie
//     beneath one (sandbox.UnderRoot, first root wins); a key that a
//     protected path, a repository, or a path a governing repository's git
//     config names covers is denied; the mutation then runs on the fresh
//     target, confined beneath the containing root, so a component swapped
//     for a symlink after this check is denied too.
//
// Any other mode is denied. No denial has a filesystem side effect. A root
// that cannot be examined (UnderRoot's stat error) fails the mutation (coded
// by the caller), never as contained.
func (p *Provider) fence(ctx context.Context, t fs.Target) (decision, error) {
	pol := p.policyOf(sandbox.PolicyFrom(ctx))
	switch pol.Mode {
	case sandbox.DangerFullAccess:
		return decision{target: t}, nil
	case sandbox.ReadOnly:
		return decision{}, p.deny(t, pol.Mode, nil)
	case sandbox.WorkspaceWrite:
	default:
		return decision{}, p.deny(t, pol.Mode, nil)
	}
	// The re-resolution is part of the fence, not a checkpoint of its own: a
	// cancelled call fails in the mutation, with fs-local's verb.
	fresh, err := p.local.Resolve(context.WithoutCancel(ctx), t.DisplayPath, fs.ResolveOptions{})
	if err != nil {
		return decision{}, err
	}
	key := string(fresh.Key)
	roots, ignored := sandbox.WritableRoots(pol)
	p.warnIgnored(ignored)
	anchor := ""
	for _, root := range roots {
		a, ok, err := sandbox.UnderRoot(key, root, true)
		if err != nil {
			return decision{}, err
		}
		if ok {
			anchor = a
			break
		}
	}
	if anchor == "" {
		return decision{}, p.deny(t, pol.Mode, nil)
	}
	bases := protectedBases(anchor, roots, pol.WorkspaceRoot)
	if covered := p.protectedBy(key, anchor, bases); covered != "" {
		return decision{}, p.deny(t, pol.Mode, fmt.Errorf("%w: %s", ErrProtectedPath, covered))
	}
	var named []namedPath
	if p.repositories {
		if covered := repositoryBy(key, anchor); covered != "" {
			return decision{}, p.deny(t, pol.Mode, fmt.Errorf("%w: %s (a git repository)", ErrProtectedPath, covered))
		}
		named = p.configNames(repositories(key, anchor, bases, pol.WorkspaceRoot))
		if n := p.namedBy(key, anchor, named); n != nil {
			return decision{}, p.deny(t, pol.Mode, fmt.Errorf("%w: %s (%s in %s)", ErrProtectedPath, n.path, n.setting, n.file))
		}
	}
	display := t.DisplayPath
	b := &hostfs.Beneath{
		Root: anchor,
		Deny: func(cause error) error {
			switch {
			case errors.Is(cause, ErrProtectedPath):
				p.log.Warn("confined write refused on its held directories: it would add to or make a git repository",
					zap.String("path", display), zap.Error(cause))
				return Denied(display, sandbox.WorkspaceWrite, cause)
			case errors.Is(cause, hostfs.ErrForbidden):
				p.log.Warn("confined write refused at publication: its directory became a protected one after the check",
					zap.String("path", display), zap.Error(cause))
				return Denied(display, sandbox.WorkspaceWrite, fmt.Errorf("%w: %w", ErrProtectedPath, cause))
			}
			p.log.Warn("confined write refused at the syscall (a symlink beneath the root, or a directory moved out of it, after the check)",
				zap.String("path", display), zap.Error(cause))
			return Denied(display, sandbox.WorkspaceWrite, cause)
		},
		Forbidden: func() []os.FileInfo { return append(p.protectedEntries(bases), namedDirs(named)...) },
	}
	if p.repositories {
		b.Adding, b.Holding = addingRepository, holdingRepository
	}
	return decision{target: fresh, beneath: b, confineReads: pol.ConfineReads}, nil
}

// policyOf returns the call's policy, else the agentless resolution.
func (p *Provider) policyOf(policy *sandbox.CallPolicy) sandbox.CallPolicy {
	if policy != nil {
		return *policy
	}
	return p.policy.Resolve(nil, "")
}

// deny builds the refusal of t under mode.
func (p *Provider) deny(t fs.Target, mode sandbox.Mode, cause error) error {
	p.log.Debug("sandbox denied a mutation", zap.String("path", t.DisplayPath), zap.String("mode", string(mode)), zap.Error(cause))
	if mode != sandbox.ReadOnly && mode != sandbox.WorkspaceWrite {
		return fs.NewError(fs.CodeSandboxDenied, `cannot write "`+t.DisplayPath+`": file access denied under unknown sandbox mode `+strconv.Quote(string(mode)), cause)
	}
	return Denied(t.DisplayPath, mode, cause)
}

// warnIgnored logs one warning for each unsafe temp root the provider has not
// warned about yet.
func (p *Provider) warnIgnored(ignored []sandbox.IgnoredRoot) {
	for _, r := range ignored {
		if _, seen := p.warned.LoadOrStore(r, struct{}{}); !seen {
			p.log.Warn("ignoring an unsafe temp root: it would make the files it holds writable under workspace-write",
				zap.String("variable", r.Source), zap.String("path", r.Path), zap.String("reason", r.Reason))
		}
	}
}

// ClassifyPath implements sandbox.PathClassifier with the fence itself, run under policy as if its
// mode were workspace-write: no mutation follows, so nothing on disk changes.
func (p *Provider) ClassifyPath(ctx context.Context, t fs.Target, policy sandbox.CallPolicy) sandbox.PathClass {
	policy.Mode = sandbox.WorkspaceWrite
	_, err := p.fence(sandbox.WithPolicy(ctx, &policy), t)
	switch {
	case err == nil:
		return sandbox.PathInside
	case errors.Is(err, ErrProtectedPath):
		return sandbox.PathProtected
	case fs.HasCode(err, fs.CodeSandboxDenied):
		return sandbox.PathOutside
	}
	return sandbox.PathUnverified
}
