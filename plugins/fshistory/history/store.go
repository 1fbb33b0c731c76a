package history

import (
	"errors"
	"io"
	"time"
)

// Store is the seam behind which records and prior content live (docs/history.md "The store"). An
// implementation is safe for concurrent use by goroutines and by processes sharing its directory.
type Store interface {
	// Add commits r with the prior content (nil: none; over Limits.MaxContentBytes: its digest only),
	// assigning r.ID. The content is durable before the record commits; a record is whole or
	// absent. When r.Undoes names a change, that change is marked undone by r in the same commit.
	// The oldest records go once Limits are exceeded.
	Add(r Record, content io.Reader) (Record, error)
	// Complete settles a pending record: its change was published at versionAfter. Its commit
	// need not be durable (an unsettled record is settled again at the next start).
	Complete(id, versionAfter string, interrupted bool) error
	// Discard removes a pending record whose change was not published (and the undone mark it
	// set). Its commit need not be durable either.
	Discard(id string) error
	// List returns the records that m matches and keep accepts (nil: all), newest first. m is
	// checked before a record is decoded: the lists of a history of many changes decode only the
	// records they may return.
	List(m Match, keep func(*Record) bool) ([]Record, error)
	// Get returns the change of an id; ErrNoChange when there is none.
	Get(id string) (Record, error)
	// Content returns the prior bytes of r, checked against r.Digest.
	Content(r Record) ([]byte, error)
	// Usage reports what the store holds.
	Usage() (Usage, error)
	// Sweep removes content no record refers to (what a killed process left) and kept observations
	// older than Limits.MaxAge.
	Sweep() error
	// Observation returns an owner's kept observation of a target key; Observe keeps one. The
	// commit of Observe need not be durable: an observation lost in a crash only means a re-read.
	Observation(owner, key string) (Observed, bool, error)
	Observe(owner, key string, o Observed) error
	// Close commits what the store deferred (completions) and lets go of what it holds open
	// between operations; the store stays usable.
	Close()
}

// Match narrows a List to the records whose fields equal those it sets; the zero Match matches
// every record.
type Match struct {
	Pending bool   // only pending records
	Key     string // only the records of this target key ("": any)
	Group   string // only the records of this change group ("": any)
}

// Observed is a kept observation: its kind (fs.ObservationKind), version and time.
type Observed struct {
	Kind    string    `json:"kind"`
	Version string    `json:"version,omitempty"`
	Time    time.Time `json:"time"`
}

// Limits bound a store: content bytes, record age, one content's size.
type Limits struct {
	MaxBytes        int64
	MaxAge          time.Duration
	MaxContentBytes int64
}

// Usage is what a store holds.
type Usage struct {
	Records      int   `json:"records"`
	ContentBytes int64 `json:"contentBytes"`
	Contents     int   `json:"contents"`
	// FileBytes is the bytes the store's files take on disk (database and content).
	FileBytes int64 `json:"fileBytes"`
}

// ErrNoChange is the error of Get for an id no record has.
var ErrNoChange = errors.New("history: no such change")

// ErrContentLost wraps a failure to read back content a record says was kept.
var ErrContentLost = errors.New("history: content lost")
