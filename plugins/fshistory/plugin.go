package fshistory

import (
	"context"
	"io"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/history"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ID is the catalog name of the plugin.
const ID = "fs-history"

// Plugin is the fs-history module. It stays pending until the fs and tools services exist; then
// it opens the store (sweeping what killed processes left), records every fs.PublishedEvent,
// tags each tool call's context with its session and tool (tools/execute), registers undo and
// provides history.Service. Disposing it removes all of these.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// Hosts that blank-import the package find the plugin in kernel.DefaultCatalog.
func init() { kernel.Register(Plugin) }

// recorder is one loaded instance.
type recorder struct {
	kc    *kernel.Context
	fs    fs.FileSystem
	store history.Store
	log   *zap.Logger
	now   func() time.Time
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
	if err := st.Sweep(); err != nil {
		kc.Logger().Warn("history: cannot sweep the store", zap.Error(err))
	}
	r := &recorder{kc: kc, fs: fs.Service.Must(kc), store: st, log: kc.Logger(), now: time.Now}
	if _, err := fs.PublishedEvent.On(kc, r.published); err != nil {
		return err
	}
	if _, err := tools.ExecuteStep.On(kc, tagActor); err != nil {
		return err
	}
	if _, err := tools.Service.Must(kc).Register(kc, r.undoDefinition()); err != nil {
		return err
	}
	_, err = history.Service.Provide(kc, &history.Log{Store: st, FS: r.fs, Dir: dir})
	return err
}

// tagActor gives the body of a tool call a context that names its session and tool, so the
// changes it publishes are recorded with them.
func tagActor(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
	a := history.Actor{Tool: d.Exec.Name}
	if s := d.Exec.Session; s != nil {
		a.Session, a.Cwd = s.ID(), s.Cwd()
	}
	prev := d.Ctx
	d.Ctx = history.WithActor(prev, a)
	defer func() { d.Ctx = prev }()
	return next()
}

// published records one change.
func (r *recorder) published(ctx context.Context, a fs.PublishedArgs) error {
	actor := history.ActorOf(ctx)
	rec := history.Record{
		Time:         r.now(),
		Path:         r.fs.ProcessPath(a.Target),
		Display:      a.Target.DisplayPath,
		Key:          string(a.Target.Key),
		Session:      actor.Session,
		Tool:         actor.Tool,
		Verb:         a.Verb,
		VersionAfter: string(a.Version),
		Undoes:       history.UndoingOf(ctx),
	}
	if ws, err := r.fs.Resolve(ctx, ".", fs.ResolveOptions{Cwd: actor.Cwd}); err == nil {
		rec.Workspace = r.fs.ProcessPath(ws)
	}
	var content io.Reader
	if p := a.Prior; p != nil {
		rec.Existed, rec.Mode, rec.Size, rec.VersionBefore = true, p.Mode, p.Size, string(p.Version)
		if p.Content != nil {
			content = io.NewSectionReader(p.Content, 0, p.Size)
		}
	}
	_, err := r.store.Add(rec, content)
	return err
}
