package toolfs

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ID is the catalog name of the plugin.
const ID = "tool-fs"

// Plugin is the tool-fs module. It stays pending until both the fs and the tools services exist,
// then registers read, write and edit (with their guidance sections) as effects of its own
// context, and read_image while an attachments service is mounted: disposing the plugin removes
// them all.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// suite is one loaded instance: the services it uses and its resolved caps.
type suite struct {
	kc   *kernel.Context
	fs   fs.FileSystem
	caps caps
	ft   *filetool.Env
	// warned holds each session's last write refused for dropping lines (writeguard.go).
	warned warned
}

func apply(kc *kernel.Context, cfg Config) error {
	ft, err := filetool.NewEnv(kc)
	if err != nil {
		return err
	}
	s := &suite{kc: kc, fs: ft.FS, caps: cfg.caps(), ft: ft}
	rt := tools.Service.Must(kc)
	if _, err := tools.SessionEnded.On(kc, func(_ context.Context, ss *tools.Session) error {
		s.warned.forget(ss)
		return nil
	}); err != nil {
		return err
	}
	for _, def := range []tools.Definition{s.readDefinition(), s.writeDefinition(), s.editDefinition()} {
		if _, err := rt.Register(kc, def); err != nil {
			return err
		}
	}
	return s.mountReadImage(kc)
}
