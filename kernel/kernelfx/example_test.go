package kernelfx_test

import (
	"context"
	"fmt"
	"os"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// GreeterConfig is the config of the example's "greeter" module.
type GreeterConfig struct {
	Name string `yaml:"name"`
}

// Defaults fills GreeterConfig's defaults before the entry's config is decoded over them.
func (c *GreeterConfig) Defaults() { c.Name = "world" }

// Greeter is a module a plugin package would export, together with
// `var Module = fx.Module("greeter", kernelfx.Plugin(Greeter))`.
var Greeter = kernel.Define("greeter", func(kc *kernel.Context, cfg GreeterConfig) error {
	fmt.Printf("hello, %s (entry %s)\n", cfg.Name, kc.Fiber().Entry())
	return kc.OnDispose(func(context.Context) error {
		fmt.Printf("goodbye, %s\n", cfg.Name)
		return nil
	})
})

// A host composes plugin modules with a YAML composition: the fx app provides the kernel, loads
// the entries on start and disposes them in reverse on stop.
func Example() {
	const composition = `
plugins:
  - id: first
    name: greeter
    config: { name: Ada }
  - name: greeter
  - name: greeter
    disabled: true
`
	var l *loader.Loader
	app := fx.New(
		kernelfx.Module,
		kernelfx.WithZap(),
		fx.Module("greeter", kernelfx.Plugin(Greeter)),
		kernelfx.YAML([]byte(composition)),
		fx.Supply(zap.NewNop()),
		fx.Populate(&l),
	)
	if err := app.Start(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	tree, _ := l.Dump()
	os.Stdout.Write(tree)
	if err := app.Stop(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// hello, Ada (entry first)
	// hello, world (entry greeter)
	// plugins:
	//   - id: first # active
	//     name: greeter
	//     config: {name: Ada}
	//   - id: greeter # active
	//     name: greeter
	//   - id: greeter#2 # disabled
	//     name: greeter
	//     disabled: true
	// goodbye, world
	// goodbye, Ada
}
