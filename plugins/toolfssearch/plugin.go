package toolfssearch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/spill"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ID is the catalog name of the plugin.
const ID = "tool-fs-search"

// Plugin is the tool-fs-search module: once the fs and tools services exist it registers glob and
// grep (with their guidance) when the mounted filesystem implements fs.Searcher, and logs one
// warning naming the provider otherwise.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// sweepEvery is how often old spill files are swept.
const sweepEvery = time.Hour

// suite is one loaded instance.
type suite struct {
	kc       *kernel.Context
	fs       fs.FileSystem
	searcher fs.Searcher
	caps     caps
	spill    *spill.Store // nil when spilling is off or has no directory
	log      *zap.Logger
}

func apply(kc *kernel.Context, cfg Config) error {
	fsys := fs.Service.Must(kc)
	searcher, ok := fsys.(fs.Searcher)
	if !ok {
		kc.Logger().Warn("the filesystem provider does not implement fs.Searcher: glob and grep are not registered",
			zap.String("provider", fmt.Sprintf("%T", fsys)))
		return nil
	}
	s := &suite{kc: kc, fs: fsys, searcher: searcher, caps: cfg.caps(), log: kc.Logger()}
	if s.caps.spill {
		s.spill = openSpill(kc, s.caps.spillLimits)
	}
	rt := tools.Service.Must(kc)
	for _, def := range []tools.Definition{s.globDefinition(), s.grepDefinition()} {
		if _, err := rt.Register(kc, def); err != nil {
			return err
		}
	}
	return nil
}

// openSpill returns the spill store under the state directory and starts its sweeper (at start,
// then hourly, until the instance is disposed); nil when no state directory can be named.
func openSpill(kc *kernel.Context, limits spill.Limits) *spill.Store {
	dir, err := spill.ProcessDir(os.LookupEnv)
	if err != nil {
		kc.Logger().Warn("no state directory: over-cap results will not be saved", zap.Error(err))
		return nil
	}
	st := spill.New(dir, limits)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(sweepEvery)
		defer t.Stop()
		for {
			if err := st.Sweep(time.Now()); err != nil {
				kc.Logger().Warn("spill sweep failed", zap.Error(err))
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	if err := kc.OnDispose(func(context.Context) error { cancel(); <-done; return nil }); err != nil {
		cancel()
		<-done
		return nil
	}
	return st
}

func (s *suite) globDefinition() tools.Definition {
	return tools.Tool[globArgs, GlobValue]{
		Name:        "glob",
		Description: globDescription(s.caps.globMax),
		Parameters:  globParameters,
		Execute:     filetool.BudgetErrors(s.caps.budget, s.glob),
		Render: func(_ globArgs, v GlobValue) []tools.Content {
			return []tools.Content{tools.TextContent(RenderGlob(v))}
		},
		ConcurrencySafe: func(globArgs) bool { return true },
		Timeout:         s.caps.timeout,
		Guidance:        globGuidance(),
		Annotations:     tools.Annotations{ReadOnly: true, Idempotent: true},
	}.Definition()
}

func (s *suite) grepDefinition() tools.Definition {
	return tools.Tool[grepArgs, GrepValue]{
		Name:        "grep",
		Description: grepDescription(s.caps.grepMax),
		Parameters:  grepParameters,
		Execute:     filetool.BudgetErrors(s.caps.budget, s.grep),
		Render: func(_ grepArgs, v GrepValue) []tools.Content {
			return []tools.Content{tools.TextContent(RenderGrep(v))}
		},
		ConcurrencySafe: func(grepArgs) bool { return true },
		Timeout:         s.caps.timeout,
		Guidance:        grepGuidance(),
		Annotations:     tools.Annotations{ReadOnly: true, Idempotent: true},
	}.Definition()
}

func (s *suite) limits() fs.SearchLimits {
	return fs.SearchLimits{IncludeIgnored: s.caps.includeIgnored, MaxVisited: s.caps.maxVisited}
}

func (s *suite) stoppedAfter(stopped bool) int {
	if stopped {
		return s.caps.maxVisited
	}
	return 0
}

// root resolves the search root of a call (path, or the session cwd) and checks it exists (and,
// with dirOnly, is a directory). It returns the root and the cwd's display path.
func (s *suite) root(ctx context.Context, tool, path string, exec *tools.Exec, dirOnly bool) (fs.Target, string, error) {
	opts := fs.ResolveOptions{Cwd: exec.Header().Cwd}
	cwd, err := s.fs.Resolve(ctx, ".", opts)
	if err != nil {
		return fs.Target{}, "", searchFailure(ctx, tool, err)
	}
	t := cwd // no path: the cwd itself, resolved once
	if path != "" {
		if t, err = s.fs.Resolve(ctx, path, opts); err != nil {
			if fs.HasCode(err, fs.CodeNotFound) {
				return fs.Target{}, "", notFound(displayPath(cwd.DisplayPath, lexicalJoin(cwd.DisplayPath, path)), err)
			}
			return fs.Target{}, "", searchFailure(ctx, tool, err)
		}
	}
	dp := displayPath(cwd.DisplayPath, t.DisplayPath)
	info, err := s.fs.Stat(ctx, t)
	if err != nil {
		return fs.Target{}, "", searchFailure(ctx, tool, err)
	}
	if info == nil {
		return fs.Target{}, "", notFound(dp, nil)
	}
	if dirOnly && info.Type != fs.TypeDirectory {
		return fs.Target{}, "", notDirectory(dp)
	}
	return t, cwd.DisplayPath, nil
}

func lexicalJoin(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// withTimeout bounds a search by timeoutMs.
func (s *suite) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.caps.timeout)
}
