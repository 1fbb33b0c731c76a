package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// cwdKeys names, per catalog module, the config key the host fills with the working directory in an
// embedded profile (unless the profile sets it).
var cwdKeys = map[string]string{"fs-local": "cwd"}

// host is a composed kernel: the plugins of one composition, loaded and audited.
type host struct {
	k      *kernel.Kernel
	ld     *loader.Loader
	log    *zap.Logger
	source string // "profile <name>" or the --config path
}

// buildCatalog returns the host catalog: the stock plugins, then modules registered with
// kernel.Register (a stock id wins), then the host's extra modules (a duplicate is an error).
func buildCatalog(o *options) (*kernel.Catalog, error) {
	c := kernel.NewCatalog()
	for _, m := range stockModules() {
		if err := c.Register(m); err != nil {
			return nil, err
		}
	}
	for _, m := range kernel.DefaultCatalog().Modules() {
		if _, taken := c.Lookup(m.ID); !taken {
			if err := c.Register(m); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range o.modules {
		if err := c.Register(m); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// composition reads the entries to load: the --config file, or the selected embedded profile plus the
// host's appended entries, with the working directory filled in.
func composition(o *options, f *flags) ([]loader.Entry, string, error) {
	if f.config != "" {
		data, err := os.ReadFile(f.config)
		if err != nil {
			return nil, "", fmt.Errorf("--config: %w", err)
		}
		entries, err := loader.Parse(data)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", f.config, err)
		}
		return entries, f.config, nil
	}
	name := f.profile
	if name == "" {
		name = DefaultProfile
	}
	data, ok := o.profiles[name]
	if !ok {
		return nil, "", fmt.Errorf("--profile: unknown profile %q (known: %s)", name, joinNames(profileNames(o.profiles)))
	}
	entries, err := loader.Parse(data)
	if err != nil {
		return nil, "", fmt.Errorf("profile %s: %w", name, err)
	}
	entries = append(entries, o.appended...)
	for i := range entries {
		if key, ok := cwdKeys[entries[i].Name]; ok {
			if err := setDefaultKey(&entries[i], key, f.workdir); err != nil {
				return nil, "", err
			}
		}
	}
	return entries, "profile " + name, nil
}

// compose loads the composition into a new kernel and runs the boot audit: every enabled entry must
// be active. On failure the kernel is closed again.
func compose(ctx context.Context, o *options, f *flags, log *zap.Logger) (*host, error) {
	catalog, err := buildCatalog(o)
	if err != nil {
		return nil, err
	}
	entries, source, err := composition(o, f)
	if err != nil {
		return nil, err
	}
	k := kernel.New(kernel.WithLogger(log), kernel.WithCatalog(catalog))
	ld := loader.New(k)
	err = ld.Apply(ctx, entries)
	if err == nil {
		err = ld.Audit()
	}
	if err == nil {
		err = provideHostServices(k, f)
	}
	if err != nil {
		closeKernel(k, log)
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &host{k: k, ld: ld, log: log, source: source}, nil
}

// close disposes the plugin tree in reverse order, draining async listeners.
func (h *host) close() { closeKernel(h.k, h.log) }

func closeKernel(k *kernel.Kernel, log *zap.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := k.Close(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log.Warn("shutdown", zap.Error(err))
	}
}

// resolveWorkdir returns the absolute working directory: --cwd (which must be a directory) or the
// process's.
func resolveWorkdir(o *options, dir string) (string, error) {
	if dir == "" {
		return o.getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("--cwd: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("--cwd: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("--cwd %s: not a directory", abs)
	}
	return abs, nil
}
