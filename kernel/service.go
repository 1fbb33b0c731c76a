package kernel

import (
	"errors"
	"fmt"
	"maps"
)

// Dep names a service a module requires; see Module.Inject.
type Dep struct{ name string }

// Name returns the service name.
func (d Dep) Name() string { return d.name }

// Service is a typed service key, declared once in the seam package that owns the capability:
//
//	var Service = kernel.NewService[FileSystem]("fs")
//
// A provider calls Service.Provide(kc, impl) in its Apply; a consumer lists Service.Dep() in its
// module's Inject and calls Service.Must(kc), or probes an optional service with Get.
type Service[T any] struct{ name string }

type serviceEntry struct {
	name  string
	value any
	owner *Context
}

// NewService declares a service key. Keys with the same name address the same service.
func NewService[T any](name string) *Service[T] { return &Service[T]{name: name} }

// Name returns the service name.
func (s *Service[T]) Name() string { return s.name }

// Dep returns the dependency to list in Module.Inject.
func (s *Service[T]) Dep() Dep { return Dep{name: s.name} }

// Provide makes v the service, as an effect of kc's load. While another live instance provides
// the same name, Provide fails with an error matching ErrDuplicateService. When the effect is
// undone, every active dependent unloads (back to Pending) before the service disappears, so
// dependents may still use it in their own cleanup.
func (s *Service[T]) Provide(kc *Context, v T) (Disposer, error) {
	k := kc.k
	k.life.lock(kc)
	defer k.life.unlock()
	if !kc.alive.Load() {
		return nil, ErrInactive
	}
	e := &serviceEntry{name: s.name, value: v, owner: kc}
	k.svcMu.Lock()
	cur := *k.services.Load()
	if old := cur[s.name]; old != nil {
		k.svcMu.Unlock()
		return nil, &duplicateServiceError{name: s.name, owner: old.owner.f.String()}
	}
	next := maps.Clone(cur)
	next[s.name] = e
	k.services.Store(&next)
	k.svcMu.Unlock()
	eff, err := kc.addEffect("provide "+s.name, func() error { return k.withdraw(e) })
	if err != nil {
		k.removeService(e)
		return nil, err
	}
	return kc.disposer(eff), nil
}

// Get returns the service if an Active plugin provides it (or kc's own plugin does), like
// Cordis's ctx.get: a one-time probe that does not make the caller reload when the service comes
// or goes.
func (s *Service[T]) Get(kc *Context) (T, bool) {
	e := (*kc.k.services.Load())[s.name]
	if e == nil {
		var zero T
		return zero, false
	}
	// Visible once the provider is Active, and while it unloads so that dependents can still
	// reach it in their own cleanup.
	if st := e.owner.f.State(); st != Active && st != Unloading && e.owner.f != kc.f {
		var zero T
		return zero, false
	}
	v, ok := e.value.(T)
	return v, ok
}

// Must returns the service and panics when it is missing. Inside the Apply of a module that lists
// s.Dep() in Inject it never panics.
func (s *Service[T]) Must(kc *Context) T {
	v, ok := s.Get(kc)
	if !ok {
		panic(fmt.Sprintf("kernel: service %q is not provided", s.name))
	}
	return v
}

func (k *Kernel) withdraw(e *serviceEntry) error {
	k.life.lock(e.owner)
	defer k.life.unlock()
	var errs []error
	for _, f := range k.Fibers() {
		if f.State() == Active && f.dependsOn(e.name) {
			errs = append(errs, f.unload(Pending))
		}
	}
	k.removeService(e)
	return errors.Join(errs...)
}

func (k *Kernel) removeService(e *serviceEntry) {
	k.svcMu.Lock()
	defer k.svcMu.Unlock()
	cur := *k.services.Load()
	if cur[e.name] != e {
		return
	}
	next := maps.Clone(cur)
	delete(next, e.name)
	k.services.Store(&next)
}
