package fspolicy

import (
	"context"
	"reflect"
	"sync"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Owner is what an actor implements to name the agent session it runs in.
// SessionKey returns an opaque, comparable identity (tool-fs passes a
// *tools.Exec, whose SessionKey is its *tools.Session), or nil when the call
// has no agent session. The policy never inspects the key.
type Owner interface {
	SessionKey() any
}

// Policy is one instance's observed state: owner -> (target key ->
// last observation). It does no I/O and registers no service.
type Policy struct {
	mu     sync.Mutex
	rule   Staleness
	owners map[any]map[fs.TargetKey]fs.Observation
	text   map[any]int     // seen text kept per owner (bounded by MaxOwnerText)
	kc     *kernel.Context // where fs.DurableObservationsService is looked up (find, keep, durable); nil: never
}

// New returns an empty, unattached Policy under the default rule (content).
func New() *Policy { return NewWith(StalenessContent) }

// NewWith returns an empty, unattached Policy under rule.
func NewWith(rule Staleness) *Policy {
	return &Policy{rule: rule, owners: make(map[any]map[fs.TargetKey]fs.Observation), text: make(map[any]int)}
}

// Install creates a Policy and registers it in kc: deciders on
// fs.WriteIntentEvent and fs.EditIntentEvent, a recorder on fs.ObservedEvent,
// a listener on tools.SessionEnded that calls EndSession, and a dispose
// effect that drops all state. The rule is content (the default).
func Install(kc *kernel.Context) (*Policy, error) { return InstallWith(kc, StalenessContent) }

// InstallWith is Install under rule.
func InstallWith(kc *kernel.Context, rule Staleness) (*Policy, error) {
	p := NewWith(rule)
	p.kc = kc
	if _, err := fs.WriteIntentEvent.Decide(kc, p.decideWrite); err != nil {
		return nil, err
	}
	if _, err := fs.EditIntentEvent.Decide(kc, p.decideEdit); err != nil {
		return nil, err
	}
	if _, err := fs.ObservedEvent.On(kc, p.onObserved); err != nil {
		return nil, err
	}
	if _, err := tools.SessionEnded.On(kc, func(_ context.Context, s *tools.Session) error {
		if s != nil {
			p.EndSession(s)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := kc.OnDispose(func(context.Context) error { p.Reset(); return nil }); err != nil {
		return nil, err
	}
	return p, nil
}

// ownerOf derives the owner of an actor: its SessionKey when the actor is an
// Owner and the key is a non-nil comparable value. An actor whose SessionKey
// panics (e.g. a typed nil pointer) has no owner.
func ownerOf(actor any) (any, bool) {
	o, ok := actor.(Owner)
	if !ok {
		return nil, false
	}
	key := safeKey(o)
	if key == nil {
		return nil, false
	}
	kv := reflect.ValueOf(key)
	if !kv.Type().Comparable() {
		return nil, false
	}
	switch kv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.Slice:
		if kv.IsNil() {
			return nil, false
		}
	}
	return key, true
}

func safeKey(o Owner) (key any) {
	defer func() {
		if recover() != nil {
			key = nil
		}
	}()
	return o.SessionKey()
}

// lookup returns the owner's last observation of key.
func (p *Policy) lookup(owner any, key fs.TargetKey) (fs.Observation, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	obs, ok := p.owners[owner][key]
	return obs, ok
}

// decideWrite is the fs/write-intent decider: replaceIfVersion at the owner's
// present version, createIfAbsent otherwise (no owner, unseen, absent). Under
// content and region the intent carries the Recheck of what was seen.
func (p *Policy) decideWrite(_ context.Context, a fs.IntentArgs) (*fs.WriteIntent, error) {
	if owner, ok := ownerOf(a.Actor); ok {
		if obs, ok := p.find(a.Actor, owner, a.Target.Key); ok && obs.Kind == fs.ObservedPresent {
			in := fs.ReplaceIfVersion(obs.Version)
			in.Recheck = p.recheckOf(owner, a.Target, obs)
			in.Seen = obs.Seen
			return in, nil
		}
	}
	return fs.CreateIfAbsent(), nil
}

// decideEdit is the fs/edit-intent decider: a guard at the owner's present
// version; FS_NOT_FOUND after a recorded absence; FS_NOT_OBSERVED with no
// owner or no record.
func (p *Policy) decideEdit(_ context.Context, a fs.IntentArgs) (*fs.EditGuard, error) {
	owner, ok := ownerOf(a.Actor)
	if !ok {
		return nil, fs.EditNotObserved(a.Target.DisplayPath)
	}
	obs, ok := p.find(a.Actor, owner, a.Target.Key)
	switch {
	case !ok:
		return nil, fs.EditNotObserved(a.Target.DisplayPath)
	case obs.Kind == fs.ObservedPresent:
		return &fs.EditGuard{Version: obs.Version, Recheck: p.recheckOf(owner, a.Target, obs)}, nil
	}
	return nil, fs.EditNotFound(a.Target.DisplayPath)
}

// onObserved records the observation under (owner, key), last one wins. It
// records nothing without an owner and never fails.
func (p *Policy) onObserved(_ context.Context, a fs.ObservedArgs) error {
	p.Record(a.Actor, a.Target.Key, a.Observation)
	p.keep(a.Actor, a.Target.Key, a.Observation)
	return nil
}

// Record stores obs as actor's owner's last observation of key (what an
// fs/observed event does). It does nothing when no owner can be derived. What
// was seen accumulates while the version stays (see merge).
func (p *Policy) Record(actor any, key fs.TargetKey, obs fs.Observation) {
	owner, ok := ownerOf(actor)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.recordLocked(owner, key, obs)
}

// recordLocked is Record for owner, under p.mu.
func (p *Policy) recordLocked(owner any, key fs.TargetKey, obs fs.Observation) {
	m := p.owners[owner]
	if m == nil {
		m = make(map[fs.TargetKey]fs.Observation)
		p.owners[owner] = m
	}
	prev := m[key]
	next := merge(prev, obs)
	if p.text[owner]-keptText(prev)+keptText(next) > MaxOwnerText {
		next = withoutText(next)
	}
	p.text[owner] += keptText(next) - keptText(prev)
	m[key] = next
}

// EndSession drops every observation of the owner whose SessionKey is key
// (for tool-fs: the *tools.Session). The "tools/session-ended" event calls it.
func (p *Policy) EndSession(key any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	func() {
		defer func() { _ = recover() }() // a non-comparable key owns nothing
		delete(p.owners, key)
		delete(p.text, key)
	}()
}

// Reset drops all state (what disposal does).
func (p *Policy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.owners)
	clear(p.text)
}

// Owners returns how many owners have recorded observations.
func (p *Policy) Owners() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.owners)
}

// find is lookup, then, for an actor with a durable owner (fs.DurableOwner), the observation kept
// by fs.DurableObservationsService when one is composed (docs/history.md "Observations across
// restarts"): what the owner read before a restart still authorizes its writes, at the version it
// saw.
func (p *Policy) find(actor, owner any, key fs.TargetKey) (fs.Observation, bool) {
	if obs, ok := p.lookup(owner, key); ok {
		return obs, true
	}
	name, store := p.durable(actor)
	if store == nil {
		return fs.Observation{}, false
	}
	return store.Observation(name, key)
}

// keep passes an observation of an actor with a durable owner to the durable store.
func (p *Policy) keep(actor any, key fs.TargetKey, obs fs.Observation) {
	if name, store := p.durable(actor); store != nil {
		store.Observe(name, key, obs)
	}
}

// durable returns the actor's durable owner and the store, or a nil store.
func (p *Policy) durable(actor any) (string, fs.DurableObservations) {
	d, ok := actor.(fs.DurableOwner)
	if !ok || p.kc == nil {
		return "", nil
	}
	name := d.DurableOwner()
	if name == "" {
		return "", nil
	}
	store, ok := fs.DurableObservationsService.Get(p.kc)
	if !ok || store == nil {
		return "", nil
	}
	return name, store
}
