// Package diagnostics is the lsp-diagnostics plugin: after each change a tool call publishes, it
// asks the project's own language server for the changed file's diagnostics and appends to the
// call's result the problems the change introduced, and a count of those it fixed
// (docs/diagnostics.md).
package diagnostics

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ID is the catalog name of the plugin.
const ID = "lsp-diagnostics"

// Plugin is the lsp-diagnostics module. It stays pending until the fs and tools services exist;
// then it follows each tool call (tools/execute), the changes the call publishes (fs/publish)
// and the files it observes (fs/observed), and appends its report in tools/post-execute.
// Disposing it shuts every server down.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// plugin is one loaded instance.
type plugin struct {
	fs     fs.FileSystem
	log    *zap.Logger
	cfg    Config
	specs  map[string]*spec
	budget filetool.Budget
	ctx    context.Context // ends when the plugin is disposed
	stop   context.CancelFunc
	checks sync.WaitGroup

	mu      sync.Mutex
	calls   map[*tools.Exec]*call
	files   map[string]*file   // by process path
	servers map[string]*server // by language and root
	closed  bool
}

// call is what one tool call did to files.
type call struct {
	mu      sync.Mutex
	changes []*change
	touched map[string]bool // the paths it changed or observed
	cwd     string
}

// change is one published change.
type change struct {
	path, display string
	spec          *spec
	priorVersion  fs.Version
	prior         *string // the text before; nil when the file did not exist or could not be read
	existed       bool
	after         string
	removed       bool
	version       fs.Version
	done          bool
}

type callKey struct{}

func apply(kc *kernel.Context, cfg Config) error {
	table, _ := filetool.NewBudget(ID, cfg.ResultBudget, cfg.ResultBudgetByClient) // checked by Validate
	ctx, stop := context.WithCancel(context.Background())
	p := &plugin{fs: fs.Service.Must(kc), log: kc.Logger(), cfg: cfg, specs: cfg.specs(), budget: table,
		ctx: ctx, stop: stop, calls: map[*tools.Exec]*call{}, files: map[string]*file{}, servers: map[string]*server{}}
	if err := kc.OnDispose(p.close); err != nil {
		stop()
		return err
	}
	if _, err := tools.ChangeStep.On(kc, p.tag, kernel.Tag(tools.ValueBlind)); err != nil {
		return err
	}
	if _, err := fs.PublishEvent.On(kc, p.published); err != nil {
		return err
	}
	if _, err := fs.ObservedEvent.On(kc, p.observed); err != nil {
		return err
	}
	_, err := tools.PostExecute.On(kc, p.post, kernel.Tag(tools.ValueBlind))
	return err
}

// tag gives the body of a call of a tool that may change files (a tools/execute-change wrapper:
// a read never runs it) a context that carries its record, so what it publishes is attributed to
// it. A read gets its record only when it observes a file while a file is tracked (observed).
func (p *plugin) tag(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
	c := newCall(d.Exec)
	p.mu.Lock()
	p.calls[d.Exec] = c
	p.mu.Unlock()
	prev := d.Ctx
	d.Ctx = context.WithValue(prev, callKey{}, c)
	defer func() { d.Ctx = prev }()
	res, err := next()
	if err != nil {
		p.take(d.Exec) // no post-execute follows
	}
	return res, err
}

func newCall(exec *tools.Exec) *call {
	c := &call{}
	if s := exec.Session; s != nil {
		c.cwd = s.Cwd()
	}
	return c
}

func (p *plugin) take(exec *tools.Exec) *call {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.calls[exec]
	delete(p.calls, exec)
	return c
}

// published records a change of the call whose context it comes on. Only a file of a language
// with a server costs more than its path: its text before and after.
func (p *plugin) published(ctx context.Context, a fs.PublishArgs) error {
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		return nil
	}
	sp := p.specs[filepath.Ext(a.Target.DisplayPath)]
	if sp == nil && !p.busy() {
		return nil // no server to tell, no file whose late result could go with this call
	}
	path := p.fs.ProcessPath(a.Target)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch a.Phase {
	case fs.PublishBefore:
		ch := &change{path: path, display: a.Target.DisplayPath, spec: sp, removed: a.Removed, existed: a.Prior != nil}
		if ch.spec != nil && !a.Removed && int64(len(a.After)) <= int64(p.cfg.MaxFileBytes) {
			ch.after = a.After
			if pr := a.Prior; pr != nil {
				ch.priorVersion = pr.Version
				if pr.Content != nil && pr.Size <= int64(p.cfg.MaxFileBytes) {
					b := make([]byte, pr.Size)
					if n, _ := pr.Content.ReadAt(b, 0); n == len(b) {
						s := stripBOM(string(b))
						ch.prior = &s
					}
				}
			}
		} else if ch.spec != nil {
			ch.spec = nil // too large to check
		}
		c.changes = append(c.changes, ch)
	case fs.PublishDone, fs.PublishFailed:
		for i := len(c.changes) - 1; i >= 0; i-- {
			if ch := c.changes[i]; ch.path == path && !ch.done {
				if a.Phase == fs.PublishFailed {
					c.changes = append(c.changes[:i], c.changes[i+1:]...)
				} else {
					ch.done, ch.version = true, a.Version
				}
				break
			}
		}
		if a.Phase == fs.PublishDone {
			if c.touched == nil {
				c.touched = map[string]bool{}
			}
			c.touched[path] = true
		}
	}
	return nil
}

// busy reports whether a server was started or a file is tracked.
func (p *plugin) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.servers) > 0 || len(p.files) > 0
}

// observed notes a file a call read, so that a late result of that file goes with the call.
func (p *plugin) observed(_ context.Context, a fs.ObservedArgs) error {
	exec, _ := a.Actor.(*tools.Exec)
	if exec == nil {
		return nil
	}
	p.mu.Lock()
	if len(p.files) == 0 {
		p.mu.Unlock()
		return nil
	}
	c := p.calls[exec]
	if c == nil { // a read: its record, for post-execute to find
		c = newCall(exec)
		p.calls[exec] = c
	}
	p.mu.Unlock()
	path := p.fs.ProcessPath(a.Target)
	c.mu.Lock()
	if c.touched == nil {
		c.touched = map[string]bool{}
	}
	c.touched[path] = true
	c.mu.Unlock()
	return nil
}

func stripBOM(s string) string {
	if len(s) >= 3 && s[:3] == "\uFEFF" {
		return s[3:]
	}
	return s
}

// close shuts every server down and waits for the checks still running.
func (p *plugin) close(ctx context.Context) error {
	p.mu.Lock()
	p.closed = true
	servers := make([]*server, 0, len(p.servers))
	for _, s := range p.servers {
		servers = append(servers, s)
	}
	p.mu.Unlock()
	p.stop()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.shutdown(ctx)
		}()
	}
	wg.Wait()
	done := make(chan struct{})
	go func() { p.checks.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
	}
	return nil
}
