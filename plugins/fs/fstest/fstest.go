package fstest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Violation is one way a provider breaks the seam's contract: the check that found it
// ("WriteText/replace-if-version") and what was wrong, naming the call, what it returned and what
// the contract wants.
type Violation struct {
	Check   string
	Message string
}

func (v Violation) String() string { return v.Check + ": " + v.Message }

// Report is the error CheckFileSystem returns: every violation found, in check order.
type Report struct {
	Violations []Violation
}

func (r *Report) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fstest: %d violation(s) of the fs seam's contract:", len(r.Violations))
	for _, v := range r.Violations {
		b.WriteString("\n\t")
		b.WriteString(v.String())
	}
	return b.String()
}

// Checks returns the name of every check ("WriteText/bom"), in the order they run. The checks of
// fs.Searcher are skipped for a provider that does not implement it.
func Checks() []string {
	names := make([]string, 0, len(checks))
	for _, ck := range checks {
		names = append(names, ck.group+"/"+ck.name)
	}
	return names
}

// TestFileSystem runs every check against the provider newFS returns and fails t once for each
// violation found, in a subtest per check (TestX/WriteText/replace-if-version), so -run can pick
// checks. newFS is called once, with root: a fresh empty directory (physical: no symbolic link on
// its path) that the provider must serve, read and write as a host directory, and that must be its
// default base for relative paths. A check that sees a provider panic reports the panic and goes on
// with the next check.
func TestFileSystem(t *testing.T, newFS func(t *testing.T, root string) fs.FileSystem) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatalf("fstest: %v", err)
	}
	fsys := newFS(t, root)
	if fsys == nil {
		t.Fatal("fstest: newFS returned a nil fs.FileSystem")
	}
	groups := map[string][]int{}
	var order []string
	for i, ck := range checks {
		if _, ok := groups[ck.group]; !ok {
			order = append(order, ck.group)
		}
		groups[ck.group] = append(groups[ck.group], i)
	}
	for _, g := range order {
		t.Run(g, func(t *testing.T) {
			for _, i := range groups[g] {
				t.Run(checks[i].name, func(t *testing.T) {
					vs, skipped := run(t.Context(), fsys, root, i)
					for _, v := range vs {
						t.Error(v.Message)
					}
					if skipped != "" && len(vs) == 0 {
						t.Skip(skipped)
					}
				})
			}
		})
	}
}

// CheckFileSystem is TestFileSystem without a testing.T: it runs every check against fsys over
// root (an existing empty directory, physical, fsys's default base for relative paths; the checks
// fill it) and returns nil, or a *Report listing every violation. A cancelled ctx stops the checks
// that have not started.
func CheckFileSystem(ctx context.Context, fsys fs.FileSystem, root string) error {
	var all []Violation
	for i := range checks {
		if ctx.Err() != nil {
			break
		}
		vs, _ := run(ctx, fsys, root, i)
		all = append(all, vs...)
	}
	if len(all) == 0 {
		return nil
	}
	return &Report{Violations: all}
}

// run runs check i in a directory of its own under root and returns its violations, or why the
// check does not apply to fsys.
func run(ctx context.Context, fsys fs.FileSystem, root string, i int) (vs []Violation, skipped string) {
	ck := checks[i]
	c := &checker{ctx: ctx, fsys: fsys, root: root, name: ck.group + "/" + ck.name}
	c.dir = filepath.Join(root, fmt.Sprintf("%02d-%s-%s", i, ck.group, ck.name))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				c.errorf("panicked: %v\n%s", r, debug.Stack())
			}
		}
		vs, skipped = c.violations, c.skipped
	}()
	if err := os.Mkdir(c.dir, 0o755); err != nil {
		c.fatalf("fixture: %v", err)
	}
	ck.run(c)
	return
}
