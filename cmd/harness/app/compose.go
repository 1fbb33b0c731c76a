package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// cwdKeys names, per catalog module, the config key the host fills with the working directory in an
// embedded profile (unless the profile sets it).
var cwdKeys = map[string]string{"fs-local": "cwd", "fs-sandbox": "cwd", "sandbox-policy": "workspaceRoot"}

// host is a composed kernel: the plugins of one composition, loaded and audited.
type host struct {
	app    *fx.App
	k      *kernel.Kernel
	ld     *loader.Loader
	log    *zap.Logger
	source string // "profile <name>" or the --config path
}

// catalogModules are the plugins' fx modules the host includes: the stock plugins, then the extra
// ones.
func catalogModules(o *options) []fx.Option {
	return append(stockModules(), o.modules...)
}

// buildCatalog returns the catalog the kernel will have: what the stock plugins and the host's
// extra plugins contribute (two contributions under one id are an error).
func buildCatalog(o *options) (*kernel.Catalog, error) {
	return kernelfx.Catalog(catalogModules(o)...)
}

// composition reads the entries to load: the --config file, or the selected embedded profile plus the
// host's appended entries, with the working directory filled in.
func composition(o *options, f *flags) ([]loader.Entry, string, error) {
	entries, source, err := composed(o, f)
	if err != nil {
		return nil, "", err
	}
	if err := f.roots.check(f.workdir, confines(entries)); err != nil {
		return nil, "", err
	}
	if err := f.roots.apply(entries); err != nil {
		return nil, "", err
	}
	return entries, source, nil
}

// composed reads the entries of the composition before the root flags apply.
func composed(o *options, f *flags) ([]loader.Entry, string, error) {
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

// compose builds the process with fx (kernelfx.Module plus the plugins' fx modules),
// starts it (the composition is applied and audited: every enabled entry must be active), and adds
// the host's own services. On failure everything loaded is disposed again.
func compose(ctx context.Context, o *options, f *flags, log *zap.Logger) (*host, error) {
	if _, err := buildCatalog(o); err != nil { // the same check kernelfx makes, without fx's wrapping
		return nil, err
	}
	entries, source, err := composition(o, f)
	if err != nil {
		return nil, err
	}
	h := &host{log: log, source: source}
	opts := []fx.Option{
		kernelfx.WithZap(), // fx's events at debug level; the host reports start errors itself
		fx.Supply(log, kernelfx.Composition(entries)),
		kernelfx.Module,
		fx.Populate(&h.k, &h.ld),
	}
	h.app = fx.New(append(opts, catalogModules(o)...)...)
	if err := h.app.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, rootCause(err))
	}
	if err := h.app.Start(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", source, rootCause(err))
	}
	if err := provideHostServices(h.k, f, log); err != nil {
		h.close()
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return h, nil
}

// close disposes the plugin tree in reverse order, draining async listeners.
func (h *host) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.app.Stop(ctx); err != nil && !errors.Is(err, context.Canceled) {
		h.log.Warn("shutdown", zap.Error(err))
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

// rootCause strips fx's wrapping ("OnStart hook added by ... failed: ...") down to the error the
// composition produced, which names the entry; other errors are returned unchanged.
func rootCause(err error) error {
	var entryErr *loader.EntryError
	if errors.As(err, &entryErr) {
		return entryErr
	}
	var auditErr *loader.AuditError
	if errors.As(err, &auditErr) {
		return auditErr
	}
	return err
}
