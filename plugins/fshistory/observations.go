package fshistory

import (
	"time"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// observations is fs.DurableObservations over the store (docs/history.md "Observations across
// restarts"): an observation policy keeps there what durable owners (authenticated principals)
// observed. A store failure reads as "not observed" (the model re-reads) and is logged.
type observations struct {
	store history.Store
	log   *zap.Logger
	now   func() time.Time
}

var _ fs.DurableObservations = (*observations)(nil)

func (o *observations) Observation(owner string, key fs.TargetKey) (fs.Observation, bool) {
	kept, ok, err := o.store.Observation(owner, string(key))
	if err != nil {
		o.log.Warn("history: cannot read a kept observation", zap.Error(err))
		return fs.Observation{}, false
	}
	if !ok {
		return fs.Observation{}, false
	}
	return fs.Observation{Kind: fs.ObservationKind(kept.Kind), Version: fs.Version(kept.Version)}, true
}

func (o *observations) Observe(owner string, key fs.TargetKey, obs fs.Observation) {
	err := o.store.Observe(owner, string(key), history.Observed{Kind: string(obs.Kind), Version: string(obs.Version), Time: o.now()})
	if err != nil {
		o.log.Warn("history: cannot keep an observation", zap.Error(err))
	}
}
