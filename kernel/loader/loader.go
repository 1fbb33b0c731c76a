package loader

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cordon-dev/cordon/kernel"
	"go.uber.org/zap"
)

// Loader keeps a kernel's top-level plugin instances in step with a composition. It is safe for
// concurrent use; Apply calls are serialised.
type Loader struct {
	k   *kernel.Kernel
	log *zap.Logger

	mu      sync.Mutex
	entries []Entry          // the last applied composition, ids resolved
	slots   map[string]*slot // live entries by id (enabled ones only)
}

// slot is one enabled entry and the fiber that runs it.
type slot struct {
	entry Entry
	mod   kernel.Module
	cfg   any
	rank  int
	fiber *kernel.Fiber
}

// New returns a loader that loads entries as children of k's root, looking names up in
// k.Catalog().
func New(k *kernel.Kernel) *Loader {
	return &Loader{k: k, log: k.Logger().Named("loader"), slots: map[string]*slot{}}
}

// Kernel returns the kernel the loader drives.
func (l *Loader) Kernel() *kernel.Kernel { return l.k }

// Entries returns the last applied composition with ids resolved.
func (l *Loader) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Entry(nil), l.entries...)
}

// Fiber returns the live instance of the entry with the given id, or nil when the entry is absent
// or disabled.
func (l *Loader) Fiber(id string) *kernel.Fiber {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.slots[id]; s != nil {
		return s.fiber
	}
	return nil
}

// prepared is a checked entry of the new composition.
type prepared struct {
	entry Entry
	mod   kernel.Module
	cfg   any
}

// Prepare resolves ids and checks every entry against catalog without loading anything: unknown
// names, duplicate ids, config keys the module does not declare and configs that fail Validate
// are *EntryError values (joined when there are several). Disabled entries are checked too.
func Prepare(catalog *kernel.Catalog, entries []Entry) ([]Entry, error) {
	_, resolved, err := prepare(catalog, entries)
	return resolved, err
}

func prepare(catalog *kernel.Catalog, entries []Entry) ([]prepared, []Entry, error) {
	resolved, err := ResolveIDs(entries)
	if err != nil {
		return nil, nil, err
	}
	out := make([]prepared, len(resolved))
	var errs []error
	for i, e := range resolved {
		if e.Name == "" {
			errs = append(errs, &EntryError{Index: i, ID: e.ID, Err: ErrNoName})
			continue
		}
		m, ok := catalog.Lookup(e.Name)
		if !ok {
			errs = append(errs, &EntryError{Index: i, ID: e.ID, Name: e.Name, Err: ErrUnknownModule})
			continue
		}
		cfg, err := DecodeConfig(m, &e.Config)
		if err != nil {
			errs = append(errs, &EntryError{Index: i, ID: e.ID, Name: e.Name, Err: fmt.Errorf("config: %w", err)})
			continue
		}
		out[i] = prepared{entry: e, mod: m, cfg: cfg}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return out, resolved, nil
}

// Apply makes the running tree match entries, by id. Every entry is checked first (see Prepare);
// if any check fails nothing is touched. Then entries that are gone or now disabled are disposed
// (last first), entries whose config changed are restarted with Fiber.Update, and new or
// re-enabled entries are loaded in order, each with kernel.Rank and kernel.EntryID. An entry keeps
// its rank, and so its listeners' place, while the entries around it come and go; an entry that
// moved past a kept neighbour, or whose name changed, is disposed and loaded again.
//
// Apply is transactional: if a load or restart fails, or an instance of the composition ends
// Failed because of it (a dependent whose Apply fails once its provider arrives or changes), every
// step already taken is undone in reverse (removed entries load again with their previous config
// and rank, dependents that failed start again) and the error, an *EntryError naming the entry,
// is returned. An entry left Pending (missing services) is not a failure; see Audit. ctx is
// checked between steps; cancelling it rolls back like a failure.
func (l *Loader) Apply(ctx context.Context, entries []Entry) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	next, resolved, err := prepare(l.k.Catalog(), entries)
	if err != nil {
		return err
	}
	p := l.plan(next)
	if err := l.run(ctx, p); err != nil {
		return err
	}
	l.entries = resolved
	l.slots = p.slots
	return nil
}

// plan is the diff between the live slots and a prepared composition.
type plan struct {
	removes []*slot  // live slots to dispose, in composition order
	updates []update // kept slots whose config changed
	loads   []*slot  // slots to load, in composition order
	order   []*slot  // every enabled slot of the new composition, in order
	slots   map[string]*slot
}

type update struct {
	s      *slot
	oldCfg any
	newCfg any
	oldEnt Entry
	newEnt Entry
}

func (l *Loader) plan(next []prepared) plan {
	p := plan{slots: map[string]*slot{}}
	old := make([]*int, len(next))
	for i, n := range next {
		if s := l.slots[n.entry.ID]; s != nil && !n.entry.Disabled && s.entry.Name == n.entry.Name &&
			s.fiber.State() != kernel.Disposed { // an instance that disposed itself loads again
			r := s.rank
			old[i] = &r
		}
	}
	ranks, kept := placeRanks(old)
	keep := map[string]bool{}
	for i, n := range next {
		if n.entry.Disabled {
			continue
		}
		if kept[i] {
			s := l.slots[n.entry.ID]
			keep[n.entry.ID] = true
			p.slots[n.entry.ID] = s
			p.order = append(p.order, s)
			if !sameConfig(&s.entry.Config, &n.entry.Config) {
				p.updates = append(p.updates, update{s: s, oldCfg: s.cfg, newCfg: n.cfg, oldEnt: s.entry, newEnt: n.entry})
			} else {
				s.entry = n.entry // same data; keep the newest source positions
			}
			continue
		}
		s := &slot{entry: n.entry, mod: n.mod, cfg: n.cfg, rank: ranks[i]}
		p.slots[n.entry.ID] = s
		p.order = append(p.order, s)
		p.loads = append(p.loads, s)
	}
	for _, e := range l.entries {
		if s := l.slots[e.ID]; s != nil && !keep[e.ID] {
			p.removes = append(p.removes, s)
		}
	}
	return p
}

// run executes a plan, undoing the steps taken when one fails. An instance that ends Failed
// because of the plan (a dependent whose Apply fails once its provider arrives or restarts) fails
// the plan too.
func (l *Loader) run(ctx context.Context, p plan) error {
	failedBefore := map[*kernel.Fiber]bool{}
	for _, s := range l.slots {
		if s.fiber.State() == kernel.Failed {
			failedBefore[s.fiber] = true
		}
	}
	var undo []func()
	fail := func(err error) error {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		// A dependent that failed when its provider changed stays Failed when the provider comes
		// back; give it one more start with its previous config.
		for _, s := range l.slots {
			if s.fiber.State() == kernel.Failed && !failedBefore[s.fiber] {
				if err := s.fiber.Update(s.cfg); err != nil {
					l.log.Error("restore failed", zap.String("entry", s.entry.ID), zap.Error(err))
				}
			}
		}
		return err
	}
	for i := len(p.removes) - 1; i >= 0; i-- {
		s := p.removes[i]
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := s.fiber.Dispose(); err != nil {
			// The instance is gone whatever its cleanup reported; log and go on.
			l.log.Warn("dispose reported errors", zap.String("entry", s.entry.ID), zap.Error(err))
		}
		undo = append(undo, func() { l.reload(s) })
	}
	for _, u := range p.updates {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := u.s.fiber.Update(u.newCfg); err != nil {
			_ = u.s.fiber.Update(u.oldCfg)
			return fail(l.entryErr(u.newEnt, err))
		}
		u.s.cfg, u.s.entry = u.newCfg, u.newEnt
		undo = append(undo, func() {
			u.s.cfg, u.s.entry = u.oldCfg, u.oldEnt
			if err := u.s.fiber.Update(u.oldCfg); err != nil {
				l.log.Error("restore failed", zap.String("entry", u.oldEnt.ID), zap.Error(err))
			}
		})
	}
	for _, s := range p.loads {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := l.load(s); err != nil {
			return fail(l.entryErr(s.entry, err))
		}
		undo = append(undo, func() { _ = s.fiber.Dispose() })
	}
	for _, s := range p.order {
		if s.fiber.State() == kernel.Failed && !failedBefore[s.fiber] {
			return fail(l.entryErr(s.entry, s.fiber.Err()))
		}
	}
	return nil
}

// load starts s; a failed instance is disposed again so that it leaves no trace in the tree.
func (l *Loader) load(s *slot) error {
	f, err := l.k.Root().Load(s.mod, s.cfg, kernel.Rank(s.rank), kernel.EntryID(s.entry.ID))
	if err != nil {
		if f != nil {
			_ = f.Dispose()
		}
		return err
	}
	s.fiber = f
	return nil
}

// reload restores a disposed slot during rollback.
func (l *Loader) reload(s *slot) {
	if err := l.load(s); err != nil {
		l.log.Error("restore failed", zap.String("entry", s.entry.ID), zap.Error(err))
	}
}

// entryErr names the entry of a failed step (ids are resolved by then, so no index is needed).
func (l *Loader) entryErr(e Entry, err error) error {
	return &EntryError{Index: -1, ID: e.ID, Name: e.Name, Err: err}
}
