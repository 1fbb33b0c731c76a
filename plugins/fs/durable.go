package fs

import "github.com/cordon-dev/cordon/kernel"

// DurableObservations is an optional service an observation policy consults for owners that
// outlive a process (docs/history.md "Observations across restarts"): what such an owner observed
// of a target, kept across restarts. A kept observation authorizes what it authorized before the
// restart and nothing more: a replacement is still guarded by the version it names.
type DurableObservations interface {
	// Observation returns owner's last kept observation of key.
	Observation(owner string, key TargetKey) (Observation, bool)
	// Observe keeps obs as owner's last observation of key.
	Observe(owner string, key TargetKey, obs Observation)
}

// DurableObservationsService is the service key ("durableObservations"); fs-history provides it.
var DurableObservationsService = kernel.NewService[DurableObservations]("durableObservations")

// DurableOwner is implemented by an actor whose owner outlives the process: DurableOwner names it
// ("" when the actor's owner is per process, e.g. a stdio or unauthenticated session).
type DurableOwner interface {
	DurableOwner() string
}
