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

// defaultJournal receives the default-catalog module's applies (init-time registration cannot
// capture a per-test journal).
var defaultJournal = &kerneltest.Journal{}

var defaultModule = kernel.Define("kernelfx-test-default", func(kc *kernel.Context, _ struct{}) error {
	defaultJournal.Add("apply %s", kc.Fiber().Entry())
	return kc.OnDispose(func(context.Context) error { defaultJournal.Add("dispose %s", kc.Fiber().Entry()); return nil })
})

func init() { kernel.Register(defaultModule) }

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
			{ID: "d", Name: "kernelfx-test-default"},
			{ID: "b", Name: "greet"},
		}),
		fx.Populate(&l, &k),
	)
	defaultJournal.Take()
	a.RequireStart()
	require.Equal(t, []string{"apply a hello (logger kernel.greet)", "apply b hello (logger kernel.greet)"}, j.Take())
	require.Equal(t, []string{"apply d"}, defaultJournal.Take(), "default-catalog modules are in the catalog")
	for _, s := range l.Status() {
		require.Equal(t, "active", s.State, s.ID)
	}
	_, ok := k.Catalog().Lookup("greet")
	require.True(t, ok)
	a.RequireStop()
	require.Equal(t, []string{"dispose b", "dispose a"}, j.Take())
	require.Equal(t, []string{"dispose d"}, defaultJournal.Take())
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

func TestDuplicateModuleIDFailsTheApp(t *testing.T) {
	j := &kerneltest.Journal{}
	other := kernel.Define("greet", func(*kernel.Context, struct{}) error { return nil })
	a := app(t, j, "plugins: []\n", kernelfx.Plugin(other))
	require.ErrorIs(t, a.Err(), kernelfx.ErrDuplicateModule)
	require.Contains(t, a.Err().Error(), `duplicate module id: "greet"`)

	clash := kernel.Define("kernelfx-test-default", func(*kernel.Context, struct{}) error { return nil })
	a = app(t, j, "plugins: []\n", kernelfx.Plugin(clash))
	require.ErrorIs(t, a.Err(), kernelfx.ErrDuplicateModule, "a group module may not shadow a different default-catalog module")
}

func TestSameModuleFromGroupAndDefaultCatalogIsOne(t *testing.T) {
	j := &kerneltest.Journal{}
	g := greetModule(j)
	a := fx.New(kernelfx.Module, kernelfx.Plugin(defaultModule), kernelfx.Plugin(g), kernelfx.Plugin(g),
		kernelfx.YAML([]byte("plugins: [{name: kernelfx-test-default}, {name: greet}]\n")),
		fx.Supply(zaptest.NewLogger(t)), fx.NopLogger)
	require.NoError(t, a.Err())
	require.NoError(t, a.Start(t.Context()))
	require.NoError(t, a.Stop(t.Context()))
}

func TestBuildCatalog(t *testing.T) {
	base := kernel.NewCatalog()
	m := kernel.Define("m", func(*kernel.Context, struct{}) error { return nil })
	require.NoError(t, base.Register(m))
	cat, err := kernelfx.BuildCatalog(base, []kernel.Module{m, kernel.Define("n", func(*kernel.Context, struct{}) error { return nil })})
	require.NoError(t, err)
	require.Len(t, cat.Modules(), 2)
	require.Len(t, base.Modules(), 1, "the base catalog is not modified")
	_, err = kernelfx.BuildCatalog(base, []kernel.Module{{ID: "Bad ID", Apply: m.Apply}})
	require.ErrorContains(t, err, `malformed module id "Bad ID"`)
}

func TestWithZapLogsFxEvents(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
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
}
