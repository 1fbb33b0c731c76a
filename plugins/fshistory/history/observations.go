package history

import (
	"encoding/json"

	bolt "go.etcd.io/bbolt"
)

// observationsBucket keeps observations by owner NUL target key.
var observationsBucket = []byte("observations")

func observationKey(owner, key string) []byte { return []byte(owner + "\x00" + key) }

func (s *boltStore) Observation(owner, key string) (Observed, bool, error) {
	var o Observed
	found := false
	err := s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			b := tx.Bucket(observationsBucket)
			if b == nil {
				return nil
			}
			v := b.Get(observationKey(owner, key))
			if v == nil {
				return nil
			}
			found = true
			return json.Unmarshal(v, &o)
		})
	})
	if err == nil && found && s.limits.MaxAge > 0 && o.Time.Before(s.now().Add(-s.limits.MaxAge)) {
		return Observed{}, false, nil
	}
	return o, found && err == nil, err
}

func (s *boltStore) Observe(owner, key string, o Observed) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return s.open(true, func(db *bolt.DB) error {
		return db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists(observationsBucket)
			if err != nil {
				return err
			}
			return b.Put(observationKey(owner, key), data)
		})
	})
}

// pruneObservations deletes the observations older than MaxAge.
func (s *boltStore) pruneObservations(tx *bolt.Tx) error {
	b := tx.Bucket(observationsBucket)
	if b == nil || s.limits.MaxAge <= 0 {
		return nil
	}
	cutoff := s.now().Add(-s.limits.MaxAge)
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		var o Observed
		if json.Unmarshal(v, &o) != nil || o.Time.Before(cutoff) {
			old = append(old, append([]byte{}, k...))
		}
		return nil
	})
	for _, k := range old {
		if err == nil {
			err = b.Delete(k)
		}
	}
	return err
}
