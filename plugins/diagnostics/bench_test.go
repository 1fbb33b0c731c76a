package diagnostics_test

import (
	"fmt"
	"testing"

	"github.com/cordon-dev/cordon/plugins/diagnostics"
)

// BenchmarkEditWithoutServer is an edit of a file no server is configured for, without the plugin
// and with it: the plugin's cost there is the bookkeeping of the call.
func BenchmarkEditWithoutServer(b *testing.B) {
	for _, with := range []bool{false, true} {
		b.Run(fmt.Sprintf("plugin=%v", with), func(b *testing.B) {
			var cfg *diagnostics.Config
			if with {
				c := diagnostics.DefaultConfig()
				cfg = &c
			}
			e := newEnv(b, cfg)
			e.put(b, "notes.txt", "a\n")
			e.ok(b, "read", args{"file_path": e.path("notes.txt")})
			words := []string{"a", "b"}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				e.ok(b, "edit", args{"file_path": e.path("notes.txt"), "old_string": words[i%2], "new_string": words[(i+1)%2]})
				i++
			}
		})
	}
}

// BenchmarkEditLatency is an edit that changes a line of a small module with the real server:
// cold (a new server for each edit: start, the text before, the text after) and warm (the server
// running and the file checked once). Without the server installed it is skipped.
func BenchmarkEditLatency(b *testing.B) {
	for name, l := range languages() {
		for _, warm := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/warm=%v", name, warm), func(b *testing.B) {
				realServers(b, l.program)
				p := ""
				var e *env
				fresh := func() {
					e = realEnv(b, l.files)
					p = e.path(l.file)
					e.ok(b, "read", args{"file_path": p})
				}
				fresh()
				if warm {
					e.ok(b, "edit", args{"file_path": p, "old_string": l.breakOld, "new_string": l.breakNew})
				}
				i := 0
				for b.Loop() {
					if !warm {
						b.StopTimer()
						fresh()
						b.StartTimer()
					}
					old, new := l.breakOld, l.breakNew
					if warm && i%2 == 0 {
						old, new = new, old
					}
					r := e.ok(b, "edit", args{"file_path": p, "old_string": old, "new_string": new})
					if len(r.Content) < 2 {
						b.Fatalf("no diagnostics: %s", r.Text())
					}
					i++
				}
			})
		}
	}
}
