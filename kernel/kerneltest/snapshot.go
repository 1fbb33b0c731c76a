package kerneltest

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/kernel"
)

// ListenerCounter is implemented by event keys that report how many listeners are registered
// (kernel.Event; other dispatch keys when they grow the method).
type ListenerCounter interface {
	Listeners(kc *kernel.Context) int
}

// ServiceProbe is implemented by every *kernel.Service[T] through a one-line adapter; see Service.
type ServiceProbe interface {
	Name() string
}

// Probe is one named count in a Snapshot.
type Probe struct {
	Name  string
	Count func() int
}

// Listeners probes the listener count of key as seen from kc.
func Listeners(name string, key ListenerCounter, kc *kernel.Context) Probe {
	return Probe{Name: "listeners " + name, Count: func() int { return key.Listeners(kc) }}
}

// Service probes whether s has an active provider as seen from kc (1) or not (0).
func Service[T any](s *kernel.Service[T], kc *kernel.Context) Probe {
	return Probe{Name: "service " + s.Name(), Count: func() int {
		if _, ok := s.Get(kc); ok {
			return 1
		}
		return 0
	}}
}

// KernelCounts probes the kernel-wide totals: listeners across all events, provided services and
// plugin instances that are not disposed.
func KernelCounts(k *kernel.Kernel) []Probe {
	return []Probe{
		{Name: "kernel listeners", Count: k.ListenerCount},
		{Name: "kernel services", Count: k.ServiceCount},
		{Name: "kernel fibers", Count: func() int { return len(k.Fibers()) }},
	}
}

// Func probes an arbitrary count, for state a test keeps itself (live goroutines, open files).
func Func(name string, count func() int) Probe {
	return Probe{Name: name, Count: count}
}

// Snapshot is the value of every probe at one moment, in the style of Cordis's getHookSnapshot.
type Snapshot map[string]int

// Take evaluates every probe.
func Take(probes ...Probe) Snapshot {
	s := make(Snapshot, len(probes))
	for _, p := range probes {
		s[p.Name] = p.Count()
	}
	return s
}

// String lists the counts sorted by name.
func (s Snapshot) String() string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%d", n, s[n])
	}
	return b.String()
}

// Diff describes every count that differs between s and other, or returns "" when none does.
func (s Snapshot) Diff(other Snapshot) string {
	var out []string
	for n, v := range s {
		if w, ok := other[n]; !ok || w != v {
			out = append(out, fmt.Sprintf("%s: %d -> %d", n, v, w))
		}
	}
	for n, w := range other {
		if _, ok := s[n]; !ok {
			out = append(out, fmt.Sprintf("%s: absent -> %d", n, w))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// Baseline records the probes now and returns a function that fails the test unless the probes
// read the same values again (call it after disposing what the test loaded).
func Baseline(t testing.TB, probes ...Probe) (requireUnchanged func()) {
	t.Helper()
	before := Take(probes...)
	return func() {
		t.Helper()
		after := Take(probes...)
		if d := before.Diff(after); d != "" {
			t.Fatalf("kerneltest: counts did not return to baseline: %s (before: %s)", d, before)
		}
	}
}
