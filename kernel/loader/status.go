package loader

import (
	"fmt"
	"strings"

	"github.com/cordon-dev/cordon/kernel"
)

// StateDisabled is the Status.State of an entry that is in the composition but not loaded.
const StateDisabled = "disabled"

// Status is the state of one entry of the applied composition.
type Status struct {
	Index    int
	ID       string
	Name     string
	Disabled bool
	// State is the instance's kernel.State in lower case ("active", "pending", "failed", ...), or
	// StateDisabled.
	State string
	// Err is the error of the last failed Apply of a failed instance.
	Err error
	// Missing lists the services a pending instance waits for.
	Missing []string
}

// describe renders the state as one line: "active", "pending: missing fs, tools", "failed: ...".
func (s Status) describe() string {
	switch {
	case s.Err != nil:
		return s.State + ": " + oneLine(s.Err.Error())
	case len(s.Missing) > 0:
		return s.State + ": missing " + strings.Join(s.Missing, ", ")
	}
	return s.State
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// Status returns the state of every entry of the applied composition, in composition order.
func (l *Loader) Status() []Status {
	_, status := l.snapshot()
	return status
}

// snapshot returns the applied composition and its status, consistent with each other.
func (l *Loader) snapshot() ([]Entry, []Status) {
	l.mu.Lock()
	entries := append([]Entry(nil), l.entries...)
	fibers := make([]*kernel.Fiber, len(entries))
	for i, e := range entries {
		if s := l.slots[e.ID]; s != nil && !e.Disabled {
			fibers[i] = s.fiber
		}
	}
	l.mu.Unlock()
	out := make([]Status, len(entries))
	for i, e := range entries {
		st := Status{Index: i, ID: e.ID, Name: e.Name, Disabled: e.Disabled, State: StateDisabled}
		if f := fibers[i]; f != nil {
			st.State = f.State().String()
			switch f.State() {
			case kernel.Failed:
				st.Err = f.Err()
			case kernel.Pending:
				st.Missing = f.Missing()
			}
		}
		out[i] = st
	}
	return entries, out
}

// AuditError lists the enabled entries that are not active: failed ones with their error,
// pending ones with the services they wait for.
type AuditError struct {
	Failed []Status
	// Pending holds every other enabled entry that is not active: pending ones, and instances
	// disposed behind the loader's back (state "disposed").
	Pending []Status
}

func (e *AuditError) Error() string {
	var b strings.Builder
	b.WriteString("boot audit:")
	for _, s := range append(append([]Status(nil), e.Failed...), e.Pending...) {
		fmt.Fprintf(&b, "\n  %s: %s", entryLabel(s.Index, s.ID, s.Name), s.describe())
	}
	return b.String()
}

// Unwrap returns the errors of the failed entries, each an *EntryError.
func (e *AuditError) Unwrap() []error {
	out := make([]error, 0, len(e.Failed))
	for _, s := range e.Failed {
		out = append(out, &EntryError{Index: s.Index, ID: s.ID, Name: s.Name, Err: s.Err})
	}
	return out
}

// Audit checks the applied composition the way a host's boot check does: it returns an
// *AuditError naming every enabled entry that is Failed (with its error) or still Pending (with its
// missing services), or nil when every enabled entry is active. Loads are synchronous, so the tree
// has settled when Apply returns. Hosts decide whether pending entries are fatal (errors.As, then
// look at AuditError.Failed alone).
func (l *Loader) Audit() error {
	var ae AuditError
	for _, s := range l.Status() {
		switch {
		case s.State == kernel.Failed.String():
			ae.Failed = append(ae.Failed, s)
		case s.State == StateDisabled || s.State == kernel.Active.String():
		default:
			ae.Pending = append(ae.Pending, s)
		}
	}
	if len(ae.Failed) == 0 && len(ae.Pending) == 0 {
		return nil
	}
	return &ae
}
