package loader_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

// greetConfig is a config with defaults, a nested struct and validation.
type greetConfig struct {
	Greeting string `yaml:"greeting"`
	Fail     bool   `yaml:"fail"`
	Nested   struct {
		Depth int `yaml:"depth"`
	} `yaml:"nested"`
}

func (c *greetConfig) Defaults() { c.Greeting = "hello" }

func (c greetConfig) Validate() error {
	if c.Greeting == "" {
		return errors.New("greeting must not be empty")
	}
	return nil
}

// svc is a toy service that "consumer" injects and "provider" provides.
var svc = kernel.NewService[string]("svc")

// decision is a toy single-slot seam: the policy decides, the inner default is "default".
var decision = kernel.NewWaterfall[string, string]("test/decision", kernel.SingleSlot())

type deciderConfig struct {
	Answer string `yaml:"answer"`
}

type providerConfig struct {
	Value string `yaml:"value"`
}

func (c *providerConfig) Defaults() { c.Value = "value" }

// provider provides svc with its configured value.
var provider = kernel.Define("provider", func(kc *kernel.Context, cfg providerConfig) error {
	_, err := svc.Provide(kc, cfg.Value)
	return err
})

// newCatalog returns a catalog of toy modules that write to j.
func newCatalog(t testing.TB, j *kerneltest.Journal) *kernel.Catalog {
	t.Helper()
	greet := kernel.Define("greet", func(kc *kernel.Context, cfg greetConfig) error {
		entry := kc.Fiber().Entry()
		if cfg.Fail {
			j.Add("fail %s", entry)
			return errors.New("greet refused to start")
		}
		j.Add("apply %s %s", entry, cfg.Greeting)
		return kc.OnDispose(func(context.Context) error { j.Add("dispose %s", entry); return nil })
	})
	bare := kernel.Module{ID: "bare", Apply: func(kc *kernel.Context, _ any) error {
		j.Add("apply %s", kc.Fiber().Entry())
		return nil
	}}
	consumer := kernel.Define("consumer", func(kc *kernel.Context, cfg greetConfig) error {
		if cfg.Fail {
			return errors.New("consumer refused to start")
		}
		if v := svc.Must(kc); v == "poison" {
			return fmt.Errorf("consumer refused service value %q", v)
		}
		j.Add("consume %s %s", kc.Fiber().Entry(), svc.Must(kc))
		return nil
	}, svc.Dep())
	decider := kernel.Define("decider", func(kc *kernel.Context, cfg deciderConfig) error {
		_, err := decision.Decide(kc, func(context.Context, string) (string, error) { return cfg.Answer, nil })
		return err
	})
	cat := kernel.NewCatalog()
	for _, m := range []kernel.Module{greet, bare, provider, consumer, decider} {
		require.NoError(t, cat.Register(m))
	}
	return cat
}

// newLoader returns a loader over a test kernel with the toy catalog.
func newLoader(t testing.TB) (*loader.Loader, *kerneltest.Journal) {
	t.Helper()
	j := &kerneltest.Journal{}
	k := kerneltest.NewKernel(t, kernel.WithCatalog(newCatalog(t, j)))
	return loader.New(k), j
}

// parse parses a composition and fails the test on error.
func parse(t testing.TB, src string) []loader.Entry {
	t.Helper()
	entries, err := loader.Parse([]byte(src))
	require.NoError(t, err)
	return entries
}

// decide runs the toy waterfall.
func decide(t testing.TB, l *loader.Loader) string {
	t.Helper()
	got, err := decision.Run(context.Background(), l.Kernel().Root(), "q", func() (string, error) { return "default", nil })
	require.NoError(t, err)
	return got
}

func errorsAs[T error](err error, target *T) bool { return errors.As(err, target) }
