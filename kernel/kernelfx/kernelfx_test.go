package kernelfx_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

type greetConfig struct {
	Greeting string `yaml:"greeting"`
	Fail     bool   `yaml:"fail"`
}

func (c *greetConfig) Defaults() { c.Greeting = "hello" }

// uncontributed is a defined module that no app is given.
var uncontributed = kernel.Define("kernelfx-test-registered", func(*kernel.Context, struct{}) error { return nil })

var svc = kernel.NewService[string]("kernelfx-test/svc")

func greetModule(j *kerneltest.Journal) kernel.Module {
	return kernel.Define("greet", func(kc *kernel.Context, cfg greetConfig) error {
		if cfg.Fail {
			return errors.New("greet refused to start")
		}
		entry := kc.Fiber().Entry()
		j.Add("apply %s %s (logger %s)", entry, cfg.Greeting, kc.Logger().Name())
		return kc.OnDispose(func(context.Context) error { j.Add("dispose %s", entry); return nil })
	})
}

var consumer = kernel.Define("consumer", func(kc *kernel.Context, _ struct{}) error { return nil }, svc.Dep())

// app builds an fx app with the kernel module, a test logger and the given composition.
func app(t *testing.T, j *kerneltest.Journal, src string, opts ...fx.Option) *fx.App {
	t.Helper()
	all := append([]fx.Option{
		kernelfx.Module,
		kernelfx.Plugin(greetModule(j)),
		kernelfx.Plugin(consumer),
		kernelfx.YAML([]byte(src)),
		fx.Supply(zaptest.NewLogger(t)),
		fx.NopLogger,
	}, opts...)
	return fx.New(all...)
}

func TestStartLoadsCompositionStopDisposesInReverse(t *testing.T) {
	j := &kerneltest.Journal{}
	var l *loader.Loader
	var k *kernel.Kernel
	a := fxtest.New(t,
		kernelfx.Module,
		kernelfx.Plugin(greetModule(j)),
		fx.Supply(zaptest.NewLogger(t)),
		fx.Supply(kernelfx.Composition{
			{ID: "a", Name: "greet"},
			{ID: "b", Name: "greet"},
		}),
		fx.Populate(&l, &k),
	)
	a.RequireStart()
	require.Equal(t, []string{"apply a hello (logger kernel.greet)", "apply b hello (logger kernel.greet)"}, j.Take())
	for _, s := range l.Status() {
		require.Equal(t, "active", s.State, s.ID)
	}
	_, ok := k.Catalog().Lookup("greet")
	require.True(t, ok)
	a.RequireStop()
	require.Equal(t, []string{"dispose b", "dispose a"}, j.Take())
	require.Empty(t, k.Fibers())
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		is   error
		// applied lists the entries that applied before start failed; each must be disposed again.
		applied []string
	}{
		{"bad config names entry and key", "plugins:\n  - id: g\n    name: greet\n    config: {greting: hi}\n",
			`entry "g" (greet): config: line 4: unknown key "greting" in kernelfx_test.greetConfig`, loader.ErrUnknownKey, nil},
		{"unknown module", "plugins:\n  - name: nope\n",
			`entry "nope": unknown module`, loader.ErrUnknownModule, nil},
		{"failing apply", "plugins:\n  - {id: a, name: greet}\n  - {id: g, name: greet, config: {fail: true}}\n",
			`entry "g" (greet): greet refused to start`, nil, []string{"a"}},
		{"pending entry fails start by default", "plugins:\n  - {id: a, name: greet}\n  - name: consumer\n",
			"boot audit:\n  entry \"consumer\": pending: missing kernelfx-test/svc", nil, []string{"a"}},
		{"bad YAML", "plugins:\n  - {name: greet, extra: 1}\n",
			`entry #1 (greet): line 2: unknown key "extra" in entry`, loader.ErrUnknownKey, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &kerneltest.Journal{}
			var k *kernel.Kernel
			a := app(t, j, tt.src, fx.Populate(&k))
			err := a.Err()
			if err == nil {
				err = a.Start(t.Context())
			}
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
			if tt.is != nil {
				require.ErrorIs(t, err, tt.is)
			}
			if k != nil {
				require.Empty(t, k.Fibers(), "a failed start leaves nothing loaded")
			}
			var want []string
			for _, id := range tt.applied {
				want = append(want, "apply "+id+" hello (logger kernel.greet)")
			}
			for i := len(tt.applied) - 1; i >= 0; i-- {
				want = append(want, "dispose "+tt.applied[i])
			}
			require.Equal(t, want, j.Take(), "whatever applied before the failure is disposed again")
		})
	}
}

func TestAllowPending(t *testing.T) {
	j := &kerneltest.Journal{}
	var l *loader.Loader
	a := app(t, j, "plugins:\n  - name: consumer\n", kernelfx.AllowPending(), fx.Populate(&l))
	require.NoError(t, a.Err())
	require.NoError(t, a.Start(t.Context()))
	require.Equal(t, "pending", l.Status()[0].State)
	require.NoError(t, a.Stop(t.Context()))
}

// The fx module is the one way in: a module that is defined but contributed to no app is unknown
// to the app's kernel.
func TestUncontributedModuleIsUnknown(t *testing.T) {
	a := app(t, &kerneltest.Journal{}, "plugins: [{name: "+uncontributed.ID+"}]\n")
	require.NoError(t, a.Err())
	err := a.Start(t.Context())
	require.ErrorIs(t, err, loader.ErrUnknownModule)
	require.ErrorContains(t, err, `entry "kernelfx-test-registered": unknown module`)
}

// A plugin's fx module that reaches the app more than once (listed twice, nested in two bundles)
// contributes its module once.
func TestFxModuleIncludedTwiceContributesOnce(t *testing.T) {
	j := &kerneltest.Journal{}
	greet := fx.Module("greet", kernelfx.Plugin(greetModule(j)))
	var cat *kernel.Catalog
	a := fxtest.New(t, kernelfx.Module, greet, greet, fx.Options(greet), fx.Module("bundle", greet),
		kernelfx.YAML([]byte("plugins: [{name: greet}]\n")),
		fx.Supply(zaptest.NewLogger(t)), fx.Populate(&cat))
	a.RequireStart()
	require.Equal(t, []string{"apply greet hello (logger kernel.greet)"}, j.Take())
	require.Len(t, cat.Modules(), 1)
	a.RequireStop()
}

// Two contributions under one id fail the app, whether they are two different modules or one
// module wrapped by two Plugin calls (only the fx module's identity tells copies apart).
func TestDuplicateModuleIDFailsTheApp(t *testing.T) {
	for name, tc := range map[string]struct {
		extra fx.Option
		id    string
	}{
		"another module":       {kernelfx.Plugin(kernel.Define("greet", func(*kernel.Context, struct{}) error { return nil })), "greet"},
		"a second Plugin call": {kernelfx.Plugin(consumer), "consumer"},
	} {
		t.Run(name, func(t *testing.T) {
			a := app(t, &kerneltest.Journal{}, "plugins: []\n", tc.extra)
			require.ErrorIs(t, a.Err(), kernelfx.ErrDuplicateModule)
			var de *kernelfx.DuplicateModuleError
			require.ErrorAs(t, a.Err(), &de)
			require.Equal(t, tc.id, de.ID)
		})
	}
}

func TestCatalog(t *testing.T) {
	m := kernel.Define("m", func(*kernel.Context, struct{}) error { return nil })
	n := kernel.Define("n", func(*kernel.Context, struct{}) error { return nil }, svc.Dep())
	mod := fx.Module("m", kernelfx.Plugin(m))
	cat, err := kernelfx.Catalog(mod, kernelfx.Plugin(n), mod)
	require.NoError(t, err)
	var ids []string
	for _, x := range cat.Modules() {
		ids = append(ids, x.ID)
	}
	require.Equal(t, []string{"m", "n"}, ids)
	got, _ := cat.Lookup("n")
	require.Equal(t, []kernel.Dep{svc.Dep()}, got.Inject)

	_, err = kernelfx.Catalog(kernelfx.Plugin(kernel.Module{ID: "Bad ID", Apply: m.Apply}))
	require.ErrorContains(t, err, `kernelfx: group kernel.modules: kernel: malformed module id "Bad ID"`)

	_, err = kernelfx.Catalog(mod, kernelfx.Plugin(m))
	require.EqualError(t, err, `kernelfx: duplicate module id: "m" (group kernel.modules) is already taken by another contribution; include each plugin's fx Module once`)
}

// fx's events reach the host's logger at debug level: a host logging at info sees none of them.
func TestWithZapLogsFxEvents(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	j := &kerneltest.Journal{}
	a := fxtest.New(t,
		kernelfx.Module,
		kernelfx.WithZap(),
		kernelfx.Plugin(greetModule(j)),
		fx.Supply(zap.New(core)),
		kernelfx.YAML([]byte("plugins: [{name: greet}]\n")),
	)
	a.RequireStart().RequireStop()
	require.NotZero(t, logs.FilterLoggerName("fx").Len(), "fx events reach zap")
	require.NotZero(t, logs.FilterMessage("started").Len())
	for _, e := range logs.FilterLoggerName("fx").All() {
		require.Equal(t, zapcore.DebugLevel, e.Level, e.Message)
	}

	info, infoLogs := observer.New(zapcore.InfoLevel)
	fxtest.New(t, kernelfx.Module, kernelfx.WithZap(), kernelfx.Plugin(greetModule(j)), fx.Supply(zap.New(info)),
		kernelfx.YAML([]byte("plugins: [{name: greet}]\n"))).RequireStart().RequireStop()
	require.Zero(t, infoLogs.FilterLoggerName("fx").Len(), "no fx line at info")
}
