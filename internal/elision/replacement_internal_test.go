package elision

import (
	"path"
	"strings"
	"testing"
)

// The rules as first written, over the whole old text in memory: the oracle of a Replacement fed
// piece by piece.

func placeholderOracle(name, content, old string) (line string, number int, ok bool) {
	ms, known := markers[strings.ToLower(path.Ext(name))]
	if !known {
		ms = allMarkers
	}
	had := map[string]bool{}
	for _, l := range strings.Split(old, "\n") {
		had[strings.TrimSpace(l)] = true
	}
	for i, l := range strings.Split(content, "\n") {
		body, ok := commentBody(strings.TrimSpace(strings.TrimSuffix(l, "\r")), ms)
		if ok && placeholderBody(body) && !had[strings.TrimSpace(l)] {
			return strings.TrimSuffix(l, "\r"), i + 1, true
		}
	}
	return "", 0, false
}

func droppedOracle(old, content string, keep func(line int) bool) (gone, solid int) {
	have := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		have[strings.TrimSpace(l)]++
	}
	if old == "" {
		return 0, 0
	}
	lines := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	if keep != nil {
		for i, l := range lines {
			if t := strings.TrimSpace(l); !keep(i+1) && have[t] > 0 {
				have[t]--
			}
		}
	}
	for i, l := range lines {
		if keep != nil && !keep(i+1) {
			continue
		}
		t := strings.TrimSpace(l)
		if have[t] > 0 {
			have[t]--
			continue
		}
		gone++
		if t != "" {
			solid++
		}
	}
	return gone, solid
}

func refusesOracle(name, old, content string) (string, int, bool) {
	line, number, ok := placeholderOracle(name, content, old)
	if !ok {
		return "", 0, false
	}
	_, solid := droppedOracle(old, content, nil)
	_, all := droppedOracle(old, "", nil)
	if all == 0 || solid*100 <= all*MostPercent {
		return "", 0, false
	}
	return line, number, true
}

// FuzzReplacement holds a Replacement fed in pieces of every size to the rules over the whole
// text: the same lines, drops, placeholder and refusal.
func FuzzReplacement(f *testing.F) {
	f.Add("a.go", "a\n}\nb\n}\nx\n", "}\nx\ny\n// ... rest unchanged ...\n", uint8(3), uint8(4))
	f.Add("a.py", "a\nb\n\nc\nd\n", "a\n  d\nx\n", uint8(1), uint8(0))
	f.Add("x", "\n\n", "# ...\r\n", uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, name, old, content string, piece, read uint8) {
		keep := func(line int) bool { return read == 0 || line%int(read) != 0 }
		r := NewReplacement(name, content, keep)
		n := int(piece%16) + 1
		for rest := old; len(rest) > 0; {
			k := min(n, len(rest))
			if piece&1 == 0 {
				_, _ = r.Write([]byte(rest[:k]))
			} else {
				_, _ = r.WriteString(rest[:k])
			}
			rest = rest[k:]
		}
		if got, want := r.Lines(), Lines(old); got != want {
			t.Fatalf("Lines = %d; want %d", got, want)
		}
		g, s := r.Dropped()
		if wg, ws := droppedOracle(old, content, keep); g != wg || s != ws {
			t.Fatalf("Dropped = %d, %d; want %d, %d", g, s, wg, ws)
		}
		g, s = r.DroppedAll()
		if wg, ws := droppedOracle(old, content, nil); g != wg || s != ws {
			t.Fatalf("DroppedAll = %d, %d; want %d, %d", g, s, wg, ws)
		}
		l, at, ok := r.Placeholder()
		if wl, wat, wok := placeholderOracle(name, content, old); l != wl || at != wat || ok != wok {
			t.Fatalf("Placeholder = %q %d %v; want %q %d %v", l, at, ok, wl, wat, wok)
		}
		l, at, ok = r.Refuses()
		if wl, wat, wok := refusesOracle(name, old, content); l != wl || at != wat || ok != wok {
			t.Fatalf("Refuses = %q %d %v; want %q %d %v", l, at, ok, wl, wat, wok)
		}
		l, at, ok = Refuses(name, old, content)
		if wl, wat, wok := refusesOracle(name, old, content); l != wl || at != wat || ok != wok {
			t.Fatalf("Refuses (whole) = %q %d %v; want %q %d %v", l, at, ok, wl, wat, wok)
		}
	})
}
