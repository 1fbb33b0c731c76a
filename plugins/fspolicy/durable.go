package fspolicy

import "github.com/cordon-dev/cordon/plugins/fs"

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
