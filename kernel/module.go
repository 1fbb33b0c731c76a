package kernel

import (
	"fmt"
	"regexp"
	"sort"
	"sync"
)

// Module is a plugin: what a composition entry names. Modules are values; a module loaded twice
// yields two plugin instances (fibers).
type Module struct {
	// ID is the catalog name, lower-case words joined by '-', '.', '_' or '/' (for example "fs-local").
	ID string
	// Inject lists the services the module requires. An instance stays Pending until every one is
	// provided by an active plugin, unloads when one goes away and loads again when it returns.
	Inject []Dep
	// NewConfig returns a pointer to a fresh, defaulted config value for strict decoding. May be nil
	// for modules without configuration.
	NewConfig func() any
	// Apply registers the instance's listeners, services and children against kc. Whatever it
	// registered is undone, in reverse order, when the instance unloads or Apply fails.
	Apply func(kc *Context, cfg any) error
}

// Validator is implemented by config values that check themselves before Apply runs.
type Validator interface{ Validate() error }

// Defaulter is implemented by config pointers that fill their defaults before decoding.
type Defaulter interface{ Defaults() }

// Define builds a Module with a typed config C. NewConfig returns a *C (with Defaults applied when
// *C implements Defaulter); Load accepts nil, C or *C; Validate runs before apply when C or *C
// implements Validator.
//
//	var Plugin = kernel.Define("greeter", func(kc *kernel.Context, cfg Config) error {
//		_, err := Hello.On(kc, func(ctx context.Context, name string) error { return nil })
//		return err
//	})
func Define[C any](id string, apply func(kc *Context, cfg C) error, deps ...Dep) Module {
	newCfg := func() any {
		c := new(C)
		if d, ok := any(c).(Defaulter); ok {
			d.Defaults()
		}
		return c
	}
	return Module{
		ID:        id,
		Inject:    deps,
		NewConfig: newCfg,
		Apply: func(kc *Context, raw any) error {
			var c *C
			switch v := raw.(type) {
			case nil:
				c = newCfg().(*C)
			case *C:
				c = v
			case C:
				c = &v
			default:
				return fmt.Errorf("module %s: config has type %T, want %T", id, raw, c)
			}
			if v, ok := any(c).(Validator); ok {
				if err := v.Validate(); err != nil {
					return err
				}
			}
			return apply(kc, *c)
		},
	}
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+([-._/][a-z0-9]+)*$`)

func (m Module) check() error {
	if !idPattern.MatchString(m.ID) {
		return fmt.Errorf("kernel: malformed module id %q", m.ID)
	}
	if m.Apply == nil {
		return fmt.Errorf("kernel: module %q has no Apply", m.ID)
	}
	return nil
}

// Catalog maps module ids to modules, like Caddy's module registry.
type Catalog struct {
	mu   sync.RWMutex
	mods map[string]Module
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog { return &Catalog{mods: map[string]Module{}} }

// Register adds m; a malformed or duplicate id is an error.
func (c *Catalog) Register(m Module) error {
	if err := m.check(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.mods[m.ID]; dup {
		return fmt.Errorf("kernel: module %q already registered", m.ID)
	}
	c.mods[m.ID] = m
	return nil
}

// Lookup returns the module registered under id.
func (c *Catalog) Lookup(id string) (Module, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, ok := c.mods[id]
	return m, ok
}

// Modules returns every registered module sorted by id.
func (c *Catalog) Modules() []Module {
	c.mu.RLock()
	out := make([]Module, 0, len(c.mods))
	for _, m := range c.mods {
		out = append(out, m)
	}
	c.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
