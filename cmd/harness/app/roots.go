package app

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"go.uber.org/zap"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/spill"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// rootFlags are the workspace roots beside --cwd (docs/sandbox.md "Roots"): --root DIR
// (read-write) and --read-only-root DIR, both repeatable, and --allow-broad-root, without which
// a root that is the file system root or the home directory is refused.
type rootFlags struct {
	rw, ro []string // absolute, as given made absolute
	broad  bool
}

// define adds the root flags to fs.
func (r *rootFlags) define(fs *flag.FlagSet) {
	fs.Func("root", "a read-write workspace root `DIR` besides --cwd (repeatable)", func(s string) error {
		r.rw = append(r.rw, s)
		return nil
	})
	fs.Func("read-only-root", "a workspace root `DIR` read but never written (repeatable)", func(s string) error {
		r.ro = append(r.ro, s)
		return nil
	})
	fs.BoolVar(&r.broad, "allow-broad-root", false, "allow / or the home directory as a workspace root (--cwd included)")
}

// check makes every root absolute and refuses, naming it, a root that does not exist, is not a
// directory, or (unless --allow-broad-root) is the file system root or the home directory.
// workdir (the workspace, --cwd) is judged too when confining is set.
func (r *rootFlags) check(workdir string, confining bool) error {
	for _, list := range []*[]string{&r.rw, &r.ro} {
		for i, dir := range *list {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return fmt.Errorf("root %s: %w", dir, err)
			}
			st, err := os.Stat(abs)
			if err != nil {
				return fmt.Errorf("root %s: %w", abs, err)
			}
			if !st.IsDir() {
				return fmt.Errorf("root %s: not a directory", abs)
			}
			if err := r.broadRoot("root", abs); err != nil {
				return err
			}
			(*list)[i] = abs
		}
	}
	if confining {
		return r.broadRoot("--cwd", workdir)
	}
	return nil
}

// broadRoot refuses dir as a root when it is the file system root or the home directory, unless
// --allow-broad-root.
func (r *rootFlags) broadRoot(what, dir string) error {
	if r.broad {
		return nil
	}
	reason := sandbox.BroadRoot(dir)
	if reason == "" {
		return nil
	}
	return fmt.Errorf("%s %s is %s: as a workspace root it would let the model read and write every file beneath it "+
		"(ssh keys, credentials, other projects); start in the project's directory or name it with --cwd, "+
		"or pass --allow-broad-root to confine to %s anyway", what, dir, reason, dir)
}

// confines reports whether entries compose the sandbox policy (the roots mean something).
func confines(entries []loader.Entry) bool {
	for _, e := range entries {
		if e.Name == "sandbox-policy" {
			return true
		}
	}
	return false
}

// apply adds the root flags to the sandbox-policy entries' roots and readOnlyRoots and, when
// tool-fs-search is composed, the directory its over-cap results are saved in as a read-only root
// (a result names the file to read there).
func (r *rootFlags) apply(entries []loader.Entry) error {
	ro := r.ro
	if slices.ContainsFunc(entries, func(e loader.Entry) bool { return e.Name == "tool-fs-search" }) {
		if dir, err := spill.ProcessDir(os.LookupEnv); err == nil {
			ro = append(slices.Clip(ro), dir)
		}
	}
	for i := range entries {
		if entries[i].Name != "sandbox-policy" {
			continue
		}
		if err := appendSeq(&entries[i], "roots", r.rw); err != nil {
			return err
		}
		if err := appendSeq(&entries[i], "readOnlyRoots", ro); err != nil {
			return err
		}
	}
	return nil
}

// appendSeq appends values to the sequence key of e's config (created when missing).
func appendSeq(e *loader.Entry, key string, values []string) error {
	if len(values) == 0 {
		return nil
	}
	if err := setDefaultKey(e, key, ""); err != nil {
		return err
	}
	n := &e.Config
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			continue
		}
		v := n.Content[i+1]
		if v.Kind != yaml.SequenceNode {
			if v.Kind == yaml.ScalarNode && v.Value != "" && v.Tag != "!!null" {
				return fmt.Errorf("entry %q: %s must be a list", e.Name, key)
			}
			*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		}
		for _, s := range values {
			v.Content = append(v.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
		}
	}
	return nil
}

// logRoots logs, at start, the mode and the roots the composed policy enforces on agentless
// calls, or warns that nothing is confined.
func logRoots(h *host, source string) {
	policy, ok := sandbox.PolicyService.Get(h.k.Root())
	if !ok || policy == nil {
		h.log.Warn("no confinement: every tool reads and writes anywhere this process can (the workspace is only where relative paths resolve)",
			zap.String("config", source))
		return
	}
	pol := policy.Resolve(nil, "")
	w, _ := sandbox.WritableRoots(pol)
	readable, _, confined := sandbox.ReadableRoots(pol)
	fields := []zap.Field{zap.String("mode", string(pol.Mode)), zap.Strings("writable", w)}
	if confined {
		fields = append(fields, zap.String("reads", "roots"), zap.Strings("readable", readable))
	} else {
		fields = append(fields, zap.String("reads", "anywhere"))
	}
	h.log.Info("sandbox roots", fields...)
}

// client is how `serve` follows the clients' MCP roots: only without --cwd (follow), within the
// --root directories when there are any, and accepting / or the home directory only with
// --allow-broad-root.
func (r *rootFlags) client(follow bool, log *zap.Logger) mcphost.ClientRoots {
	within := make([]string, 0, len(r.rw))
	for _, d := range r.rw {
		within = append(within, sandbox.CanonicalPath(d))
	}
	return mcphost.ClientRoots{Follow: follow, Within: within, AllowBroad: r.broad, Log: log}
}
