package kernelfx

import (
	"context"
	"errors"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// Group is the fx value group that collects the modules plugin packages contribute.
const Group = "kernel.modules"

// Composition is the host's list of entries, loaded when the fx app starts. A host supplies it
// with fx.Supply(kernelfx.Composition(entries)), a constructor, or YAML.
type Composition []loader.Entry

// Plugin contributes m to the catalog of the kernel that Module builds. A plugin package calls it
// once, for its exported fx module, which is the one way a host includes the plugin:
//
//	var Module = fx.Module("fs-local", kernelfx.Plugin(Plugin))
//
// It registers nothing at fx time; m's Apply runs when a composition entry names m.ID. Including
// that fx module more than once contributes m once; two Plugin calls under one id fail the app.
func Plugin(m kernel.Module) fx.Option {
	c := &contribution{m: m}
	return fx.Provide(fx.Annotate(func() *contribution { return c }, fx.ResultTags(`group:"`+Group+`"`)))
}

// YAML provides the Composition parsed (strictly) from a composition file's text; a parse error
// fails the fx app.
func YAML(src []byte) fx.Option {
	return fx.Provide(func() (Composition, error) {
		entries, err := loader.Parse(src)
		return Composition(entries), err
	})
}

// bootPolicy tunes the boot audit; see AllowPending.
type bootPolicy struct{ allowPending bool }

// AllowPending lets the app start while some entries wait for services nobody provides. By
// default such an entry fails start, like a failed one: an enabled entry that never activates is
// almost always a composition mistake (a missing provider), and the error lists what it waits for.
func AllowPending() fx.Option { return fx.Supply(bootPolicy{allowPending: true}) }

// WithZap sends fx's own events (provided, invoked, started: about fifteen lines a start) to the
// host's *zap.Logger (named "fx") at debug level, errors included (the start error reaches the
// host from app.Start), so a host logging at info sees none of them. Without it fx prints them to
// stderr; fx.NopLogger drops them, fx.WithLogger sends them elsewhere.
func WithZap() fx.Option {
	return fx.WithLogger(func(log *zap.Logger) fxevent.Logger {
		l := &fxevent.ZapLogger{Logger: log.Named("fx")}
		l.UseLogLevel(zapcore.DebugLevel)
		l.UseErrorLevel(zapcore.DebugLevel)
		return l
	})
}

// Module provides the *kernel.Kernel, its *kernel.Catalog and its *loader.Loader to an fx app.
// The catalog holds exactly the modules contributed with Plugin (two contributions under one id
// fail the app), the kernel's logger is the *zap.Logger the host provides. On start the
// Composition is applied and audited: an entry whose load fails, an entry left Failed, or an entry
// left Pending (unless AllowPending) fails start with a message naming it, after disposing what
// was loaded. On stop every instance is disposed in reverse order and asynchronous listeners
// drain (kernel.Close).
var Module = fx.Module("kernel",
	fx.Provide(newCatalog, newKernel, loader.New),
	fx.Invoke(boot),
)

func newKernel(log *zap.Logger, cat *kernel.Catalog) *kernel.Kernel {
	return kernel.New(kernel.WithLogger(log), kernel.WithCatalog(cat))
}

type bootParams struct {
	fx.In
	Lifecycle   fx.Lifecycle
	Kernel      *kernel.Kernel
	Loader      *loader.Loader
	Composition Composition
	Policy      bootPolicy `optional:"true"`
}

func boot(p bootParams) {
	p.Lifecycle.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			err := p.Loader.Apply(ctx, p.Composition)
			if err == nil {
				err = audit(p.Loader, p.Policy)
			}
			if err != nil {
				_ = p.Kernel.Close(ctx)
				return err
			}
			return nil
		},
		OnStop: p.Kernel.Close,
	})
}

// audit applies the boot policy to the loader's audit.
func audit(l *loader.Loader, policy bootPolicy) error {
	err := l.Audit()
	if err == nil || !policy.allowPending {
		return err
	}
	var ae *loader.AuditError
	if !errors.As(err, &ae) {
		return err
	}
	if len(ae.Failed) == 0 {
		return nil
	}
	return &loader.AuditError{Failed: ae.Failed}
}
