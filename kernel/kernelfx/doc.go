// Package kernelfx wires a kernel into an fx application: fx wires the process, the kernel runs
// the plugins.
//
// A plugin package contributes its module to the catalog with Plugin, which adds it to the fx
// value group "kernel.modules"; it registers nothing at fx time:
//
//	var Module = fx.Module("fs-local", kernelfx.Plugin(Plugin))
//
// A host adds Module, supplies a *zap.Logger and a Composition (or YAML), and WithZap so that fx's
// own events go to the same logger at debug level (without it fx prints about fifteen "[Fx]" lines
// to stderr at every start; fx.NopLogger instead drops them, fx.WithLogger sends them elsewhere):
//
//	fx.New(
//		kernelfx.Module, kernelfx.WithZap(),
//		fslocal.Module, toolfs.Module,
//		kernelfx.YAML(config),
//		fx.Supply(logger),
//	)
//
// Module provides *kernel.Kernel, *kernel.Catalog and *loader.Loader. The catalog holds exactly the
// modules contributed with Plugin: a plugin's fx module is the one way to include it. Including one
// fx module twice contributes its module once; two contributions under one id fail the app
// (ErrDuplicateModule). Catalog builds the same catalog without a kernel, for hosts that list their
// plugins. Each plugin instance logs through its own logger, named after its module under "kernel".
//
// On start the composition is applied (see package loader) and audited. Start fails, with an error
// naming the entry, when an entry is unknown, has a bad config or fails to load, and when the audit
// finds an entry Failed or, unless AllowPending is given, still Pending: an enabled entry that
// never activates is almost always a missing provider. A failed start disposes whatever it loaded.
// On stop every instance is disposed in reverse order and asynchronous listeners drain
// (kernel.Kernel.Close).
package kernelfx
