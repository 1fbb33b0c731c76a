package toolstest

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Session returns a session with the given id and header.
func Session(id string, h tools.Header) *tools.Session {
	s := tools.NewSession(id)
	s.SetHeader(h)
	return s
}

// Tools returns a plugin module, named id, that registers defs with the tools runtime against its
// own context when it loads (so disposing it removes them). It waits for the runtime.
func Tools(id string, defs ...tools.Definition) kernel.Module {
	return kernel.Define(id, func(kc *kernel.Context, _ struct{}) error {
		rt := tools.Service.Must(kc)
		for _, d := range defs {
			if _, err := rt.Register(kc, d); err != nil {
				return err
			}
		}
		return nil
	}, tools.Service.Dep())
}

// ProvideApproval returns a plugin module, named id, that provides a as the approval service.
func ProvideApproval(id string, a tools.Approver) kernel.Module {
	return kernel.Define(id, func(kc *kernel.Context, _ struct{}) error {
		_, err := tools.Approval.Provide(kc, a)
		return err
	})
}

// ProvideModels returns a plugin module, named id, that provides c as the model catalog.
func ProvideModels(id string, c tools.ModelCatalog) kernel.Module {
	return kernel.Define(id, func(kc *kernel.Context, _ struct{}) error {
		_, err := tools.Models.Provide(kc, c)
		return err
	})
}

// Decide returns a plugin module, named id, whose pre-execute decider answers decide(exec) for
// every call (an Ask goes to the approval service).
func Decide(id string, decide func(*tools.Exec) tools.Decision) kernel.Module {
	return kernel.Define(id, func(kc *kernel.Context, _ struct{}) error {
		_, err := tools.PreExecute.Decide(kc, func(_ context.Context, e *tools.Exec) (tools.Decision, error) {
			return decide(e), nil
		})
		return err
	})
}
