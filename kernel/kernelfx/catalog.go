package kernelfx

import (
	"errors"
	"fmt"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
)

// ErrDuplicateModule is matched (errors.Is) by the startup error of two contributions under one
// module id.
var ErrDuplicateModule = errors.New("duplicate module id")

// DuplicateModuleError is the error of two contributions (two Plugin calls) under one module id.
type DuplicateModuleError struct{ ID string }

func (e *DuplicateModuleError) Error() string {
	return fmt.Sprintf("kernelfx: %v: %q (group %s) is already taken by another contribution; include each plugin's fx Module once",
		ErrDuplicateModule, e.ID, Group)
}

// Is reports whether target is ErrDuplicateModule.
func (e *DuplicateModuleError) Is(target error) bool { return target == ErrDuplicateModule }

// contribution is what Plugin adds to the group. Its address is the contribution's identity: fx
// hands a group one copy of a value per time its option is included, and an fx module that reaches
// the app twice (listed twice, or nested in two bundles) contributes the same pointer twice. A
// kernel.Module cannot serve as that identity: its Apply is a func, and funcs are not comparable.
type contribution struct{ m kernel.Module }

type catalogParams struct {
	fx.In
	Contributions []*contribution `group:"kernel.modules"`
}

// newCatalog builds the catalog from the group: every contribution once, and two contributions
// under one id an error.
func newCatalog(p catalogParams) (*kernel.Catalog, error) {
	cat := kernel.NewCatalog()
	seen := map[*contribution]bool{}
	for _, c := range p.Contributions {
		if seen[c] {
			continue
		}
		seen[c] = true
		if _, taken := cat.Lookup(c.m.ID); taken {
			return nil, &DuplicateModuleError{ID: c.m.ID}
		}
		if err := cat.Register(c.m); err != nil {
			return nil, fmt.Errorf("kernelfx: group %s: %w", Group, err)
		}
	}
	return cat, nil
}

// Catalog returns the catalog Module would give the kernel for the plugins' fx modules, without
// building a kernel or running anything else: for hosts that list what they can load. A
// duplicate id is a *DuplicateModuleError, unwrapped from fx's report.
func Catalog(plugins ...fx.Option) (*kernel.Catalog, error) {
	var cat *kernel.Catalog
	app := fx.New(fx.NopLogger, fx.Options(plugins...), fx.Provide(newCatalog), fx.Populate(&cat))
	if err := app.Err(); err != nil {
		if de := (*DuplicateModuleError)(nil); errors.As(err, &de) {
			return nil, de
		}
		return nil, err
	}
	return cat, nil
}
