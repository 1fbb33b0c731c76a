package fshistory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"sync"
	"time"
	"unsafe"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ID is the catalog name of the plugin.
const ID = "fs-history"

// Plugin is the fs-history module. It stays pending until the fs and tools services exist; then
// it opens the store (sweeping what killed processes left), records every fs.PublishedEvent,
// tags each tool call's context with its session and tool (tools/execute-change), registers undo and
// provides history.Service and fs.DurableObservationsService. Disposing it removes all of these.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// recorder is one loaded instance.
type recorder struct {
	kc    *kernel.Context
	fs    fs.FileSystem
	tools *tools.Runtime
	store history.Store
	log   *zap.Logger
	now   func() time.Time
	// timeout is the lock timeout: what one call (and the start) waits for the store, in all.
	timeout time.Duration

	mu      sync.Mutex
	pending map[fs.TargetKey]string // the pending record of each mutation in flight
	// published is, for the files changed last, the bytes a change published and their digest:
	// the next change of the file finds its prior bytes hashed already when they are the same
	// (compared byte for byte, never assumed). At most publishedKeys entries.
	published map[fs.TargetKey]publishedBytes
	// workspaces is the canonical path of each session working directory met (at most
	// publishedKeys): a record names its session's, which costs a resolution (three system
	// calls) per change otherwise.
	workspaces map[string]string
}

// publishedBytes are the bytes a change published (a UTF-8 mark, then after) and their sha256.
type publishedBytes struct {
	bom    bool
	after  string
	digest string
}

// publishedKeys bounds recorder.published: the files edited in turn by one session.
const publishedKeys = 16

// matches reports whether data is exactly the published bytes.
func (p publishedBytes) matches(data []byte) bool {
	if p.bom {
		if len(data) < len(bom) || string(data[:len(bom)]) != bom {
			return false
		}
		data = data[len(bom):]
	}
	return string(data) == p.after
}

func apply(kc *kernel.Context, cfg Config) error {
	dir, err := cfg.dir()
	if err != nil {
		return err
	}
	st, err := history.Open(dir, cfg.limits(), time.Duration(cfg.LockTimeout))
	if err != nil {
		return err
	}
	if err := kc.OnDispose(func(context.Context) error { st.Close(); return nil }); err != nil {
		return err
	}
	r := &recorder{kc: kc, fs: fs.Service.Must(kc), tools: tools.Service.Must(kc), store: st, log: kc.Logger(), now: time.Now, pending: map[fs.TargetKey]string{}, published: map[fs.TargetKey]publishedBytes{}, workspaces: map[string]string{},
		timeout: time.Duration(cfg.LockTimeout)}
	// The start waits for another process's hold once at most: the sweep and the settling share
	// one lock timeout. A damaged store is set aside and the start goes on with an empty one.
	start := history.Within(st, history.NewLockBudget(r.timeout))
	if err := start.Sweep(); err != nil {
		r.warn("history: cannot sweep the store", err)
	}
	r.settle(start)
	if _, err := fs.PublishEvent.On(kc, r.publish); err != nil {
		return err
	}
	if _, err := tools.ChangeStep.On(kc, r.tagActor, kernel.Tag(tools.ValueBlind)); err != nil {
		return err
	}
	if _, err := r.tools.Register(kc, r.undoDefinition()); err != nil {
		return err
	}
	if _, err := fs.DurableObservationsService.Provide(kc, &observations{store: st, log: r.log, now: r.now}); err != nil {
		return err
	}
	_, err = history.Service.Provide(kc, &history.Log{Store: st, FS: r.fs, Dir: dir})
	return err
}

// warn logs a failure of the store; a damaged store set aside is an error line of its own.
func (r *recorder) warn(msg string, err error) {
	if !r.noteDamage(err) {
		r.log.Warn(msg, zap.Error(err))
	}
}

// noteDamage logs err when it set a damaged store aside, and reports whether it did.
func (r *recorder) noteDamage(err error) bool {
	var d *history.Damaged
	if !errors.As(err, &d) {
		return false
	}
	r.log.Error("history: the store's database was damaged: set aside, the store starts empty", zap.String("asideAs", d.Aside), zap.NamedError("cause", d.Cause))
	return true
}

// tagActor gives the body of a tool call a context that names its session and tool, so the
// changes it publishes are recorded with them, a change group of its own (the files of one
// apply_patch share it), and that carries the call's lock budget: all the store operations of one
// call wait, together, at most one lock timeout (docs/history.md). It wraps tools/execute-change: a
// call of a read-only tool (read, glob, grep) publishes no change and never reaches it.
func (r *recorder) tagActor(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
	a := history.Actor{Tool: d.Exec.Name, Group: history.NewGroup()}
	if s := d.Exec.Session; s != nil {
		a.Session, a.Cwd = s.ID(), s.Cwd()
	}
	prev := d.Ctx
	d.Ctx = history.WithLockBudget(history.WithActor(prev, a), history.NewLockBudget(r.timeout))
	defer func() { d.Ctx = prev }()
	return next()
}

// publish records one change in two steps: PublishBefore commits a pending record with the prior
// content (durable before the file is replaced), PublishDone completes it with the version after,
// PublishFailed discards it (docs/history.md "Crash safety").
func (r *recorder) publish(ctx context.Context, a fs.PublishArgs) error {
	switch a.Phase {
	case fs.PublishBefore:
		return r.before(ctx, a)
	case fs.PublishDone:
		if id := r.take(a.Target.Key); id != "" {
			return r.storeFor(ctx).Complete(id, string(a.Version), false)
		}
	case fs.PublishFailed:
		if id := r.take(a.Target.Key); id != "" {
			return r.storeFor(ctx).Discard(id)
		}
	}
	return nil
}

// storeFor is the store as the call of ctx uses it: its waits come out of the call's budget.
func (r *recorder) storeFor(ctx context.Context) history.Store {
	return history.Within(r.store, history.LockBudgetOf(ctx))
}

// take returns and forgets the pending record of a mutation of key (the provider holds key's lock
// from PublishBefore to PublishDone, so there is one at a time).
func (r *recorder) take(key fs.TargetKey) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := r.pending[key]
	delete(r.pending, key)
	return id
}

// processID is this process's id, which a pending record carries (os.Getpid is a system call).
var processID = os.Getpid()

// workspace returns the canonical path of the session working directory cwd ("" when it does not
// resolve), resolved the first time a change of a session in it is recorded. A directory
// renamed or a link retargeted afterwards leaves the path first resolved: a record's workspace
// only bounds which folders an undo may prune, and a change's folders lie beneath the directory
// it was made in.
func (r *recorder) workspace(ctx context.Context, cwd string) string {
	r.mu.Lock()
	w, ok := r.workspaces[cwd]
	r.mu.Unlock()
	if ok {
		return w
	}
	ws, err := r.fs.Resolve(ctx, ".", fs.ResolveOptions{Cwd: cwd})
	if err != nil {
		return "" // not kept: it may resolve at the next change
	}
	w = r.fs.ProcessPath(ws)
	r.mu.Lock()
	if len(r.workspaces) >= publishedKeys {
		clear(r.workspaces)
	}
	r.workspaces[cwd] = w
	r.mu.Unlock()
	return w
}

func (r *recorder) before(ctx context.Context, a fs.PublishArgs) error {
	actor := history.ActorOf(ctx)
	rec := history.Record{
		Time:    r.now(),
		Path:    r.fs.ProcessPath(a.Target),
		Display: a.Target.DisplayPath,
		Key:     string(a.Target.Key),
		Session: actor.Session,
		Tool:    actor.Tool,
		Verb:    a.Verb,
		Undoes:  history.UndoingOf(ctx),
		Pending: true,
		PID:     processID,
		Group:   actor.Group,
	}
	if a.Prior == nil && !a.Removed {
		rec.MadeDirs = a.MadeDirs
	}
	if !a.Removed {
		h := sha256.New()
		if a.AfterBOM {
			h.Write([]byte(bom))
		}
		h.Write(unsafe.Slice(unsafe.StringData(a.After), len(a.After))) // read only: no copy of the text
		rec.AfterDigest = hex.EncodeToString(h.Sum(nil))
	}
	rec.Workspace = r.workspace(ctx, actor.Cwd)
	var content io.Reader
	if p := a.Prior; p != nil {
		rec.Existed, rec.Mode, rec.Size, rec.VersionBefore = true, history.PosixMode(os.FileMode(p.Mode)), p.Size, string(p.Version)
		switch {
		case p.Bytes != nil:
			content = history.Known(p.Bytes, r.knownDigest(a.Target.Key, p.Bytes))
		case p.Content != nil:
			content = io.NewSectionReader(p.Content, 0, p.Size)
		}
	}
	r.remember(a, rec.AfterDigest)
	added, err := r.storeFor(ctx).Add(rec, content)
	if err != nil {
		r.noteDamage(err) // the event's emitter logs every failure; this one also says what was lost
		return err
	}
	r.mu.Lock()
	r.pending[a.Target.Key] = added.ID
	r.mu.Unlock()
	return nil
}

const bom = "\uFEFF"

// knownDigest is the digest of data when it is exactly what the last recorded change of key
// published ("" otherwise: the store hashes it).
func (r *recorder) knownDigest(key fs.TargetKey, data []byte) string {
	r.mu.Lock()
	p, ok := r.published[key]
	r.mu.Unlock()
	if ok && p.matches(data) {
		return p.digest
	}
	return ""
}

// remember keeps the bytes the change a publishes and their digest for the next change of its
// file (forgets them for a removal).
func (r *recorder) remember(a fs.PublishArgs, digest string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a.Removed || len(a.After) > history.InlineMaxBytes {
		delete(r.published, a.Target.Key) // only what the store keeps from memory is worth keeping
		return
	}
	if _, ok := r.published[a.Target.Key]; !ok && len(r.published) >= publishedKeys {
		clear(r.published)
	}
	r.published[a.Target.Key] = publishedBytes{bom: a.AfterBOM, after: a.After, digest: digest}
}
