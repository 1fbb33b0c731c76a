//lint:file-ignore SA1019 roots are deprecated from 2026-07-28 on; the older protocols Cordon serves have them

package mcphost

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// ClientRoots is how a host takes each connection's workspace from its client's MCP roots
// (docs/host.md "Roots from the client"): `harness serve` without --cwd follows them.
type ClientRoots struct {
	// Follow: ask a client that declares the roots capability for its roots after initialization,
	// and again on each notifications/roots/list_changed.
	Follow bool
	// Within are the read-write roots named on the command line (--root): when there are any, a
	// client root must lie beneath one of them, or it is ignored with a warning.
	Within []string
	// AllowBroad accepts a client root that is the file system root or the home directory
	// (--allow-broad-root); otherwise it is ignored with a warning.
	AllowBroad bool
	// Log receives the roots taken and the warnings; nil: none.
	Log *zap.Logger
}

// rootsTimeout bounds one roots/list request: a client that never answers leaves the workspace as
// it was, and a call waiting for the answer (apply) waits no longer.
const rootsTimeout = 10 * time.Second

// rootsFollower keeps each connection's roots as its client last listed them.
type rootsFollower struct {
	cfg   ClientRoots
	log   *zap.Logger
	mu    sync.Mutex
	conns map[*mcp.ServerSession]*connRoots
}

// connRoots is one connection's state.
type connRoots struct {
	asked   uint64        // roots/list requests sent; an answer counts only if it is the last one's
	pending chan struct{} // closed when the last request is answered (nil: none outstanding)
	roots   []string      // accepted, canonical, in the client's order; none: the working directory
	version uint64        // bumped on each accepted answer
	applied uint64        // the version the connection's session runs under
}

func newRootsFollower(cfg ClientRoots) *rootsFollower {
	log := cfg.Log
	if log == nil {
		log = zap.NewNop()
	}
	return &rootsFollower{cfg: cfg, log: log, conns: map[*mcp.ServerSession]*connRoots{}}
}

// hook makes the server ask for the roots after initialization and when they change.
func (f *rootsFollower) hook(opts *mcp.ServerOptions) {
	if !f.cfg.Follow {
		return
	}
	opts.InitializedHandler = func(_ context.Context, req *mcp.InitializedRequest) { f.start(req.Session) }
	opts.RootsListChangedHandler = func(_ context.Context, req *mcp.RootsListChangedRequest) {
		if declaresRoots(req.Session) {
			f.ask(req.Session)
		}
	}
}

// declaresRoots reports whether the connection's client declared the roots capability, under a
// protocol that has roots (2026-07-28's sessionless requests do not ask the client).
func declaresRoots(ss *mcp.ServerSession) bool {
	if ss == nil || usesInputRequests(ss) {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// start asks for the connection's roots once, when its client declares the capability: on
// initialization, or on its first call if that comes first.
func (f *rootsFollower) start(ss *mcp.ServerSession) {
	if !f.cfg.Follow || !declaresRoots(ss) {
		return
	}
	f.mu.Lock()
	_, known := f.conns[ss]
	f.mu.Unlock()
	if !known {
		f.ask(ss)
	}
}

// ask sends roots/list and takes the answer, unless a later request was sent meanwhile. The
// request runs apart from the handler that asked: the answer arrives on the same connection.
func (f *rootsFollower) ask(ss *mcp.ServerSession) {
	done := make(chan struct{})
	f.mu.Lock()
	c := f.conns[ss]
	if c == nil {
		c = &connRoots{}
		f.conns[ss] = c
	}
	c.asked++
	n := c.asked
	c.pending = done
	f.mu.Unlock()
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), rootsTimeout)
		res, err := ss.ListRoots(ctx, nil)
		cancel()
		var roots []string
		if err != nil {
			f.log.Warn("the client's roots could not be listed: the workspace stays as it was", zap.Error(err))
		} else {
			roots = f.accept(res.Roots)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.conns[ss] != c || c.asked != n {
			return // the connection ended, or a later answer decides
		}
		c.pending = nil
		if err == nil {
			c.roots = roots
			c.version++
		}
	}()
}

// accept returns the client roots the workspace takes, each canonical, in order, without
// repeats; each one refused is logged with the reason. No root accepted: the workspace is the
// working directory.
func (f *rootsFollower) accept(list []*mcp.Root) []string {
	var out []string
	for _, r := range list {
		if r == nil {
			continue
		}
		dir, why := f.rootDir(r.URI)
		if why != "" {
			f.log.Warn("ignoring a client root: "+why, zap.String("uri", r.URI))
			continue
		}
		if !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	if len(list) > 0 && len(out) == 0 {
		f.log.Warn("no client root is usable: the workspace stays the working directory")
	}
	if len(out) > 0 {
		f.log.Info("workspace roots from the client", zap.Strings("roots", out))
	}
	return out
}

// rootDir is the directory a client root names, canonical, or why it is refused.
func (f *rootsFollower) rootDir(uri string) (string, string) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) {
		return "", "not a file:// URI naming an absolute path on this machine"
	}
	st, err := os.Stat(u.Path)
	if err != nil {
		return "", "it cannot be examined: " + err.Error()
	}
	if !st.IsDir() {
		return "", "not a directory"
	}
	dir := filepath.Clean(sandbox.CanonicalPath(u.Path))
	if reason := sandbox.BroadRoot(dir); reason != "" && !f.cfg.AllowBroad {
		return "", "it is " + reason + " (pass --allow-broad-root to accept it)"
	}
	if len(f.cfg.Within) > 0 && !slices.ContainsFunc(f.cfg.Within, func(w string) bool {
		_, ok, err := sandbox.UnderRoot(dir, w, true)
		return err == nil && ok
	}) {
		return "", "it is outside the roots named on the command line (--root)"
	}
	return dir, ""
}

// apply brings the call's session to its connection's roots: a call made while the roots are
// being listed waits for the answer (at most rootsTimeout, or until ctx ends); the session then
// runs under the roots accepted last (the first as its working directory), or, with none, under
// the working directory.
func (f *rootsFollower) apply(ctx context.Context, ss *mcp.ServerSession, sess engine.Session) {
	if !f.cfg.Follow || ss == nil {
		return
	}
	f.start(ss)
	f.mu.Lock()
	c := f.conns[ss]
	var pending chan struct{}
	if c != nil {
		pending = c.pending
	}
	f.mu.Unlock()
	if c == nil {
		return
	}
	if pending != nil {
		select {
		case <-pending:
		case <-ctx.Done():
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.version == c.applied {
		return
	}
	r, ok := sess.(engine.Rooted)
	if !ok {
		return
	}
	c.applied = c.version
	if len(c.roots) == 0 {
		r.SetRoots("", nil)
		return
	}
	r.SetRoots(c.roots[0], c.roots[1:])
}

// forget drops an ended connection's state.
func (f *rootsFollower) forget(ss *mcp.ServerSession) {
	f.mu.Lock()
	delete(f.conns, ss)
	f.mu.Unlock()
}
