package kernelfx

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/cordon-dev/cordon/kernel"
)

// ErrDuplicateModule is matched (errors.Is) by the startup error of two different modules
// contributed under one id.
var ErrDuplicateModule = errors.New("duplicate module id")

// BuildCatalog returns a fresh catalog holding base's modules plus mods. The same module value
// contributed more than once (a plugin package that registers itself in init and also exports an
// fx Module, or a module listed twice) is kept once; two different modules with one id are an
// error matching ErrDuplicateModule. base is not modified.
func BuildCatalog(base *kernel.Catalog, mods []kernel.Module) (*kernel.Catalog, error) {
	cat := kernel.NewCatalog()
	seen := map[string]kernel.Module{}
	add := func(m kernel.Module, from string) error {
		if prev, dup := seen[m.ID]; dup {
			if sameModule(prev, m) {
				return nil
			}
			return fmt.Errorf("kernelfx: %w: %q (%s) is already taken by another module", ErrDuplicateModule, m.ID, from)
		}
		if err := cat.Register(m); err != nil {
			return fmt.Errorf("kernelfx: %s: %w", from, err)
		}
		seen[m.ID] = m
		return nil
	}
	if base != nil {
		for _, m := range base.Modules() {
			if err := add(m, "default catalog"); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range mods {
		if err := add(m, "group "+Group); err != nil {
			return nil, err
		}
	}
	return cat, nil
}

// sameModule reports whether a and b are copies of one module value. Func values are not
// comparable in Go, and reflect reports only the code pointer, which every closure built by
// kernel.Define shares; the func value's own word (the closure it points to) differs between two
// Define calls and is equal in copies of one Module. Copies share it because a Module is copied
// by value, funcs included.
func sameModule(a, b kernel.Module) bool {
	return a.ID == b.ID && funcWord(a.Apply) == funcWord(b.Apply)
}

func funcWord(f func(*kernel.Context, any) error) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&f))
}
